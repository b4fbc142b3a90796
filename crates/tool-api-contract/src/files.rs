//! File operations: read, write, replace, find, search, list, stat, mkdir, move, delete,
//! upload, download, archive and watch.
//!
//! Relative paths are resolved against the sandbox workspace directory; every path the
//! server returns is absolute.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// Read a text file, whole or a 1-based inclusive line range, up to `max_bytes`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct ReadFileRequest {
    pub path: String,
    /// First line to return (1-based). Defaults to 1.
    #[serde(default)]
    pub start_line: Option<u64>,
    /// Last line to return (inclusive). Defaults to the end of the file.
    #[serde(default)]
    pub end_line: Option<u64>,
    /// Cap on the returned content in bytes; the server also applies its own cap.
    #[serde(default)]
    pub max_bytes: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ReadFileResponse {
    pub path: String,
    /// Size of the whole file in bytes.
    pub size: u64,
    /// True when the file looks binary; `content` is then empty.
    pub binary: bool,
    /// True when invalid UTF-8 sequences were replaced with U+FFFD.
    pub lossy: bool,
    pub content: String,
    /// Line numbers of the returned slice (1-based, inclusive); 0/0 for an empty result.
    pub start_line: u64,
    pub end_line: u64,
    /// Number of lines in the file, when the whole file was scanned.
    pub total_lines: Option<u64>,
    /// True when `content` stops early because of the byte limit.
    pub truncated: bool,
}

/// Write a file. Parents are created. Without `append` the file is replaced atomically
/// (written to a temporary file beside it, then renamed over it).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct WriteFileRequest {
    pub path: String,
    pub content: String,
    #[serde(default)]
    pub append: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct WriteFileResponse {
    pub path: String,
    pub bytes_written: u64,
    /// Size of the file after the write.
    pub size: u64,
}

/// Replace exactly one occurrence of `old` with `new`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct ReplaceRequest {
    pub path: String,
    pub old: String,
    pub new: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ReplaceResponse {
    pub path: String,
    /// 1-based line where the replaced text started.
    pub line: u64,
    pub size: u64,
}

/// Find files under `path` whose path relative to it matches `glob` (e.g. `**/*.rs`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct FindRequest {
    pub path: String,
    pub glob: String,
    #[serde(default)]
    pub max_results: Option<u32>,
    /// Only files (no folders) last modified at or after this time, in milliseconds
    /// since the Unix epoch: what a piece of work created or changed.
    #[serde(default)]
    pub modified_since_ms: Option<i64>,
    /// Leaves out names starting with `.` and does not look inside such folders (caches,
    /// tool state), which can hold more files than the scan limit.
    #[serde(default)]
    pub skip_hidden: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FindResponse {
    pub matches: Vec<String>,
    /// True when `max_results` or the scan limit stopped the search.
    pub truncated: bool,
}

/// Search file contents under `path` for a regular expression (Rust `regex` syntax).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct SearchRequest {
    pub path: String,
    pub regex: String,
    /// Only files whose relative path matches this glob.
    #[serde(default)]
    pub glob: Option<String>,
    #[serde(default)]
    pub case_insensitive: bool,
    #[serde(default)]
    pub max_results: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SearchMatch {
    pub path: String,
    pub line: u64,
    /// The matching line, cut to a sane length.
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SearchResponse {
    pub matches: Vec<SearchMatch>,
    pub files_scanned: u64,
    pub truncated: bool,
}

/// A request that names one path.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, IntoParams)]
pub struct PathRequest {
    pub path: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FileKind {
    File,
    Dir,
    Symlink,
    Other,
}

/// One directory entry, or the answer to `stat`. Symlinks are not followed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FileEntry {
    pub name: String,
    pub path: String,
    pub kind: FileKind,
    pub size: u64,
    /// Modification time, milliseconds since the Unix epoch.
    pub mtime_ms: i64,
    /// Permission bits, e.g. 0o644 = 420.
    pub mode: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symlink_target: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ListResponse {
    pub path: String,
    /// Directories first, then by name.
    pub entries: Vec<FileEntry>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct MkdirRequest {
    pub path: String,
    /// Create missing parents too (default true).
    #[serde(default = "yes")]
    pub parents: bool,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct MoveRequest {
    pub from: String,
    pub to: String,
    #[serde(default)]
    pub overwrite: bool,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct DeleteRequest {
    pub path: String,
    /// Needed to delete a directory that is not empty.
    #[serde(default)]
    pub recursive: bool,
}

/// Query of `PUT /v1/files/upload`; the body is the raw file content.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, IntoParams)]
pub struct UploadQuery {
    pub path: String,
    #[serde(default)]
    pub overwrite: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct UploadResponse {
    pub path: String,
    pub size: u64,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum ArchiveFormat {
    #[default]
    #[serde(rename = "zip")]
    Zip,
    #[serde(rename = "tar.gz")]
    TarGz,
}

/// Query of `GET /v1/files/archive`: a directory streamed as one archive.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, IntoParams)]
pub struct ArchiveQuery {
    pub path: String,
    #[serde(default)]
    pub format: ArchiveFormat,
}

/// Query of `GET /v1/files/watch`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, IntoParams)]
pub struct WatchQuery {
    pub path: String,
    /// Watch the whole tree (default true).
    #[serde(default = "yes")]
    pub recursive: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FileEventKind {
    Created,
    Modified,
    Removed,
}

/// The `data:` of one SSE event of a watch stream (event name `file`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FileEvent {
    pub kind: FileEventKind,
    pub path: String,
}

fn yes() -> bool {
    true
}
