//! File operations on the sandbox's filesystem: read, write, replace, find, search, list,
//! stat, mkdir, move, delete, upload, download, archive and watch.
//!
//! Every operation takes the client's path strings and resolves them through the
//! [`Workspace`](crate::paths::Workspace); the paths it answers with are absolute. Blocking
//! filesystem work runs on tokio's blocking pool, except the small reads and writes an
//! agent makes most (see [`INLINE_MAX_BYTES`]). Nothing here knows about HTTP.

mod archive;
mod download;
mod edit;
mod entries;
mod find;
mod glob;
mod lines;
mod range;
mod read;
mod search;
mod staging;
mod text;
mod tree;
mod upload;
mod walk;
mod watch;
mod write;

use std::fs::Metadata;
use std::path::Path;

use tool_api_contract::ErrorCode;

pub use archive::{archive, Archive};
pub use download::{open_download, Download};
pub use edit::replace;
pub use entries::{list, stat};
pub use find::find;
pub use range::{byte_range, ByteRange};
pub use read::read;
pub use search::search;
pub use staging::is_staging_name;
pub use tree::{delete, make_dir, move_path};
pub use upload::upload;
pub use watch::watch;
pub use write::write;

use crate::config::Limits;
use crate::error::{ToolError, ToolResult};

/// Writes of up to this much content, and reads of files up to this size, run on the
/// request's own task. They are a handful of system calls on the page cache, a few
/// microseconds; handing them to the blocking pool and back costs more than the work
/// (two thread wake-ups and context switches per request) and was most of their CPU time.
const INLINE_MAX_BYTES: u64 = 64 << 10;

/// Runs blocking filesystem work on tokio's blocking pool.
async fn blocking<T, F>(work: F) -> ToolResult<T>
where
    F: FnOnce() -> ToolResult<T> + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|err| ToolError::Internal(anyhow::Error::new(err).context("file operation task failed")))?
}

/// The client's cap on the results of a find or search, within the server's.
fn result_cap(requested: Option<u32>, limits: &Limits) -> usize {
    requested.unwrap_or(limits.max_results).min(limits.max_results) as usize
}

/// How a path is shown to clients. Names that are not UTF-8 are shown lossily.
fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// `Ok` when `meta` (of `path`) is a regular file, else a `WrongKind` error.
fn require_file(meta: &Metadata, path: &Path) -> ToolResult<()> {
    if meta.is_file() {
        Ok(())
    } else if meta.is_dir() {
        Err(wrong_kind(path, "is a directory, not a file"))
    } else {
        Err(wrong_kind(path, "is not a regular file"))
    }
}

/// `Ok` when `meta` (of `path`) is a directory, else a `WrongKind` error.
fn require_dir(meta: &Metadata, path: &Path) -> ToolResult<()> {
    if meta.is_dir() {
        Ok(())
    } else {
        Err(wrong_kind(path, "is not a directory"))
    }
}

/// The error for a target that exists where the client did not ask to replace it.
fn already_exists(path: &Path) -> ToolError {
    ToolError::new(
        ErrorCode::AlreadyExists,
        format!("{}: already exists (set overwrite to replace it)", path.display()),
    )
}

fn wrong_kind(path: &Path, what: &str) -> ToolError {
    ToolError::new(ErrorCode::WrongKind, format!("{}: {what}", path.display()))
}

/// `std::fs::metadata` (following symlinks) with the client-facing error.
fn metadata(path: &Path) -> ToolResult<Metadata> {
    std::fs::metadata(path).map_err(|err| ToolError::io(err, path))
}
