//! Loading a URL and waiting for it, with our own deadline.
//!
//! chromiumoxide queues every `Page.navigate` behind the previous one until that one has
//! loaded, so a single page that never finishes would stall every later navigation for
//! the library's 30 s request timeout. Web pages are therefore loaded by setting
//! `location.href` from a script and polling the new document's `readyState`; only
//! `file:` URLs, which a web page may not open, go through `Page.navigate`.

use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::page::StopLoadingParams;
use chromiumoxide::Page;
use serde::Deserialize;
use tool_api_contract::ErrorCode;

use super::BrowserTools;
use crate::error::{ToolError, ToolResult};

const POLL: Duration = Duration::from_millis(50);
/// Bound on one readiness probe, so the deadline is kept even when the page is stuck.
const PROBE_LIMIT: Duration = Duration::from_secs(1);

#[derive(Deserialize)]
struct LoadState {
    /// Still the document we marked before navigating.
    same_document: bool,
    ready_state: String,
    url: String,
    /// Chromium's error page names the network error, e.g. `ERR_CONNECTION_REFUSED`.
    /// Only meaningful on a new document: the tab may still show the error page of an
    /// earlier navigation until this one commits.
    error: Option<String>,
}

impl LoadState {
    /// Whether this is the document that navigating to `url` leads to. Only a target with a
    /// #fragment can keep the document (a fragment change); any other target, even the
    /// address already shown, loads a new one, and until it commits the old document
    /// still answers the probe — complete, perhaps at that very address.
    fn arrived_at(&self, url: &str) -> bool {
        !self.same_document || (url.contains('#') && self.url == url)
    }
}

impl BrowserTools {
    /// Navigates `page` to `url` and waits until the new document has loaded.
    pub(super) async fn load(&self, page: &Page, url: &str, limit: Duration) -> ToolResult<()> {
        if url.starts_with("file:") {
            return self.bounded(limit, page.goto(url)).await.map(drop);
        }
        let token = format!(
            "{:x}",
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default()
                .as_nanos()
        );
        let target = serde_json::to_string(url).map_err(anyhow::Error::from)?;
        self.run_script(
            page,
            &format!("window.__sandpiperNavigation = '{token}'; location.href = {target}; true"),
        )
        .await?;
        let probe = format!(
            "({{ same_document: window.__sandpiperNavigation === '{token}', ready_state: document.readyState, \
              url: location.href, error: location.href.startsWith('chrome-error:') \
              ? ((document.body && document.body.innerText.match(/ERR_[A-Z_]+/)) || ['ERR_FAILED'])[0] : null }})"
        );
        let deadline = Instant::now() + limit;
        loop {
            // While the old document is torn down a probe can fail or stall; that is "not yet".
            let remaining = deadline.saturating_duration_since(Instant::now());
            let probed = tokio::time::timeout(
                remaining.min(PROBE_LIMIT),
                self.evaluate_into::<LoadState>(page, &probe),
            );
            if let Ok(Ok(state)) = probed.await {
                if let Some(error) = state.error.as_deref().filter(|_| !state.same_document) {
                    return Err(ToolError::new(
                        ErrorCode::UpstreamError,
                        format!("the page could not be loaded: {error} ({url})"),
                    ));
                }
                if state.arrived_at(url) && state.ready_state == "complete" {
                    return Ok(());
                }
            }
            if Instant::now() >= deadline {
                let _ = tokio::time::timeout(PROBE_LIMIT, page.execute(StopLoadingParams::default())).await;
                return Err(ToolError::new(
                    ErrorCode::UpstreamTimeout,
                    format!(
                        "the page was still loading after {} s and was stopped; view it to see what loaded",
                        limit.as_secs_f64()
                    ),
                ));
            }
            tokio::time::sleep(POLL).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::LoadState;

    fn state(same_document: bool, url: &str) -> LoadState {
        LoadState {
            same_document,
            ready_state: "complete".to_owned(),
            url: url.to_owned(),
            error: None,
        }
    }

    #[test]
    fn only_a_fragment_change_keeps_the_document() {
        let page = "http://127.0.0.1:8000/";
        assert!(
            !state(true, page).arrived_at(page),
            "the old document of a reload"
        );
        assert!(!state(true, page).arrived_at("http://127.0.0.1:8000/next"));
        assert!(state(false, page).arrived_at(page));
        let anchor = "http://127.0.0.1:8000/#part";
        assert!(state(true, anchor).arrived_at(anchor));
        assert!(!state(true, page).arrived_at(anchor));
    }
}
