//! Web search through the configured provider, and page fetch as readable text.
//!
//! Both go to the outside through [`upstream`], which owns the HTTP client, the deadline,
//! the byte cap and the mapping of transport failures onto error codes; [`search`] and
//! [`fetch`] only decide what to ask and how to read the answer.

mod fetch;
mod html;
mod search;
mod upstream;

use std::time::Duration;

use anyhow::Context;
use tool_api_contract::search::{FetchRequest, FetchResponse, WebSearchRequest, WebSearchResponse};
use tool_api_contract::ErrorCode;

use crate::config::Settings;
use crate::error::{ToolError, ToolResult};
use fetch::Fetcher;
use search::SearchEngine;

pub struct WebTools {
    /// `None` when no provider is configured: search then answers `not_configured`.
    search: Option<SearchEngine>,
    fetcher: Fetcher,
}

impl WebTools {
    /// Fails for a configuration that could never work (unknown provider, missing URL or
    /// key, bad timeout), so the mistake shows at start-up rather than on the first search.
    pub fn new(settings: &Settings) -> anyhow::Result<Self> {
        let timeout = Duration::try_from_secs_f64(settings.limits.upstream_timeout_secs)
            .ok()
            .filter(|timeout| !timeout.is_zero())
            .context("TOOL_API_LIMITS__UPSTREAM_TIMEOUT_SECS must be a positive number of seconds")?;
        let http = upstream::client()?;
        let search = SearchEngine::from_settings(&settings.search, http.clone(), timeout)?;
        match &search {
            Some(engine) => tracing::info!(provider = engine.provider_name(), "web search configured"),
            None => tracing::info!("web search is not configured (SEARCH_PROVIDER is not set)"),
        }
        Ok(Self {
            search,
            fetcher: Fetcher::new(http, timeout, &settings.limits),
        })
    }

    pub async fn search(&self, request: &WebSearchRequest) -> ToolResult<WebSearchResponse> {
        let engine = self.search.as_ref().ok_or_else(|| {
            ToolError::new(
                ErrorCode::NotConfigured,
                "web search is not configured in this sandbox: set SEARCH_PROVIDER (searxng, \
                 brave, tavily, serper or generic), SEARCH_URL (required for searxng and \
                 generic) and SEARCH_API_KEY (required for brave, tavily and serper)",
            )
        })?;
        engine.search(request).await
    }

    pub async fn fetch(&self, request: &FetchRequest) -> ToolResult<FetchResponse> {
        self.fetcher.fetch(request).await
    }
}
