//! The files of a session's sandbox as the person browses them: entries, downloads,
//! uploads and live changes (the port to the sandbox that holds them:
//! [`super::ports::SandboxFiles`]). Paths are
//! the sandbox's own (relative ones start at its workspace).

use bytes::Bytes;
use futures::stream::BoxStream;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where attachments go, relative to the sandbox's workspace.
pub const UPLOADS_DIR: &str = "uploads";

/// A body that arrives (or leaves) piece by piece.
pub type ByteStream = BoxStream<'static, Result<Bytes, std::io::Error>>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FileKind {
    File,
    Dir,
    Symlink,
    Other,
}

/// One file or folder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FileEntry {
    pub name: String,
    /// Absolute path inside the sandbox.
    pub path: String,
    pub kind: FileKind,
    pub size: u64,
    /// Modification time, milliseconds since the Unix epoch.
    pub mtime_ms: i64,
}

/// A folder's entries: folders first, then by name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Listing {
    pub path: String,
    pub entries: Vec<FileEntry>,
}

/// The files under the workspace changed since some time, hidden ones left out.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangedFiles {
    /// The workspace's absolute path.
    pub root: String,
    /// Relative to `root`, by path.
    pub paths: Vec<String>,
    /// More files changed than were listed.
    pub truncated: bool,
}

/// A file (or a folder as an archive) on its way out.
pub struct Download {
    pub body: ByteStream,
    /// The length of `body`, when known.
    pub length: Option<u64>,
    /// `Content-Range` of a partial answer to a `Range` request.
    pub content_range: Option<String>,
    pub content_type: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FileChangeKind {
    Created,
    Modified,
    Removed,
}

/// Something changed under a watched folder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FileChange {
    pub kind: FileChangeKind,
    pub path: String,
}

/// The name an attachment is stored under: one path component, no tricks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileName(String);

impl FileName {
    pub fn parse(raw: &str) -> Result<Self, super::DomainError> {
        let invalid = |why: &str| Err(super::DomainError::Invalid(format!("the file name {why}")));
        let name = raw.trim();
        if name.is_empty() {
            return invalid("is empty");
        }
        if name.len() > 255 {
            return invalid("is longer than 255 bytes");
        }
        if name == "." || name == ".." || name.contains(['/', '\\', '\0']) {
            return invalid("must be a plain name, without / or \\");
        }
        if name.chars().any(char::is_control) {
            return invalid("contains control characters");
        }
        Ok(Self(name.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Where it goes in the sandbox.
    pub fn upload_path(&self) -> String {
        format!("{UPLOADS_DIR}/{}", self.0)
    }
}

/// A path inside the workspace, relative to it (`out/report.md`): no `..`, not absolute,
/// not from `~`. Each name of it is one the sandbox's file system accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspacePath(String);

impl WorkspacePath {
    /// Longest path accepted, as Linux's `PATH_MAX`.
    const MAX_BYTES: usize = 4096;

    pub fn parse(raw: &str) -> Result<Self, super::DomainError> {
        let invalid = |why: &str| {
            Err(super::DomainError::Invalid(format!(
                "`{raw}` is not a path inside the workspace: {why}"
            )))
        };
        if raw.len() > Self::MAX_BYTES || raw.chars().any(char::is_control) {
            return invalid("it is too long or has control characters");
        }
        if raw.starts_with('/') || raw.starts_with('~') {
            return invalid("give it relative to the workspace, such as `out/report.md`");
        }
        let parts: Vec<&str> = raw.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
        if parts.contains(&"..") {
            return invalid("`..` leads out of it");
        }
        if parts.is_empty() {
            return invalid("it names no file");
        }
        Ok(Self(parts.join("/")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The folders that lead to the file, outermost first, then the path itself.
    pub fn steps(&self) -> impl Iterator<Item = &str> {
        self.0
            .match_indices('/')
            .map(|(at, _)| &self.0[..at])
            .chain(std::iter::once(self.0.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::{FileName, WorkspacePath};

    #[test]
    fn workspace_paths_stay_inside_it() {
        let path = WorkspacePath::parse("./out//a/./b.txt").unwrap();
        assert_eq!(path.as_str(), "out/a/b.txt");
        assert_eq!(path.steps().collect::<Vec<_>>(), ["out", "out/a", "out/a/b.txt"]);
        for bad in [
            "",
            ".",
            "/home/sandbox/.bashrc",
            "~/.bashrc",
            "~",
            "../.bashrc",
            "out/../../x",
            "a\0b",
            "tab\there",
            &"a/".repeat(2100),
        ] {
            assert!(WorkspacePath::parse(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn file_names_are_single_components() {
        assert_eq!(
            FileName::parse(" report.csv ").unwrap().upload_path(),
            "uploads/report.csv"
        );
        for bad in [
            "",
            "  ",
            ".",
            "..",
            "a/b",
            "..\\x",
            "a\0b",
            "tab\there",
            &"x".repeat(256),
        ] {
            assert!(FileName::parse(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
