//! The browser actions the agent calls, each on the active tab (the tabs themselves are
//! in `tabs`).

use std::time::Duration;

use base64::Engine;
use chromiumoxide::cdp::browser_protocol::input::InsertTextParams;
use chromiumoxide::cdp::browser_protocol::page::CaptureScreenshotFormat;
use chromiumoxide::cdp::browser_protocol::target::GetTargetInfoParams;
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use chromiumoxide::layout::Point;
use chromiumoxide::page::ScreenshotParams;
use chromiumoxide::Page;
use serde::Deserialize;
use tool_api_contract::browser::{
    ClickRequest, ConsoleLog, EvaluateResponse, ImageFormat, InteractiveElement, NavigateRequest,
    PageSummary, PageView, Screenshot, ScreenshotRequest, ScrollDirection, ScrollRequest, SelectRequest,
    TypeRequest, ViewRequest,
};
use tool_api_contract::ErrorCode;

use super::{keys, BrowserTools, ACTION_TIMEOUT};
use crate::error::{ToolError, ToolResult};

const PAGE_VIEW_JS: &str = include_str!("page_view.js");
const ELEMENT_JS: &str = include_str!("element.js");
const CLEAR_AND_FOCUS_JS: &str = include_str!("clear_and_focus.js");
const SELECT_OPTION_JS: &str = include_str!("select_option.js");

pub(super) const DEFAULT_NAVIGATION_TIMEOUT: f64 = 30.0;
const MAX_NAVIGATION_TIMEOUT: f64 = 120.0;
const DEFAULT_TEXT_CHARS: u32 = 20_000;

/// What `page_view.js` returns.
#[derive(Deserialize)]
struct RawView {
    url: String,
    title: String,
    text: String,
    elements: Vec<InteractiveElement>,
    viewport_width: f64,
    viewport_height: f64,
    scroll_y: f64,
    page_height: f64,
}

/// What `element.js` returns for a live element.
#[derive(Deserialize)]
struct ElementCentre {
    x: f64,
    y: f64,
}

#[derive(Deserialize)]
struct SelectOutcome {
    status: String,
    options: Vec<String>,
}

impl BrowserTools {
    pub async fn navigate(&self, request: &NavigateRequest) -> ToolResult<PageSummary> {
        let url = normalise_url(&request.url)?;
        let secs = request.timeout_secs.unwrap_or(DEFAULT_NAVIGATION_TIMEOUT);
        if !secs.is_finite() || secs <= 0.0 {
            return Err(ToolError::invalid(
                "timeout_secs must be a positive number of seconds",
            ));
        }
        let limit = Duration::from_secs_f64(secs.min(MAX_NAVIGATION_TIMEOUT));
        let page = self.page().await?;
        self.load(&page, &url, limit).await?;
        self.summary(&page).await
    }

    pub async fn view(&self, request: &ViewRequest) -> ToolResult<PageView> {
        let page = self.page().await?;
        let raw: RawView = self.evaluate_into(&page, PAGE_VIEW_JS).await?;
        let max_chars = request.max_text_chars.unwrap_or(DEFAULT_TEXT_CHARS) as usize;
        let text_truncated = raw.text.chars().count() > max_chars;
        let text = if text_truncated {
            raw.text.chars().take(max_chars).collect()
        } else {
            raw.text
        };
        let screenshot = if request.no_screenshot {
            None
        } else {
            Some(self.capture(&page, request.format, request.quality).await?)
        };
        Ok(PageView {
            tab_id: page.target_id().as_ref().to_owned(),
            url: raw.url,
            title: raw.title,
            text,
            text_truncated,
            elements: raw.elements,
            viewport_width: raw.viewport_width,
            viewport_height: raw.viewport_height,
            scroll_y: raw.scroll_y,
            page_height: raw.page_height,
            screenshot,
            screenshot_format: request.format,
        })
    }

    pub async fn screenshot(&self, request: &ScreenshotRequest) -> ToolResult<Screenshot> {
        let page = self.page().await?;
        let image = self.capture(&page, request.format, request.quality).await?;
        let summary = self.summary(&page).await?;
        Ok(Screenshot {
            tab_id: summary.tab_id,
            url: summary.url,
            title: summary.title,
            image,
            format: request.format,
        })
    }

    /// The viewport as a base64 image.
    async fn capture(&self, page: &Page, format: ImageFormat, quality: Option<u8>) -> ToolResult<String> {
        let params = match format {
            ImageFormat::Png => ScreenshotParams::builder().format(CaptureScreenshotFormat::Png),
            ImageFormat::Jpeg => ScreenshotParams::builder()
                .format(CaptureScreenshotFormat::Jpeg)
                .quality(i64::from(quality.unwrap_or(80).clamp(1, 100))),
        };
        let image = self
            .bounded(ACTION_TIMEOUT, page.screenshot(params.build()))
            .await?;
        Ok(base64::engine::general_purpose::STANDARD.encode(image))
    }

    pub async fn click(&self, request: &ClickRequest) -> ToolResult<PageSummary> {
        let page = self.page().await?;
        let point = match (request.index, request.x, request.y) {
            (Some(index), None, None) => self.element_centre(&page, index).await?,
            (None, Some(x), Some(y)) if x.is_finite() && y.is_finite() && x >= 0.0 && y >= 0.0 => {
                Point { x, y }
            }
            _ => {
                return Err(ToolError::invalid(
                    "give either `index`, or both `x` and `y` (viewport pixels, ≥ 0)",
                ))
            }
        };
        self.bounded(ACTION_TIMEOUT, page.click(point)).await?;
        self.summary(&page).await
    }

    pub async fn type_text(&self, request: &TypeRequest) -> ToolResult<PageSummary> {
        let page = self.page().await?;
        let centre = self.element_centre(&page, request.index).await?;
        self.bounded(ACTION_TIMEOUT, page.click(centre)).await?;
        let script = CLEAR_AND_FOCUS_JS
            .replace("INDEX", &request.index.to_string())
            .replace("APPEND", if request.append { "true" } else { "false" });
        let focused: bool = self.evaluate_into(&page, &script).await?;
        if !focused {
            return Err(stale(request.index));
        }
        self.bounded(
            ACTION_TIMEOUT,
            page.execute(InsertTextParams::new(request.text.clone())),
        )
        .await?;
        if request.press_enter {
            let events = keys::key_events("Enter")?;
            self.bounded(ACTION_TIMEOUT, keys::press(&page, events)).await?;
        }
        self.summary(&page).await
    }

    pub async fn move_mouse(&self, x: f64, y: f64) -> ToolResult<PageSummary> {
        if !(x.is_finite() && y.is_finite() && x >= 0.0 && y >= 0.0) {
            return Err(ToolError::invalid("x and y are viewport pixels, ≥ 0"));
        }
        let page = self.page().await?;
        self.bounded(ACTION_TIMEOUT, page.move_mouse(Point { x, y }))
            .await?;
        self.summary(&page).await
    }

    pub async fn press_key(&self, key: &str) -> ToolResult<PageSummary> {
        let events = keys::key_events(key)?;
        let page = self.page().await?;
        self.bounded(ACTION_TIMEOUT, keys::press(&page, events)).await?;
        self.summary(&page).await
    }

    pub async fn select(&self, request: &SelectRequest) -> ToolResult<PageSummary> {
        let page = self.page().await?;
        let option = serde_json::to_string(&request.option).map_err(anyhow::Error::from)?;
        let script = SELECT_OPTION_JS
            .replace("INDEX", &request.index.to_string())
            .replace("OPTION", &option);
        let outcome: SelectOutcome = self.evaluate_into(&page, &script).await?;
        match outcome.status.as_str() {
            "ok" => self.summary(&page).await,
            "gone" => Err(stale(request.index)),
            "not_select" => Err(ToolError::new(
                ErrorCode::WrongKind,
                format!("element {} is not a <select>; click it instead", request.index),
            )),
            _ => Err(ToolError::invalid(format!(
                "element {} has no option {:?}; its options are {:?}",
                request.index, request.option, outcome.options
            ))),
        }
    }

    pub async fn scroll(&self, request: &ScrollRequest) -> ToolResult<PageSummary> {
        let page = self.page().await?;
        let script = match (request.direction, request.to_end) {
            (ScrollDirection::Down, false) => "window.scrollBy(0, window.innerHeight * 0.9)",
            (ScrollDirection::Up, false) => "window.scrollBy(0, -window.innerHeight * 0.9)",
            (ScrollDirection::Down, true) => "window.scrollTo(0, document.documentElement.scrollHeight)",
            (ScrollDirection::Up, true) => "window.scrollTo(0, 0)",
        };
        self.run_script(&page, script).await?;
        self.summary(&page).await
    }

    /// Runs JavaScript in the page. A thrown exception is a result, not an error: the
    /// agent needs to see it.
    pub async fn evaluate(&self, javascript: &str) -> ToolResult<EvaluateResponse> {
        if javascript.trim().is_empty() {
            return Err(ToolError::invalid("javascript is empty"));
        }
        let page = self.page().await?;
        self.run_script(&page, javascript).await
    }

    pub fn console(&self) -> ConsoleLog {
        let log = self.console.lock().unwrap_or_else(|p| p.into_inner());
        ConsoleLog {
            messages: log.iter().cloned().collect(),
        }
    }

    pub async fn back(&self) -> ToolResult<PageSummary> {
        let page = self.page().await?;
        self.run_script(&page, "history.back()").await?;
        // history.back() returns before the navigation; give it a moment to commit.
        tokio::time::sleep(Duration::from_millis(300)).await;
        self.summary(&page).await
    }

    /// URL and title from the browser's target list: no page script, so it works while a
    /// navigation is replacing the page.
    pub(super) async fn summary(&self, page: &Page) -> ToolResult<PageSummary> {
        let params = GetTargetInfoParams::builder()
            .target_id(page.target_id().clone())
            .build();
        let info = self
            .bounded(ACTION_TIMEOUT, page.execute(params))
            .await?
            .result
            .target_info;
        Ok(PageSummary {
            tab_id: page.target_id().as_ref().to_owned(),
            url: info.url,
            title: info.title,
        })
    }

    async fn element_centre(&self, page: &Page, index: u32) -> ToolResult<Point> {
        let script = ELEMENT_JS.replace("INDEX", &index.to_string());
        let centre: Option<ElementCentre> = self.evaluate_into(page, &script).await?;
        let centre = centre.ok_or_else(|| stale(index))?;
        Ok(Point {
            x: centre.x,
            y: centre.y,
        })
    }

    /// Evaluates `script` in the page's current main context. Without an explicit context
    /// id the browser picks the live one, so a navigation in between cannot leave the call
    /// pointing at a destroyed context; one that is mid-commit gets a single retry.
    pub(super) async fn run_script(&self, page: &Page, script: &str) -> ToolResult<EvaluateResponse> {
        let params = EvaluateParams::builder()
            .expression(script)
            .await_promise(true)
            .return_by_value(true)
            .build()
            .map_err(anyhow::Error::msg)?;
        let returned = match self.bounded(ACTION_TIMEOUT, page.execute(params.clone())).await {
            Err(ToolError::Api { message, .. }) if message.contains("context") => {
                tokio::time::sleep(Duration::from_millis(200)).await;
                self.bounded(ACTION_TIMEOUT, page.execute(params)).await?
            }
            other => other?,
        };
        let exception = returned.result.exception_details.as_ref().map(|details| {
            details
                .exception
                .as_ref()
                .and_then(|e| e.description.clone())
                .unwrap_or_else(|| details.text.clone())
        });
        Ok(EvaluateResponse {
            result: returned
                .result
                .result
                .value
                .clone()
                .unwrap_or(serde_json::Value::Null),
            exception,
        })
    }

    /// Runs one of our own page scripts and reads its result.
    pub(super) async fn evaluate_into<T: serde::de::DeserializeOwned>(
        &self,
        page: &Page,
        script: &str,
    ) -> ToolResult<T> {
        let returned = self.run_script(page, script).await?;
        if let Some(exception) = returned.exception {
            return Err(ToolError::Internal(anyhow::anyhow!(
                "a page script threw: {exception}"
            )));
        }
        serde_json::from_value(returned.result).map_err(|err| {
            ToolError::Internal(anyhow::Error::new(err).context("reading a page script's result"))
        })
    }
}

fn stale(index: u32) -> ToolError {
    ToolError::new(
        ErrorCode::StaleElement,
        format!("element {index} is not on the page any more (it changed since the last view); view the page again"),
    )
}

/// Accepts absolute http(s), file and about URLs; a bare host gets `https://`.
pub(super) fn normalise_url(raw: &str) -> ToolResult<String> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Err(ToolError::invalid("url is empty"));
    }
    let candidate = if raw.contains("://") || raw.starts_with("about:") {
        raw.to_owned()
    } else {
        format!("https://{raw}")
    };
    let url = reqwest::Url::parse(&candidate)
        .map_err(|err| ToolError::invalid(format!("invalid url {raw:?}: {err}")))?;
    match url.scheme() {
        "http" | "https" | "file" | "about" => Ok(url.into()),
        other => Err(ToolError::invalid(format!(
            "url scheme {other:?} is not allowed (use http, https, file or about)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::normalise_url;

    #[test]
    fn urls_are_normalised_and_checked() {
        assert_eq!(normalise_url("example.com/a").unwrap(), "https://example.com/a");
        assert_eq!(
            normalise_url("http://127.0.0.1:8000/x").unwrap(),
            "http://127.0.0.1:8000/x"
        );
        assert_eq!(normalise_url("about:blank").unwrap(), "about:blank");
        for bad in [
            "",
            "javascript:alert(1)",
            "ftp://x/y",
            "chrome://settings",
            "http://",
        ] {
            assert!(normalise_url(bad).is_err(), "{bad}");
        }
    }
}
