//! `read`: a text file, whole or a 1-based inclusive line range, up to a byte limit.
//!
//! The file is streamed line by line, so memory stays bounded by the byte limit whatever the
//! file's size. A range that starts past the end of the file is not an error: the answer is
//! empty, with `start_line`/`end_line` 0 and `total_lines` saying how long the file is.

use std::fs::{File, Metadata};
use std::path::Path;

use tool_api_contract::files::{ReadFileRequest, ReadFileResponse};

use super::lines::Lines;
use super::text::{decode, sniff, Sniffed};
use super::{blocking, display, metadata, require_file, INLINE_MAX_BYTES};
use crate::config::Limits;
use crate::error::{ToolError, ToolResult};
use crate::paths::Workspace;

/// Files up to this size are read to the end to count their lines even when the requested
/// lines end earlier; for larger ones `total_lines` is only known when the range reaches
/// the end.
const COUNT_LINES_MAX_BYTES: u64 = 16 << 20;

pub async fn read(
    workspace: &Workspace,
    limits: &Limits,
    request: ReadFileRequest,
) -> ToolResult<ReadFileResponse> {
    let path = workspace.resolve(&request.path)?;
    let range = LineRange::new(request.start_line, request.end_line)?;
    let max_bytes = request.max_bytes.unwrap_or(u64::MAX).min(limits.read_max_bytes);
    let max_bytes = usize::try_from(max_bytes).unwrap_or(usize::MAX);
    let meta = metadata(&path)?;
    require_file(&meta, &path)?;
    if meta.len() <= INLINE_MAX_BYTES {
        read_lines(&path, &meta, range, max_bytes)
    } else {
        blocking(move || read_lines(&path, &meta, range, max_bytes)).await
    }
}

#[derive(Debug, Clone, Copy)]
struct LineRange {
    first: u64,
    last: u64,
}

impl LineRange {
    fn new(start: Option<u64>, end: Option<u64>) -> ToolResult<Self> {
        let first = start.unwrap_or(1);
        let last = end.unwrap_or(u64::MAX);
        if first == 0 || last == 0 {
            return Err(ToolError::invalid("line numbers start at 1"));
        }
        if first > last {
            return Err(ToolError::invalid(format!(
                "start_line {first} is after end_line {last}"
            )));
        }
        Ok(Self { first, last })
    }

    fn contains(self, line: u64) -> bool {
        (self.first..=self.last).contains(&line)
    }
}

/// Reads `path`, a regular file whose metadata is `meta`.
fn read_lines(
    path: &Path,
    meta: &Metadata,
    range: LineRange,
    max_bytes: usize,
) -> ToolResult<ReadFileResponse> {
    let io_error = |err| ToolError::io(err, path);
    let file = File::open(path).map_err(io_error)?;
    let mut response = ReadFileResponse {
        path: display(path),
        size: meta.len(),
        binary: false,
        lossy: false,
        content: String::new(),
        start_line: 0,
        end_line: 0,
        total_lines: None,
        truncated: false,
    };
    let mut lines = match sniff(file, meta.len()).map_err(io_error)? {
        Sniffed::Binary => {
            response.binary = true;
            return Ok(response);
        }
        Sniffed::Text(reader) => Lines::new(reader),
    };
    let count_to_end = meta.len() <= COUNT_LINES_MAX_BYTES;
    let mut content = Vec::new();
    let mut next = 1;
    loop {
        let wanted = range.contains(next) && !response.truncated;
        // Past the requested lines nothing more is kept; reading on only counts lines.
        if !wanted && next > range.first && !count_to_end {
            break;
        }
        let room = if wanted { max_bytes - content.len() } else { 0 };
        let before = content.len();
        let Some(line) = lines.next_into(&mut content, room).map_err(io_error)? else {
            response.total_lines = Some(next - 1);
            break;
        };
        if wanted {
            if content.len() > before {
                if response.start_line == 0 {
                    response.start_line = line.number;
                }
                response.end_line = line.number;
            }
            response.truncated = line.cut;
        }
        next = line.number + 1;
    }
    (response.content, response.lossy) = decode(content, response.truncated);
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_str(content: &[u8], start: Option<u64>, end: Option<u64>, max: usize) -> ReadFileResponse {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        std::fs::write(&path, content).unwrap();
        let meta = metadata(&path).unwrap();
        read_lines(&path, &meta, LineRange::new(start, end).unwrap(), max).unwrap()
    }

    #[test]
    fn whole_file_and_ranges() {
        let all = read_str(b"a\nb\nc\n", None, None, 100);
        assert_eq!(
            (all.content.as_str(), all.start_line, all.end_line),
            ("a\nb\nc\n", 1, 3)
        );
        assert_eq!(all.total_lines, Some(3));
        let middle = read_str(b"a\nb\nc", Some(2), Some(3), 100);
        assert_eq!(
            (middle.content.as_str(), middle.start_line, middle.end_line),
            ("b\nc", 2, 3)
        );
        assert_eq!(middle.total_lines, Some(3));
    }

    #[test]
    fn past_the_end_is_empty_with_the_line_count() {
        let past = read_str(b"a\nb\n", Some(5), None, 100);
        assert_eq!(
            (past.content.as_str(), past.start_line, past.end_line),
            ("", 0, 0)
        );
        assert_eq!(past.total_lines, Some(2));
        assert!(!past.truncated);
    }

    #[test]
    fn the_byte_limit_cuts_and_says_so() {
        let cut = read_str(b"hello\nworld\n", None, None, 8);
        assert_eq!(cut.content, "hello\nwo");
        assert_eq!((cut.start_line, cut.end_line, cut.truncated), (1, 2, true));
        // Exactly at a line end: the next line is not counted as returned.
        let exact = read_str(b"hello\nworld\n", None, None, 6);
        assert_eq!(
            (exact.content.as_str(), exact.end_line, exact.truncated),
            ("hello\n", 1, true)
        );
    }

    #[test]
    fn bad_ranges_are_rejected() {
        assert!(LineRange::new(Some(0), None).is_err());
        assert!(LineRange::new(Some(3), Some(2)).is_err());
        assert!(LineRange::new(Some(u64::MAX), Some(u64::MAX)).is_ok());
    }
}
