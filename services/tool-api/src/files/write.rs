//! `write`: replace a file's content atomically, or append to it.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

use tool_api_contract::files::{WriteFileRequest, WriteFileResponse};

use super::staging::{create_parents, Staged};
use super::{blocking, display, INLINE_MAX_BYTES};
use crate::error::{ToolError, ToolResult};
use crate::paths::Workspace;

pub async fn write(workspace: &Workspace, request: WriteFileRequest) -> ToolResult<WriteFileResponse> {
    let path = workspace.resolve(&request.path)?;
    if request.content.len() as u64 <= INLINE_MAX_BYTES {
        write_now(&path, &request)
    } else {
        blocking(move || write_now(&path, &request)).await
    }
}

fn write_now(path: &Path, request: &WriteFileRequest) -> ToolResult<WriteFileResponse> {
    let bytes = request.content.as_bytes();
    let size = if request.append {
        append(path, bytes)?
    } else {
        replace_contents(path, bytes)?
    };
    Ok(WriteFileResponse {
        path: display(path),
        bytes_written: bytes.len() as u64,
        size,
    })
}

/// Makes `bytes` the content of `path` (see [`super::staging`]). Returns the new size.
pub fn replace_contents(path: &Path, bytes: &[u8]) -> ToolResult<u64> {
    let staged = Staged::create(path)?;
    staged.preallocate(bytes.len() as u64);
    staged
        .file()
        .write_all(bytes)
        .map_err(|err| ToolError::io(err, path))?;
    staged.commit(true)?;
    Ok(bytes.len() as u64)
}

/// Appends with `O_APPEND`, so concurrent appends each land whole at the end. Returns the
/// size after the write.
fn append(path: &Path, bytes: &[u8]) -> ToolResult<u64> {
    let io_error = |err| ToolError::io(err, path);
    create_parents(path)?;
    let mut file = OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(io_error)?;
    file.write_all(bytes).map_err(io_error)?;
    Ok(file.metadata().map_err(io_error)?.len())
}
