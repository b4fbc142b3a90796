//! `find`: paths under a directory whose relative path matches a glob (see
//! [`super::glob`]), optionally only files modified since a time (how a job lists what
//! its run made, shell and code output included).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tool_api_contract::files::{FindRequest, FindResponse};
use walkdir::DirEntry;

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
        let since = request.modified_since_ms.map(since_epoch);
        let mut walk = Walk::new(&root, 1, scan_limit).skip_hidden(request.skip_hidden);
        let mut matches = Vec::new();
        let mut truncated = false;
        for entry in walk.by_ref() {
            let relative = entry.path().strip_prefix(&root).unwrap_or(entry.path());
            if !glob.matches(relative) || since.is_some_and(|since| !modified_since(&entry, since)) {
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

fn since_epoch(millis: i64) -> SystemTime {
    let offset = Duration::from_millis(millis.unsigned_abs());
    if millis >= 0 {
        UNIX_EPOCH + offset
    } else {
        UNIX_EPOCH - offset
    }
}

/// Whether `entry` is a file last modified at or after `since`.
fn modified_since(entry: &DirEntry, since: SystemTime) -> bool {
    entry.file_type().is_file()
        && entry
            .metadata()
            .ok()
            .and_then(|meta| meta.modified().ok())
            .is_some_and(|modified| modified >= since)
}
