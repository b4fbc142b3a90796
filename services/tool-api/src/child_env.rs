//! The environment of programs the tool-api starts on someone's behalf (shells, the
//! terminal, the kernel, MCP servers, the desktop): variables they are given must be
//! settable, and the tool-api's own secrets are not theirs to see.

use std::collections::BTreeMap;

/// Variables that carry the tool-api's secrets (see [`crate::config`]).
pub const SECRET_VARIABLES: [&str; 2] = ["SANDBOX_TOKEN", "SANDBOX_TOKEN_SHA256"];

/// Takes the secrets out of the process's environment once the settings hold them, so no
/// child inherits them, and makes the process non-dumpable, so another process of the
/// sandbox user cannot read them from `/proc/<pid>/environ` or its memory either. Call it
/// before any other thread starts: the environment is not safe to change beside readers.
pub fn forget_secrets() {
    for name in SECRET_VARIABLES {
        std::env::remove_var(name);
    }
    if let Err(err) = nix::sys::prctl::set_dumpable(false) {
        tracing::warn!(%err, "the tool-api could not make itself non-dumpable");
    }
}

/// Names a person picked: a variable the OS cannot set is refused with a message naming it.
pub fn check(env: &BTreeMap<String, String>) -> Result<(), String> {
    match env
        .iter()
        .find(|(key, value)| key.is_empty() || key.contains(['=', '\0']) || value.contains('\0'))
    {
        Some((key, _)) => Err(format!("invalid environment variable {key:?}")),
        None => Ok(()),
    }
}
