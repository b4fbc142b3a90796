//! Between the MCP SDK's types and ours: a result's content blocks, a server's headers,
//! an SDK error as a person can read it, and a server's URL without its secrets.

use std::collections::{BTreeMap, HashMap};

use axum::http::{HeaderName, HeaderValue};
use rmcp::model::{ContentBlock, ResourceContents};

use crate::domain::mcp::McpContent;

pub(super) fn content_of(block: ContentBlock) -> Option<McpContent> {
    Some(match block {
        ContentBlock::Text(text) => McpContent::Text(text.text),
        ContentBlock::Image(image) => McpContent::Image {
            mime_type: image.mime_type,
            data: image.data,
        },
        ContentBlock::Resource(embedded) => match embedded.resource {
            ResourceContents::TextResourceContents { uri, text, .. } => McpContent::Resource {
                uri,
                text: Some(text),
            },
            ResourceContents::BlobResourceContents { uri, .. } => McpContent::Resource { uri, text: None },
            _ => return None,
        },
        ContentBlock::ResourceLink(link) => McpContent::Resource {
            uri: link.uri,
            text: None,
        },
        // Audio (and kinds newer than this client) are neither shown nor told yet.
        _ => return None,
    })
}

pub(super) fn header_map(
    headers: &BTreeMap<String, String>,
) -> Result<HashMap<HeaderName, HeaderValue>, String> {
    headers
        .iter()
        .map(|(name, value)| {
            let name = HeaderName::try_from(name.as_str())
                .map_err(|_| format!("header {name:?} is not a valid name"))?;
            let value = HeaderValue::try_from(value.as_str())
                .map_err(|_| format!("header {name} has an invalid value"))?;
            Ok((name, value))
        })
        .collect()
}

/// An SDK error as a person can read it: rmcp names its transport's Rust type before
/// what went wrong.
pub(super) fn plain(err: impl std::fmt::Display) -> String {
    let text = err.to_string();
    const MARK: &str = "] error: ";
    match text.find(MARK) {
        Some(at) if text[..at].contains(" [") => text[at + MARK.len()..].to_owned(),
        _ => text,
    }
}

/// `url` without credentials, query or fragment, which may carry secrets.
pub(super) fn shown_url(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(mut parsed) => {
            let _ = parsed.set_username("");
            let _ = parsed.set_password(None);
            parsed.set_query(None);
            parsed.set_fragment(None);
            parsed.to_string()
        }
        Err(_) => "(invalid url)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sdk_errors_lose_the_type_names() {
        let sdk = "Send message error Transport [rmcp::transport::worker::WorkerTransport<X<Y>>] error: \
                   Unexpected content type: Some(\"text/html\")";
        assert_eq!(plain(sdk), "Unexpected content type: Some(\"text/html\")");
        assert_eq!(plain("connection reset"), "connection reset");
    }

    #[test]
    fn shown_urls_carry_no_secrets() {
        assert_eq!(
            shown_url("https://user:pw@mcp.example.org/mcp?key=s#x"),
            "https://mcp.example.org/mcp"
        );
    }
}
