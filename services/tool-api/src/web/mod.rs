//! Page fetch as readable text, from the sandbox's own network.
//!
//! The request goes out through `web_kit::upstream`, which owns the HTTP client, the
//! deadline, the byte cap and the transport failures; [`fetch`] decides what to ask and
//! how to read the answer. (Web search is not here: backend-api runs it, so the
//! provider's key never enters a sandbox.)

mod fetch;

use std::time::Duration;

use anyhow::Context;
use tool_api_contract::web::{FetchRequest, FetchResponse};

use crate::config::Settings;
use crate::error::ToolResult;
use fetch::Fetcher;

pub struct WebTools {
    fetcher: Fetcher,
}

impl WebTools {
    /// Fails for a timeout that could never work, so the mistake shows at start-up rather
    /// than on the first fetch.
    pub fn new(settings: &Settings) -> anyhow::Result<Self> {
        let timeout = Duration::try_from_secs_f64(settings.limits.upstream_timeout_secs)
            .ok()
            .filter(|timeout| !timeout.is_zero())
            .context("TOOL_API_LIMITS__UPSTREAM_TIMEOUT_SECS must be a positive number of seconds")?;
        let http = web_kit::upstream::client("sandpiper-tool-api")?;
        Ok(Self {
            fetcher: Fetcher::new(http, timeout, &settings.limits),
        })
    }

    pub async fn fetch(&self, request: &FetchRequest) -> ToolResult<FetchResponse> {
        self.fetcher.fetch(request).await
    }
}
