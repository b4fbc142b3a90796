//! Page fetch: one GET of an http(s) URL, redirects followed, answered as readable text
//! (HTML converted to markdown, plain text and JSON as they are) within a byte budget.
//!
//! Any upstream status is a result, not an error: the agent wants to see a 404 page, and
//! `status` tells it what it got. Errors are for what cannot be shown as text: a bad URL,
//! a binary body, no answer.

use std::time::Duration;

use reqwest::header::{ACCEPT, CONTENT_TYPE};
use tool_api_contract::web::{FetchRequest, FetchResponse};
use web_kit::html;
use web_kit::upstream::{self, BodyEnd, Deadline};

use crate::config::Limits;
use crate::error::{ToolError, ToolResult};

const ACCEPT_TEXT: &str = "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5";

/// Raw HTML read per byte of text asked for: markup, scripts and styles are most of a
/// modern page, and the markdown is what gets capped.
const HTML_BYTES_PER_TEXT_BYTE: usize = 8;
/// Bounds of the raw HTML read, whatever the text budget: enough for a long article,
/// little enough to parse without strain.
const MIN_HTML_BYTES: usize = 1 << 20;
const MAX_HTML_BYTES: usize = 16 << 20;
/// How much of a body without a content type is checked for binary data.
const SNIFF_BYTES: usize = 1024;

pub struct Fetcher {
    http: reqwest::Client,
    timeout: Duration,
    default_bytes: u64,
    max_bytes: u64,
}

impl Fetcher {
    pub fn new(http: reqwest::Client, timeout: Duration, limits: &Limits) -> Self {
        Self {
            http,
            timeout,
            default_bytes: limits.fetch_default_bytes,
            max_bytes: limits.fetch_max_bytes,
        }
    }

    pub async fn fetch(&self, request: &FetchRequest) -> ToolResult<FetchResponse> {
        let url = parse_url(&request.url)?;
        let text_cap = self.text_cap(request.max_bytes)?;
        let target = url.to_string();
        let deadline = Deadline::after(self.timeout);
        let response =
            upstream::send(self.http.get(url).header(ACCEPT, ACCEPT_TEXT), &target, &deadline).await?;
        let final_url = response.url().to_string();
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        // Decided before the body is read, so a binary download is never transferred.
        let declared = Format::declared(content_type.as_deref())
            .ok_or_else(|| not_text(&final_url, content_type.as_deref()))?;
        let body = upstream::read_capped(response, declared.raw_cap(text_cap), &target, &deadline).await?;
        if body.end == BodyEnd::TimedOut && body.bytes.is_empty() {
            return Err(deadline.expired(&target).into());
        }
        let format = declared
            .or_sniffed(&body.bytes)
            .ok_or_else(|| not_text(&final_url, None))?;
        let (title, text) = readable(format, decode_utf8(&body.bytes)).await?;
        let (text, cut) = truncate(text, text_cap);
        Ok(FetchResponse {
            url: final_url,
            status,
            content_type,
            title,
            text,
            // A body that stopped early (cap, or deadline after some bytes) is a partial page.
            truncated: cut || body.end != BodyEnd::Complete,
        })
    }

    /// The text budget: the asked size within the server's maximum.
    fn text_cap(&self, asked: Option<u64>) -> ToolResult<usize> {
        let bytes = match asked {
            Some(0) => return Err(ToolError::invalid("max_bytes must be at least 1")),
            Some(bytes) => bytes.min(self.max_bytes),
            None => self.default_bytes.min(self.max_bytes),
        };
        Ok(usize::try_from(bytes).unwrap_or(usize::MAX))
    }
}

/// The title and text of a body: HTML converted (on a blocking thread, as parsing a few
/// megabytes takes a while), anything else as it is.
async fn readable(format: Format, raw: String) -> ToolResult<(Option<String>, String)> {
    match format {
        Format::Html => {
            let page = tokio::task::spawn_blocking(move || html::to_markdown(&raw))
                .await
                .map_err(anyhow::Error::from)??;
            Ok((page.title, page.markdown))
        }
        Format::Text | Format::Unknown => Ok((None, raw)),
    }
}

fn parse_url(raw: &str) -> ToolResult<reqwest::Url> {
    let raw = raw.trim();
    let url = reqwest::Url::parse(raw).map_err(|err| {
        ToolError::invalid(format!(
            "`{raw}` is not an absolute URL ({err}); give the scheme too, e.g. https://example.com"
        ))
    })?;
    match url.scheme() {
        "http" | "https" => Ok(url),
        scheme => Err(ToolError::invalid(format!(
            "only http and https URLs can be fetched, not `{scheme}:`; read local files with the file tools"
        ))),
    }
}

/// How a body is turned into text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Html,
    Text,
    /// No content type: read as text unless the bytes say it is binary.
    Unknown,
}

impl Format {
    /// The format a content type announces; `None` for a binary type.
    fn declared(content_type: Option<&str>) -> Option<Self> {
        let Some(content_type) = content_type else {
            return Some(Self::Unknown);
        };
        let essence = content_type
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        match essence.as_str() {
            "" => Some(Self::Unknown),
            "text/html" | "application/xhtml+xml" => Some(Self::Html),
            "application/json"
            | "application/xml"
            | "application/javascript"
            | "application/ecmascript"
            | "application/x-javascript"
            | "application/yaml"
            | "application/x-yaml"
            | "application/toml"
            | "application/x-sh"
            | "application/sql"
            | "application/graphql" => Some(Self::Text),
            text if text.starts_with("text/") || text.ends_with("+json") || text.ends_with("+xml") => {
                Some(Self::Text)
            }
            _ => None,
        }
    }

    /// Settles an unknown format from the first bytes; `None` when they are binary.
    fn or_sniffed(self, body: &[u8]) -> Option<Self> {
        if self != Self::Unknown {
            return Some(self);
        }
        let head = &body[..body.len().min(SNIFF_BYTES)];
        if head.contains(&0) {
            return None;
        }
        let start = head.trim_ascii_start();
        let html = [b"<!doctype html".as_slice(), b"<html"]
            .iter()
            .any(|marker| start.len() >= marker.len() && start[..marker.len()].eq_ignore_ascii_case(marker));
        Some(if html { Self::Html } else { Self::Unknown })
    }

    /// Raw bytes to read for `text_cap` bytes of text. Text is returned as it is, so one
    /// byte past the budget is enough to know there is more.
    fn raw_cap(self, text_cap: usize) -> usize {
        match self {
            Self::Html | Self::Unknown => text_cap
                .saturating_mul(HTML_BYTES_PER_TEXT_BYTE)
                .clamp(MIN_HTML_BYTES, MAX_HTML_BYTES),
            Self::Text => text_cap.saturating_add(1),
        }
    }
}

fn not_text(url: &str, content_type: Option<&str>) -> ToolError {
    let what = content_type.map_or_else(|| "binary data".to_owned(), |t| format!("content type {t}"));
    ToolError::invalid(format!(
        "{url} is not text ({what}); fetch returns text only, so download it with the shell \
         instead (e.g. curl -LO)"
    ))
}

/// Lossy UTF-8, except that a character cut in half by the byte cap is dropped rather than
/// shown as U+FFFD.
fn decode_utf8(bytes: &[u8]) -> String {
    let end = match std::str::from_utf8(bytes) {
        Err(err) if err.error_len().is_none() => err.valid_up_to(),
        _ => bytes.len(),
    };
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// `text` cut to at most `cap` bytes on a character boundary, and whether it was cut.
fn truncate(mut text: String, cap: usize) -> (String, bool) {
    if text.len() <= cap {
        return (text, false);
    }
    let mut end = cap;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    (text, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_are_classified() {
        for (content_type, format) in [
            (Some("text/html; charset=utf-8"), Some(Format::Html)),
            (Some("application/xhtml+xml"), Some(Format::Html)),
            (Some("TEXT/PLAIN"), Some(Format::Text)),
            (Some("application/json"), Some(Format::Text)),
            (Some("application/ld+json"), Some(Format::Text)),
            (Some("application/rss+xml"), Some(Format::Text)),
            (Some("image/png"), None),
            (Some("application/pdf"), None),
            (Some("application/octet-stream"), None),
            (None, Some(Format::Unknown)),
        ] {
            assert_eq!(Format::declared(content_type), format, "{content_type:?}");
        }
    }

    #[test]
    fn an_undeclared_body_is_sniffed() {
        assert_eq!(
            Format::Unknown.or_sniffed(b"  <!DOCTYPE html><p>x"),
            Some(Format::Html)
        );
        assert_eq!(Format::Unknown.or_sniffed(b"plain words"), Some(Format::Unknown));
        assert_eq!(Format::Unknown.or_sniffed(b"\x89PNG\r\n\x1a\n\0\0"), None);
        assert_eq!(Format::Text.or_sniffed(b"\0"), Some(Format::Text));
    }

    #[test]
    fn urls_must_be_absolute_http() {
        assert!(parse_url(" https://example.com/a ").is_ok());
        for bad in [
            "file:///etc/passwd",
            "ftp://example.com/x",
            "example.com",
            "",
            "http://",
        ] {
            assert!(parse_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn text_is_cut_on_a_character_boundary() {
        assert_eq!(truncate("héllo".into(), 2), ("h".into(), true));
        assert_eq!(truncate("héllo".into(), 3), ("hé".into(), true));
        assert_eq!(truncate("hi".into(), 2), ("hi".into(), false));
    }

    #[test]
    fn a_split_character_at_the_end_is_dropped() {
        let bytes = "hé".as_bytes();
        assert_eq!(decode_utf8(&bytes[..2]), "h");
        assert_eq!(decode_utf8(b"a\xffb"), "a\u{fffd}b");
    }
}
