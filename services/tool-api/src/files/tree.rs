//! Shaping the tree: `mkdir`, `move` and `delete`.

use std::io::ErrorKind;
use std::path::Path;

use tool_api_contract::files::{DeleteRequest, FileEntry, MkdirRequest, MoveRequest};
use tool_api_contract::ErrorCode;

use super::entries::describe;
use super::staging::{create_parents, Staged};
use super::{already_exists, blocking, display};
use crate::error::{ToolError, ToolResult};
use crate::paths::Workspace;

/// Creates a directory (and its missing parents unless `parents` is false). An existing
/// directory is fine; the answer describes it.
pub async fn make_dir(workspace: &Workspace, request: MkdirRequest) -> ToolResult<FileEntry> {
    let path = workspace.resolve(&request.path)?;
    blocking(move || {
        let io_error = |err| ToolError::io(err, &path);
        let created = if request.parents {
            std::fs::create_dir_all(&path)
        } else {
            std::fs::create_dir(&path)
        };
        match created {
            Err(err) if err.kind() == ErrorKind::AlreadyExists && path.is_dir() => {}
            other => other.map_err(io_error)?,
        }
        describe(&path).map_err(io_error)
    })
    .await
}

/// Renames `from` to `to`, creating `to`'s parents. An existing `to` is replaced only with
/// `overwrite` (a directory only when it is empty). Across filesystems, a file is copied
/// and the original removed.
pub async fn move_path(workspace: &Workspace, request: MoveRequest) -> ToolResult<FileEntry> {
    let from = workspace.resolve(&request.from)?;
    let to = workspace.resolve(&request.to)?;
    refuse_workspace(workspace, &from, "move")?;
    refuse_workspace(workspace, &to, "replace")?;
    blocking(move || {
        std::fs::symlink_metadata(&from).map_err(|err| ToolError::io(err, &from))?;
        // The check and the rename are two steps; the agent is the only one shaping its
        // sandbox, so the window between them is accepted.
        if !request.overwrite && std::fs::symlink_metadata(&to).is_ok() {
            return Err(already_exists(&to));
        }
        create_parents(&to)?;
        match std::fs::rename(&from, &to) {
            Ok(()) => {}
            Err(err) if err.kind() == ErrorKind::CrossesDevices && from.is_file() => {
                copy_across(&from, &to, request.overwrite)?;
            }
            Err(err) if err.kind() == ErrorKind::DirectoryNotEmpty => {
                return Err(ToolError::new(
                    ErrorCode::DirectoryNotEmpty,
                    format!(
                        "{}: is a directory that is not empty; delete it first",
                        display(&to)
                    ),
                ));
            }
            Err(err) => return Err(ToolError::io(err, &to)),
        }
        describe(&to).map_err(|err| ToolError::io(err, &to))
    })
    .await
}

/// Moves a file to another filesystem: copied beside the target with its permission bits,
/// renamed into place, and only then the original removed.
fn copy_across(from: &Path, to: &Path, overwrite: bool) -> ToolResult<()> {
    let staged = Staged::create(to)?;
    let mut source = std::fs::File::open(from).map_err(|err| ToolError::io(err, from))?;
    let permissions = source
        .metadata()
        .map_err(|err| ToolError::io(err, from))?
        .permissions();
    std::io::copy(&mut source, &mut staged.file()).map_err(|err| ToolError::io(err, to))?;
    staged
        .file()
        .set_permissions(permissions)
        .map_err(|err| ToolError::io(err, to))?;
    staged.commit(overwrite)?;
    std::fs::remove_file(from).map_err(|err| ToolError::io(err, from))
}

/// Deletes a file, a symlink (not what it points to) or a directory; a directory that is
/// not empty only with `recursive`.
pub async fn delete(workspace: &Workspace, request: DeleteRequest) -> ToolResult<()> {
    let path = workspace.resolve(&request.path)?;
    refuse_workspace(workspace, &path, "delete")?;
    blocking(move || {
        let io_error = |err| ToolError::io(err, &path);
        let meta = std::fs::symlink_metadata(&path).map_err(io_error)?;
        let removed = if !meta.is_dir() {
            std::fs::remove_file(&path)
        } else if request.recursive {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_dir(&path)
        };
        removed.map_err(io_error)
    })
    .await
}

/// The workspace and the directories above it (`/` included) are never moved or deleted:
/// every relative path depends on them.
fn refuse_workspace(workspace: &Workspace, path: &Path, verb: &str) -> ToolResult<()> {
    if workspace.root().starts_with(path) {
        return Err(ToolError::invalid(format!(
            "{}: refusing to {verb} the workspace or a directory above it",
            display(path)
        )));
    }
    Ok(())
}
