//! What a caller asks a shell session to run, and the line bash reads for it: the
//! command under `eval` with its directory, its variables, its stdin FIFO and the status
//! marker that tells where its output ends.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::status_marker::StatusScanner;

/// What a caller asked to run.
pub struct Launch {
    pub command: String,
    /// Change to this directory first (it stays the shell's directory afterwards).
    pub cwd: Option<PathBuf>,
    pub env: BTreeMap<String, String>,
}

/// The line bash reads for one command: optional `cd`, the command's own variables, the
/// command under `eval` (so a syntax error fails the command instead of leaving bash
/// waiting for more input) with stdin from its FIFO, then the status marker.
pub(super) fn script_for(launch: &Launch, fifo: &Path, nonce: &str) -> String {
    let mut line = String::new();
    if let Some(cwd) = &launch.cwd {
        line.push_str(&format!("cd -- {} && ", quote(&cwd.to_string_lossy())));
    }
    for (key, value) in &launch.env {
        line.push_str(&format!("{key}={} ", quote(value)));
    }
    line.push_str(&format!(
        "eval {} < {}; {}\n",
        quote(&launch.command),
        quote(&fifo.to_string_lossy()),
        StatusScanner::print_status_command(nonce)
    ));
    line
}

/// Single-quotes `text` for bash.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Not secret, only unlikely to collide: the marker must not appear in output by chance.
pub(super) fn rand_u128() -> u128 {
    use std::hash::{BuildHasher, Hasher};
    let half = || {
        std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish()
    };
    (u128::from(half()) << 64) | u128::from(half())
}
