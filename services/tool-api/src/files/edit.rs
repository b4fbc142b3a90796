//! `replace`: swap exactly one occurrence of a text in a file, the way an agent edits code.
//! Zero or several occurrences are errors, so an edit never lands in the wrong place.

use std::path::Path;

use serde_json::json;
use tool_api_contract::files::{ReplaceRequest, ReplaceResponse};
use tool_api_contract::ErrorCode;

use super::write::replace_contents;
use super::{blocking, display, metadata, require_file};
use crate::error::{ToolError, ToolResult};
use crate::paths::Workspace;

/// The file is edited in memory; this keeps one edit from taking the sandbox's memory.
const EDIT_MAX_BYTES: u64 = 64 << 20;

pub async fn replace(workspace: &Workspace, request: ReplaceRequest) -> ToolResult<ReplaceResponse> {
    if request.old.is_empty() {
        return Err(ToolError::invalid(
            "`old` is empty; give the exact text to replace (use write to create or overwrite a file)",
        ));
    }
    let path = workspace.resolve(&request.path)?;
    blocking(move || replace_once(&path, request.old.as_bytes(), request.new.as_bytes())).await
}

fn replace_once(path: &Path, old: &[u8], new: &[u8]) -> ToolResult<ReplaceResponse> {
    let meta = metadata(path)?;
    require_file(&meta, path)?;
    if meta.len() > EDIT_MAX_BYTES {
        return Err(ToolError::new(
            ErrorCode::PayloadTooLarge,
            format!(
                "{}: {} bytes is too large to edit in place (at most {EDIT_MAX_BYTES})",
                display(path),
                meta.len()
            ),
        ));
    }
    let content = std::fs::read(path).map_err(|err| ToolError::io(err, path))?;
    let mut found = memchr::memmem::find_iter(&content, old);
    let at = found.next().ok_or_else(|| {
        ToolError::new(
            ErrorCode::NoMatch,
            format!(
                "the text to replace does not occur in {}; read the file and copy the text exactly, \
                 whitespace included",
                display(path)
            ),
        )
    })?;
    let others = found.count();
    if others > 0 {
        let count = others + 1;
        return Err(ToolError::with_details(
            ErrorCode::AmbiguousMatch,
            format!(
                "the text to replace occurs {count} times in {}; include more of the surrounding \
                 text so it occurs once",
                display(path)
            ),
            json!({ "count": count }),
        ));
    }
    let line = 1 + memchr::memchr_iter(b'\n', &content[..at]).count() as u64;
    let mut updated = Vec::with_capacity(content.len() - old.len() + new.len());
    updated.extend_from_slice(&content[..at]);
    updated.extend_from_slice(new);
    updated.extend_from_slice(&content[at + old.len()..]);
    replace_contents(path, &updated)?;
    Ok(ReplaceResponse {
        path: display(path),
        line,
        size: updated.len() as u64,
    })
}
