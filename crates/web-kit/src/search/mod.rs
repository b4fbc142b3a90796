//! Web search: checks the request, asks the configured [`provider`] through the shared
//! upstream path, and turns its answer, or the way it failed, into a [`SearchAnswer`] or
//! a [`WebError`].
//!
//! A failure is always an error and never an empty list, so the agent cannot mistake a
//! refused key or a captcha page for "nothing found".

mod layout;
mod provider;

use std::time::Duration;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::html;
use crate::upstream::{self, BodyEnd, Deadline};
use crate::{WebError, WebResult};
use provider::Provider;

const DEFAULT_RESULTS: u32 = 10;
const MAX_RESULTS: u32 = 50;
/// A page of results is tens of kilobytes; an answer larger than this is not one.
const MAX_ANSWER_BYTES: usize = 4 << 20;
/// How much of a provider's answer is looked at to quote it in an error message.
const QUOTE_BYTES: usize = 16 << 10;
const QUOTE_CHARS: usize = 300;

/// The web search provider, as the operator configures it (`SEARCH_*`). Checked when the
/// engine is made: an unknown provider or a missing URL or key is refused with a message
/// naming the variable.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct SearchSettings {
    /// `searxng`, `brave`, `tavily`, `serper` or `generic`; unset: no web search.
    pub provider: Option<String>,
    /// Required for `searxng` (the instance's base URL) and `generic` (a URL where
    /// `{query}` and `{count}` are filled in, or `?q=` is appended); the hosted APIs default
    /// to their public endpoints.
    pub url: Option<String>,
    /// Required for `brave`, `tavily` and `serper`; sent to the others as a bearer token.
    pub api_key: Option<String>,
    /// The generic provider's answer layout as dotted paths (`data.items`, `links.0.href`):
    /// the results array (default `results`), and in each result the title (`title`),
    /// URL (`url`) and snippet (`snippet`).
    pub results_field: Option<String>,
    pub title_field: Option<String>,
    pub url_field: Option<String>,
    pub snippet_field: Option<String>,
    /// How long one search may take, connecting and reading the answer included.
    pub timeout_secs: f64,
}

impl Default for SearchSettings {
    fn default() -> Self {
        Self {
            provider: None,
            url: None,
            api_key: None,
            results_field: None,
            title_field: None,
            url_field: None,
            snippet_field: None,
            timeout_secs: 20.0,
        }
    }
}

/// One result: where it is, what it is called, and the provider's excerpt of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SearchResult {
    pub title: String,
    pub url: String,
    pub snippet: String,
}

/// A successful search.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SearchAnswer {
    /// Which provider answered (`searxng`, `brave`, `tavily`, `serper`, `generic`).
    pub provider: &'static str,
    /// In the provider's order; empty when it found nothing.
    pub results: Vec<SearchResult>,
}

pub struct SearchEngine {
    http: reqwest::Client,
    provider: Provider,
    timeout: Duration,
}

impl SearchEngine {
    /// `None` when no provider is configured; an error when the configuration could never
    /// work, so the mistake shows at start-up rather than on the first search.
    pub fn from_settings(settings: &SearchSettings, http: reqwest::Client) -> anyhow::Result<Option<Self>> {
        let Some(provider) = Provider::from_settings(settings)? else {
            return Ok(None);
        };
        let timeout = Duration::try_from_secs_f64(settings.timeout_secs)
            .ok()
            .filter(|timeout| !timeout.is_zero())
            .context("the search timeout must be a positive number of seconds")?;
        Ok(Some(Self {
            http,
            provider,
            timeout,
        }))
    }

    pub fn provider_name(&self) -> &'static str {
        self.provider.name()
    }

    /// Searches for `query`, answering at most `max_results` results (default 10, at
    /// most 50).
    pub async fn search(&self, query: &str, max_results: Option<u32>) -> WebResult<SearchAnswer> {
        let query = query.trim();
        if query.is_empty() {
            return Err(WebError::Invalid("query must not be empty".into()));
        }
        let count = result_count(max_results)?;
        let answer = self.ask(query, count).await?;
        let mut results = self.read(&answer)?;
        results.truncate(count as usize);
        tracing::debug!(
            provider = self.provider.name(),
            results = results.len(),
            "searched"
        );
        Ok(SearchAnswer {
            provider: self.provider.name(),
            results,
        })
    }

    /// Named, never by URL: a generic provider's URL may carry a key.
    fn target(&self) -> String {
        format!("the search provider ({})", self.provider.name())
    }

    /// The body of the provider's successful answer; its refusal, silence or excess as an
    /// error.
    async fn ask(&self, query: &str, count: u32) -> WebResult<Vec<u8>> {
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
            return Err(WebError::Upstream(format!(
                "{target} answered HTTP {status}{hint}; its answer: {}",
                self.quote(&body.bytes)
            )));
        }
        if body.end == BodyEnd::Capped {
            return Err(WebError::Upstream(format!(
                "{target} answered with more than {} MiB, which is not a page of search results",
                MAX_ANSWER_BYTES >> 20
            )));
        }
        Ok(body.bytes)
    }

    /// The results in a successful answer, or what makes it unusable.
    fn read(&self, answer: &[u8]) -> WebResult<Vec<SearchResult>> {
        let target = self.target();
        let document: serde_json::Value = serde_json::from_slice(answer).map_err(|err| {
            WebError::Upstream(if looks_like_html(answer) {
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
            WebError::Upstream(format!(
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

fn result_count(requested: Option<u32>) -> WebResult<u32> {
    match requested {
        None => Ok(DEFAULT_RESULTS),
        Some(0) => Err(WebError::Invalid("max_results must be at least 1".into())),
        Some(count) => Ok(count.min(MAX_RESULTS)),
    }
}

/// JSON never starts with `<`; markup always does.
fn looks_like_html(body: &[u8]) -> bool {
    body.trim_ascii_start().starts_with(b"<")
}
