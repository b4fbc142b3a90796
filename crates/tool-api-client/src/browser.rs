//! Methods for the browser tools.

use reqwest::Method;
use tool_api_contract::browser::{
    ClickRequest, ConsoleLog, EvaluateRequest, EvaluateResponse, MoveMouseRequest, NavigateRequest,
    OpenTabRequest, PageSummary, PageView, PressKeyRequest, Screenshot, ScreenshotRequest, ScrollRequest,
    SelectRequest, TabList, TabRequest, TypeRequest, ViewRequest,
};

use crate::{check, ClientResult, ToolApiClient};

impl ToolApiClient {
    pub async fn navigate(&self, request: &NavigateRequest) -> ClientResult<PageSummary> {
        self.post_json("/v1/browser/navigate", request).await
    }

    pub async fn view_page(&self, request: &ViewRequest) -> ClientResult<PageView> {
        self.post_json("/v1/browser/view", request).await
    }

    /// The picture alone, leaving the element numbering of the last view as it is.
    pub async fn screenshot(&self, request: &ScreenshotRequest) -> ClientResult<Screenshot> {
        self.post_json("/v1/browser/screenshot", request).await
    }

    pub async fn click(&self, request: &ClickRequest) -> ClientResult<PageSummary> {
        self.post_json("/v1/browser/click", request).await
    }

    pub async fn type_text(&self, request: &TypeRequest) -> ClientResult<PageSummary> {
        self.post_json("/v1/browser/type", request).await
    }

    pub async fn move_mouse(&self, x: f64, y: f64) -> ClientResult<PageSummary> {
        self.post_json("/v1/browser/move_mouse", &MoveMouseRequest { x, y })
            .await
    }

    pub async fn press_key(&self, key: &str) -> ClientResult<PageSummary> {
        let request = PressKeyRequest { key: key.to_owned() };
        self.post_json("/v1/browser/press_key", &request).await
    }

    pub async fn select_option(&self, request: &SelectRequest) -> ClientResult<PageSummary> {
        self.post_json("/v1/browser/select", request).await
    }

    pub async fn scroll(&self, request: &ScrollRequest) -> ClientResult<PageSummary> {
        self.post_json("/v1/browser/scroll", request).await
    }

    pub async fn evaluate(&self, javascript: &str) -> ClientResult<EvaluateResponse> {
        let request = EvaluateRequest {
            javascript: javascript.to_owned(),
        };
        self.post_json("/v1/browser/evaluate", &request).await
    }

    pub async fn console_log(&self) -> ClientResult<ConsoleLog> {
        self.get_json("/v1/browser/console").await
    }

    pub async fn back(&self) -> ClientResult<PageSummary> {
        self.post_json("/v1/browser/back", &()).await
    }

    pub async fn tabs(&self) -> ClientResult<TabList> {
        self.get_json("/v1/browser/tabs").await
    }

    pub async fn open_tab(&self, url: Option<&str>) -> ClientResult<PageSummary> {
        let request = OpenTabRequest {
            url: url.map(str::to_owned),
        };
        self.post_json("/v1/browser/tabs/open", &request).await
    }

    pub async fn switch_tab(&self, tab_id: &str) -> ClientResult<PageSummary> {
        let request = TabRequest {
            tab_id: tab_id.to_owned(),
        };
        self.post_json("/v1/browser/tabs/switch", &request).await
    }

    pub async fn close_tab(&self, tab_id: &str) -> ClientResult<TabList> {
        let request = TabRequest {
            tab_id: tab_id.to_owned(),
        };
        self.post_json("/v1/browser/tabs/close", &request).await
    }

    pub async fn restart_browser(&self) -> ClientResult<()> {
        check(self.request(Method::POST, "/v1/browser/restart").send().await?).await?;
        Ok(())
    }
}
