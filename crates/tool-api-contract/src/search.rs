//! Web search through the sandbox's configured provider, and page fetch as readable text.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct WebSearchRequest {
    pub query: String,
    /// Default 10, at most 50.
    #[serde(default)]
    pub max_results: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct WebSearchResult {
    pub title: String,
    pub url: String,
    pub snippet: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct WebSearchResponse {
    /// Which provider answered (`searxng`, `brave`, `tavily`, `serper`, `generic`).
    pub provider: String,
    pub results: Vec<WebSearchResult>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct FetchRequest {
    /// An `http` or `https` URL.
    pub url: String,
    /// Cap on the returned text in bytes (default and maximum set by the server).
    #[serde(default)]
    pub max_bytes: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FetchResponse {
    /// The URL after redirects.
    pub url: String,
    pub status: u16,
    pub content_type: Option<String>,
    pub title: Option<String>,
    /// The page as markdown-like text (HTML converted; plain text and JSON as they are).
    pub text: String,
    pub truncated: bool,
}
