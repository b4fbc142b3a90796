//! `search`: lines matching a regular expression in the files under a path (or in one
//! file), like `grep -rn`. Binary files are skipped; a line longer than 64 KiB is searched
//! in its first 64 KiB only.

use std::fs::File;
use std::path::Path;

use regex::bytes::{Regex, RegexBuilder};
use tool_api_contract::files::{SearchMatch, SearchRequest, SearchResponse};

use super::glob::PathGlob;
use super::lines::Lines;
use super::text::{excerpt, sniff, Sniffed};
use super::walk::Walk;
use super::{blocking, display, metadata, result_cap};
use crate::config::Limits;
use crate::error::{ToolError, ToolResult};
use crate::paths::Workspace;

const LINE_MAX_BYTES: usize = 64 << 10;
/// Matching lines are cut to this many characters around the match.
const TEXT_MAX_CHARS: usize = 500;

pub async fn search(
    workspace: &Workspace,
    limits: &Limits,
    request: SearchRequest,
) -> ToolResult<SearchResponse> {
    let root = workspace.resolve(&request.path)?;
    let regex = RegexBuilder::new(&request.regex)
        .case_insensitive(request.case_insensitive)
        .build()
        .map_err(|err| ToolError::invalid(format!("invalid regex: {err}")))?;
    let glob = request.glob.as_deref().map(PathGlob::new).transpose()?;
    let mut search = Search {
        regex,
        max_results: result_cap(request.max_results, limits),
        response: SearchResponse {
            matches: Vec::new(),
            files_scanned: 0,
            truncated: false,
        },
    };
    let scan_limit = limits.scan_max_files;
    blocking(move || {
        metadata(&root)?;
        let mut walk = Walk::new(&root, 0, scan_limit);
        for entry in walk.by_ref() {
            let relative = entry.path().strip_prefix(&root).unwrap_or(entry.path());
            let wanted = glob.as_ref().is_none_or(|glob| glob.matches(relative));
            if entry.file_type().is_file() && wanted && !search.file(entry.path()) {
                break;
            }
        }
        search.response.truncated |= walk.limit_hit();
        Ok(search.response)
    })
    .await
}

struct Search {
    regex: Regex,
    max_results: usize,
    response: SearchResponse,
}

impl Search {
    /// Searches one file; `false` once the result cap is reached. A file that cannot be
    /// read (gone, no permission) is passed over like a binary one.
    fn file(&mut self, path: &Path) -> bool {
        self.response.files_scanned += 1;
        let Ok(Ok(Sniffed::Text(reader))) = File::open(path).map(|file| sniff(file, u64::MAX)) else {
            return true;
        };
        let mut lines = Lines::new(reader);
        let mut line = Vec::new();
        loop {
            line.clear();
            let Ok(Some(read)) = lines.next_into(&mut line, LINE_MAX_BYTES) else {
                return true;
            };
            let text = trim_line_end(&line);
            let Some(found) = self.regex.find(text) else {
                continue;
            };
            if self.response.matches.len() == self.max_results {
                self.response.truncated = true;
                return false;
            }
            self.response.matches.push(SearchMatch {
                path: display(path),
                line: read.number,
                text: excerpt(text, found.start(), TEXT_MAX_CHARS),
            });
        }
    }
}

/// The line without `\n` or `\r\n`, so `$` matches at its end.
fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}
