//! Driving the sandbox's Chromium: navigate, view (screenshot, visible text and numbered
//! interactive elements), click, type, keys, select, scroll, JavaScript and console, tabs.
//!
//! Elements are addressed by the index the latest `view` gave them. An index from before
//! the page changed is refused with `stale_element`: view again.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct NavigateRequest {
    /// An absolute `http`, `https`, `file` or `about` URL; a bare host gets `https://`.
    pub url: String,
    /// How long to wait for the page to load (default 30 s, at most 120 s).
    #[serde(default)]
    pub timeout_secs: Option<f64>,
}

/// The active tab after an action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PageSummary {
    pub tab_id: String,
    pub url: String,
    pub title: String,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ImageFormat {
    #[default]
    Png,
    Jpeg,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct ViewRequest {
    /// Leave the screenshot out (default: included).
    #[serde(default)]
    pub no_screenshot: bool,
    #[serde(default)]
    pub format: ImageFormat,
    /// JPEG quality 1–100 (default 80).
    #[serde(default)]
    pub quality: Option<u8>,
    /// Cap on the visible text returned (default 20 000 characters).
    #[serde(default)]
    pub max_text_chars: Option<u32>,
}

/// `POST /v1/browser/screenshot`: the viewport's picture alone. Unlike `view` it leaves
/// the element numbering as it was, so it can be taken between the agent's steps.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScreenshotRequest {
    #[serde(default)]
    pub format: ImageFormat,
    /// JPEG quality 1–100 (default 80).
    #[serde(default)]
    pub quality: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Screenshot {
    pub tab_id: String,
    pub url: String,
    pub title: String,
    /// Base64 image of the viewport.
    pub image: String,
    pub format: ImageFormat,
}

/// An element the agent can act on, as numbered by `view`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct InteractiveElement {
    pub index: u32,
    /// Lower-case tag name, e.g. `a`, `button`, `input`.
    pub tag: String,
    /// The `type` of an input, or the ARIA role when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Visible text, label, placeholder or value, shortened.
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
    /// Bounding box in CSS pixels relative to the viewport.
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PageView {
    pub tab_id: String,
    pub url: String,
    pub title: String,
    /// The page's visible text (innerText), possibly cut at `max_text_chars`.
    pub text: String,
    pub text_truncated: bool,
    /// Interactive elements in the viewport, numbered.
    pub elements: Vec<InteractiveElement>,
    pub viewport_width: f64,
    pub viewport_height: f64,
    pub scroll_y: f64,
    pub page_height: f64,
    /// Base64 image of the viewport, absent with `no_screenshot`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screenshot: Option<String>,
    pub screenshot_format: ImageFormat,
}

/// Click an element by index, or a point of the viewport.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct ClickRequest {
    #[serde(default)]
    pub index: Option<u32>,
    #[serde(default)]
    pub x: Option<f64>,
    #[serde(default)]
    pub y: Option<f64>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct TypeRequest {
    pub index: u32,
    pub text: String,
    /// Press Enter afterwards.
    #[serde(default)]
    pub press_enter: bool,
    /// Append to what is there instead of replacing it.
    #[serde(default)]
    pub append: bool,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct MoveMouseRequest {
    pub x: f64,
    pub y: f64,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct PressKeyRequest {
    /// A key name (`Enter`, `Tab`, `Escape`, `ArrowDown`, `PageDown`, `a`…), optionally with
    /// modifiers: `Control+a`, `Shift+Tab`.
    pub key: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct SelectRequest {
    pub index: u32,
    /// The option's value or its visible label.
    pub option: String,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ScrollDirection {
    #[default]
    Down,
    Up,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct ScrollRequest {
    #[serde(default)]
    #[schema(inline)]
    pub direction: ScrollDirection,
    /// Scroll all the way to the top or bottom instead of one screen.
    #[serde(default)]
    pub to_end: bool,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct EvaluateRequest {
    /// A JavaScript expression; a promise is awaited.
    pub javascript: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct EvaluateResponse {
    /// The value, as JSON (`null` when it has no JSON form).
    pub result: serde_json::Value,
    /// The exception text when the script threw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exception: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ConsoleMessage {
    /// `log`, `info`, `warning`, `error`, `debug` or `exception`.
    pub level: String,
    pub text: String,
    pub timestamp_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ConsoleLog {
    /// Oldest first; the most recent 500 of the active tab.
    pub messages: Vec<ConsoleMessage>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TabInfo {
    pub tab_id: String,
    pub url: String,
    pub title: String,
    pub active: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TabList {
    pub tabs: Vec<TabInfo>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct OpenTabRequest {
    #[serde(default)]
    pub url: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct TabRequest {
    pub tab_id: String,
}
