//! Web search: checks the request, asks the configured [`provider`] through the shared
//! upstream path, and turns its answer, or the way it failed, into the contract's terms.
//!
//! A failure is always an error and never an empty list, so the agent cannot mistake a
//! refused key or a captcha page for "nothing found".

mod layout;
mod provider;

use std::time::Duration;

use tool_api_contract::search::{WebSearchRequest, WebSearchResponse, WebSearchResult};
use tool_api_contract::ErrorCode;

use super::html;
use super::upstream::{self, BodyEnd, Deadline};
use crate::config::SearchSettings;
use crate::error::{ToolError, ToolResult};
use provider::Provider;

const DEFAULT_RESULTS: u32 = 10;
const MAX_RESULTS: u32 = 50;
/// A page of results is tens of kilobytes; an answer larger than this is not one.
const MAX_ANSWER_BYTES: usize = 4 << 20;
/// How much of a provider's answer is looked at to quote it in an error message.
const QUOTE_BYTES: usize = 16 << 10;
const QUOTE_CHARS: usize = 300;

pub struct SearchEngine {
    http: reqwest::Client,
    provider: Provider,
    timeout: Duration,
}

impl SearchEngine {
    /// `None` when no provider is configured; an error when the configuration is unusable.
    pub fn from_settings(
        settings: &SearchSettings,
        http: reqwest::Client,
        timeout: Duration,
    ) -> anyhow::Result<Option<Self>> {
        Ok(Provider::from_settings(settings)?.map(|provider| Self {
            http,
            provider,
            timeout,
        }))
    }

    pub fn provider_name(&self) -> &'static str {
        self.provider.name()
    }

    pub async fn search(&self, request: &WebSearchRequest) -> ToolResult<WebSearchResponse> {
        let query = request.query.trim();
        if query.is_empty() {
            return Err(ToolError::invalid("query must not be empty"));
        }
        let count = result_count(request.max_results)?;
        let answer = self.ask(query, count).await?;
        let mut results = self.read(&answer)?;
        results.truncate(count as usize);
        tracing::debug!(
            provider = self.provider.name(),
            results = results.len(),
            "searched"
        );
        Ok(WebSearchResponse {
            provider: self.provider.name().into(),
            results,
        })
    }

    /// Named, never by URL: a generic provider's URL may carry a key.
    fn target(&self) -> String {
        format!("the search provider ({})", self.provider.name())
    }

    /// The body of the provider's successful answer; its refusal, silence or excess as an
    /// error.
    async fn ask(&self, query: &str, count: u32) -> ToolResult<Vec<u8>> {
        let target = self.target();
        let deadline = Deadline::after(self.timeout);
        let request = self.provider.request(&self.http, query, count);
        let response = upstream::send(request, &target, &deadline).await?;
        let status = response.status();
        // Of a refusal only the start is quoted, so only the start is read.
        let cap = if status.is_success() {
            MAX_ANSWER_BYTES
        } else {
            QUOTE_BYTES
        };
        let body = upstream::read_capped(response, cap, &target, &deadline).await?;
        if body.end == BodyEnd::TimedOut {
            return Err(deadline.expired(&target));
        }
        if !status.is_success() {
            let hint = self
                .provider
                .status_hint(status)
                .map(|hint| format!(" ({hint})"))
                .unwrap_or_default();
            return Err(upstream_error(format!(
                "{target} answered HTTP {status}{hint}; its answer: {}",
                self.quote(&body.bytes)
            )));
        }
        if body.end == BodyEnd::Capped {
            return Err(upstream_error(format!(
                "{target} answered with more than {} MiB, which is not a page of search results",
                MAX_ANSWER_BYTES >> 20
            )));
        }
        Ok(body.bytes)
    }

    /// The results in a successful answer, or what makes it unusable.
    fn read(&self, answer: &[u8]) -> ToolResult<Vec<WebSearchResult>> {
        let target = self.target();
        let document: serde_json::Value = serde_json::from_slice(answer).map_err(|err| {
            upstream_error(if looks_like_html(answer) {
                format!(
                    "{target} answered with an HTML page instead of JSON (a captcha, login or \
                     error page?): {}",
                    self.quote(answer)
                )
            } else {
                format!(
                    "{target} answered with a body that is not JSON ({err}): {}",
                    self.quote(answer)
                )
            })
        })?;
        self.provider.read(&document).map_err(|missing| {
            upstream_error(format!(
                "{target} answered JSON without the expected results: {missing}; its answer: {}",
                self.quote(answer)
            ))
        })
    }

    /// The start of an answer as one short line with the key blanked out; an HTML page as
    /// its title and text, since its markup says nothing.
    fn quote(&self, body: &[u8]) -> String {
        if body.iter().all(u8::is_ascii_whitespace) {
            return "(empty)".into();
        }
        let head = String::from_utf8_lossy(&body[..body.len().min(QUOTE_BYTES)]);
        let page = looks_like_html(body)
            .then(|| html::to_markdown(&head).ok())
            .flatten();
        let text = match page {
            Some(page) => [page.title, Some(page.markdown)]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" — "),
            None => head.into_owned(),
        };
        upstream::excerpt(&self.provider.redact(&text), QUOTE_CHARS)
    }
}

fn result_count(requested: Option<u32>) -> ToolResult<u32> {
    match requested {
        None => Ok(DEFAULT_RESULTS),
        Some(0) => Err(ToolError::invalid("max_results must be at least 1")),
        Some(count) => Ok(count.min(MAX_RESULTS)),
    }
}

/// JSON never starts with `<`; markup always does.
fn looks_like_html(body: &[u8]) -> bool {
    body.trim_ascii_start().starts_with(b"<")
}

fn upstream_error(message: String) -> ToolError {
    ToolError::new(ErrorCode::UpstreamError, message)
}
