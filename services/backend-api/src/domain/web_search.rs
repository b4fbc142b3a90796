//! A web search as the backend's own tool makes it: what the model asks for and what a
//! hit is. Values only: the tool ([`super::backend_call`]), the view of its result
//! ([`super::tool`]) and the provider's adapter all read them.

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
