//! Page fetch as readable text, from the sandbox's own network. (Web search is not the
//! sandbox's: backend-api runs it, holding the provider's key.)

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

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
