//! `find`: paths under a directory whose relative path matches a glob (see
//! [`super::glob`]).

use tool_api_contract::files::{FindRequest, FindResponse};

use super::glob::PathGlob;
use super::walk::Walk;
use super::{blocking, display, metadata, require_dir, result_cap};
use crate::config::Limits;
use crate::error::ToolResult;
use crate::paths::Workspace;

pub async fn find(workspace: &Workspace, limits: &Limits, request: FindRequest) -> ToolResult<FindResponse> {
    let root = workspace.resolve(&request.path)?;
    let glob = PathGlob::new(&request.glob)?;
    let max_results = result_cap(request.max_results, limits);
    let scan_limit = limits.scan_max_files;
    blocking(move || {
        require_dir(&metadata(&root)?, &root)?;
        let mut walk = Walk::new(&root, 1, scan_limit);
        let mut matches = Vec::new();
        let mut truncated = false;
        for entry in walk.by_ref() {
            let relative = entry.path().strip_prefix(&root).unwrap_or(entry.path());
            if !glob.matches(relative) {
                continue;
            }
            if matches.len() == max_results {
                truncated = true;
                break;
            }
            matches.push(display(entry.path()));
        }
        Ok(FindResponse {
            matches,
            truncated: truncated || walk.limit_hit(),
        })
    })
    .await
}
