//! `stat` and `list`: what is at a path, and what a directory holds. Symlinks are described,
//! not followed.

use std::fs::Metadata;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use tool_api_contract::files::{FileEntry, FileKind, ListResponse, PathRequest};

use super::{blocking, display, metadata, require_dir};
use crate::error::{ToolError, ToolResult};
use crate::paths::Workspace;

pub async fn stat(workspace: &Workspace, request: PathRequest) -> ToolResult<FileEntry> {
    let path = workspace.resolve(&request.path)?;
    blocking(move || describe(&path).map_err(|err| ToolError::io(err, &path))).await
}

/// Directories first, then by name.
pub async fn list(workspace: &Workspace, request: PathRequest) -> ToolResult<ListResponse> {
    let path = workspace.resolve(&request.path)?;
    blocking(move || {
        require_dir(&metadata(&path)?, &path)?;
        let io_error = |err| ToolError::io(err, &path);
        let mut entries = Vec::new();
        for item in std::fs::read_dir(&path).map_err(io_error)? {
            // An entry removed while the directory is read is simply not listed.
            if let Ok(entry) = item.and_then(|item| describe(&item.path())) {
                entries.push(entry);
            }
        }
        entries.sort_by(|a, b| (a.kind != FileKind::Dir, &a.name).cmp(&(b.kind != FileKind::Dir, &b.name)));
        Ok(ListResponse {
            path: display(&path),
            entries,
        })
    })
    .await
}

/// The entry for `path` itself (`lstat`).
pub fn describe(path: &Path) -> std::io::Result<FileEntry> {
    let meta = std::fs::symlink_metadata(path)?;
    let kind = kind_of(&meta);
    let symlink_target = if kind == FileKind::Symlink {
        Some(display(&std::fs::read_link(path)?))
    } else {
        None
    };
    Ok(FileEntry {
        name: path
            .file_name()
            .map_or_else(|| display(path), |name| name.to_string_lossy().into_owned()),
        path: display(path),
        kind,
        size: meta.len(),
        mtime_ms: meta
            .mtime()
            .saturating_mul(1000)
            .saturating_add(meta.mtime_nsec() / 1_000_000),
        mode: meta.permissions().mode() & 0o7777,
        symlink_target,
    })
}

fn kind_of(meta: &Metadata) -> FileKind {
    let kind = meta.file_type();
    if kind.is_symlink() {
        FileKind::Symlink
    } else if kind.is_dir() {
        FileKind::Dir
    } else if kind.is_file() {
        FileKind::File
    } else {
        FileKind::Other
    }
}
