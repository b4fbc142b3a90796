//! Routes of the browser tools. Each starts the desktop when it is stopped and keeps it
//! from stopping until it has answered; without a desktop they answer 503
//! `not_configured`.

use std::ops::Deref;
use std::sync::Arc;

use axum::extract::State;
use service_kit::Json;
use tool_api_contract::browser::{
    ClickRequest, ConsoleLog, EvaluateRequest, EvaluateResponse, MoveMouseRequest, NavigateRequest,
    OpenTabRequest, PageSummary, PageView, PressKeyRequest, Screenshot, ScreenshotRequest, ScrollRequest,
    SelectRequest, TabList, TabRequest, TypeRequest, ViewRequest,
};
use tool_api_contract::ErrorBody;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::desktop::no_desktop;
use super::AppState;
use crate::browser::BrowserTools;
use crate::desktop::InUse;
use crate::error::ToolResult;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(navigate))
        .routes(routes!(view))
        .routes(routes!(screenshot))
        .routes(routes!(click))
        .routes(routes!(type_text))
        .routes(routes!(move_mouse))
        .routes(routes!(press_key))
        .routes(routes!(select))
        .routes(routes!(scroll))
        .routes(routes!(evaluate))
        .routes(routes!(console))
        .routes(routes!(back))
        .routes(routes!(tabs))
        .routes(routes!(open_tab))
        .routes(routes!(switch_tab))
        .routes(routes!(close_tab))
        .routes(routes!(restart))
}

fn tools(state: &AppState) -> ToolResult<Arc<BrowserTools>> {
    state.browser.clone().ok_or_else(no_desktop)
}

/// The browser tools with the browser answering, held for as long as this lives.
struct Ready {
    tools: Arc<BrowserTools>,
    _in_use: InUse,
}

impl Deref for Ready {
    type Target = BrowserTools;

    fn deref(&self) -> &BrowserTools {
        &self.tools
    }
}

async fn ready(state: &AppState) -> ToolResult<Ready> {
    let tools = tools(state)?;
    let in_use = tools.ready().await?;
    Ok(Ready {
        tools,
        _in_use: in_use,
    })
}

/// Loads a URL in the active tab and waits for it (up to `timeout_secs`).
#[utoipa::path(post, path = "/v1/browser/navigate", tag = "browser", request_body = NavigateRequest,
    responses((status = 200, body = PageSummary), (status = 422, body = ErrorBody), (status = 502, body = ErrorBody),
        (status = 503, body = ErrorBody), (status = 504, body = ErrorBody)))]
async fn navigate(
    State(state): State<AppState>,
    Json(request): Json<NavigateRequest>,
) -> ToolResult<Json<PageSummary>> {
    Ok(Json(ready(&state).await?.navigate(&request).await?))
}

/// Screenshot, visible text and the numbered interactive elements of the active tab.
#[utoipa::path(post, path = "/v1/browser/view", tag = "browser", request_body = ViewRequest,
    responses((status = 200, body = PageView), (status = 503, body = ErrorBody)))]
async fn view(State(state): State<AppState>, Json(request): Json<ViewRequest>) -> ToolResult<Json<PageView>> {
    Ok(Json(ready(&state).await?.view(&request).await?))
}

/// The active tab's picture alone; the element numbering from the last `view` stays valid.
#[utoipa::path(post, path = "/v1/browser/screenshot", tag = "browser", request_body = ScreenshotRequest,
    responses((status = 200, body = Screenshot), (status = 503, body = ErrorBody)))]
async fn screenshot(
    State(state): State<AppState>,
    Json(request): Json<ScreenshotRequest>,
) -> ToolResult<Json<Screenshot>> {
    Ok(Json(ready(&state).await?.screenshot(&request).await?))
}

/// Clicks an element by index, or a viewport point.
#[utoipa::path(post, path = "/v1/browser/click", tag = "browser", request_body = ClickRequest,
    responses((status = 200, body = PageSummary), (status = 409, body = ErrorBody, description = "stale index"),
        (status = 422, body = ErrorBody)))]
async fn click(
    State(state): State<AppState>,
    Json(request): Json<ClickRequest>,
) -> ToolResult<Json<PageSummary>> {
    Ok(Json(ready(&state).await?.click(&request).await?))
}

/// Types into an element (replacing its content unless `append`), optionally pressing Enter.
#[utoipa::path(post, path = "/v1/browser/type", tag = "browser", request_body = TypeRequest,
    responses((status = 200, body = PageSummary), (status = 409, body = ErrorBody)))]
async fn type_text(
    State(state): State<AppState>,
    Json(request): Json<TypeRequest>,
) -> ToolResult<Json<PageSummary>> {
    Ok(Json(ready(&state).await?.type_text(&request).await?))
}

/// Moves the mouse to a viewport point (hover menus).
#[utoipa::path(post, path = "/v1/browser/move_mouse", tag = "browser", request_body = MoveMouseRequest,
    responses((status = 200, body = PageSummary), (status = 422, body = ErrorBody)))]
async fn move_mouse(
    State(state): State<AppState>,
    Json(request): Json<MoveMouseRequest>,
) -> ToolResult<Json<PageSummary>> {
    Ok(Json(ready(&state).await?.move_mouse(request.x, request.y).await?))
}

/// Presses a key or a combination such as `Control+a`.
#[utoipa::path(post, path = "/v1/browser/press_key", tag = "browser", request_body = PressKeyRequest,
    responses((status = 200, body = PageSummary), (status = 422, body = ErrorBody)))]
async fn press_key(
    State(state): State<AppState>,
    Json(request): Json<PressKeyRequest>,
) -> ToolResult<Json<PageSummary>> {
    Ok(Json(ready(&state).await?.press_key(&request.key).await?))
}

/// Chooses an option of a `<select>` by value or label.
#[utoipa::path(post, path = "/v1/browser/select", tag = "browser", request_body = SelectRequest,
    responses((status = 200, body = PageSummary), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn select(
    State(state): State<AppState>,
    Json(request): Json<SelectRequest>,
) -> ToolResult<Json<PageSummary>> {
    Ok(Json(ready(&state).await?.select(&request).await?))
}

/// Scrolls one screen up or down, or to the top or bottom.
#[utoipa::path(post, path = "/v1/browser/scroll", tag = "browser", request_body = ScrollRequest,
    responses((status = 200, body = PageSummary)))]
async fn scroll(
    State(state): State<AppState>,
    Json(request): Json<ScrollRequest>,
) -> ToolResult<Json<PageSummary>> {
    Ok(Json(ready(&state).await?.scroll(&request).await?))
}

/// Runs JavaScript in the active tab; promises are awaited, exceptions reported.
#[utoipa::path(post, path = "/v1/browser/evaluate", tag = "browser", request_body = EvaluateRequest,
    responses((status = 200, body = EvaluateResponse), (status = 422, body = ErrorBody)))]
async fn evaluate(
    State(state): State<AppState>,
    Json(request): Json<EvaluateRequest>,
) -> ToolResult<Json<EvaluateResponse>> {
    Ok(Json(ready(&state).await?.evaluate(&request.javascript).await?))
}

/// The active tab's recent console messages and uncaught exceptions.
#[utoipa::path(get, path = "/v1/browser/console", tag = "browser",
    responses((status = 200, body = ConsoleLog), (status = 503, body = ErrorBody)))]
async fn console(State(state): State<AppState>) -> ToolResult<Json<ConsoleLog>> {
    Ok(Json(tools(&state)?.console()))
}

/// Goes back in the active tab's history.
#[utoipa::path(post, path = "/v1/browser/back", tag = "browser", responses((status = 200, body = PageSummary)))]
async fn back(State(state): State<AppState>) -> ToolResult<Json<PageSummary>> {
    Ok(Json(ready(&state).await?.back().await?))
}

/// Lists the tabs.
#[utoipa::path(get, path = "/v1/browser/tabs", tag = "browser", responses((status = 200, body = TabList)))]
async fn tabs(State(state): State<AppState>) -> ToolResult<Json<TabList>> {
    Ok(Json(ready(&state).await?.tabs().await?))
}

/// Opens a tab (optionally at a URL) and makes it active.
#[utoipa::path(post, path = "/v1/browser/tabs/open", tag = "browser", request_body = OpenTabRequest,
    responses((status = 200, body = PageSummary), (status = 422, body = ErrorBody)))]
async fn open_tab(
    State(state): State<AppState>,
    Json(request): Json<OpenTabRequest>,
) -> ToolResult<Json<PageSummary>> {
    Ok(Json(ready(&state).await?.open_tab(request.url.as_deref()).await?))
}

/// Makes a tab active.
#[utoipa::path(post, path = "/v1/browser/tabs/switch", tag = "browser", request_body = TabRequest,
    responses((status = 200, body = PageSummary), (status = 404, body = ErrorBody)))]
async fn switch_tab(
    State(state): State<AppState>,
    Json(request): Json<TabRequest>,
) -> ToolResult<Json<PageSummary>> {
    Ok(Json(ready(&state).await?.switch_tab(&request.tab_id).await?))
}

/// Closes a tab.
#[utoipa::path(post, path = "/v1/browser/tabs/close", tag = "browser", request_body = TabRequest,
    responses((status = 200, body = TabList), (status = 404, body = ErrorBody)))]
async fn close_tab(
    State(state): State<AppState>,
    Json(request): Json<TabRequest>,
) -> ToolResult<Json<TabList>> {
    Ok(Json(ready(&state).await?.close_tab(&request.tab_id).await?))
}

/// Kills the browser and waits for a fresh one.
#[utoipa::path(post, path = "/v1/browser/restart", tag = "browser",
    responses((status = 204), (status = 503, body = ErrorBody)))]
async fn restart(State(state): State<AppState>) -> ToolResult<axum::http::StatusCode> {
    ready(&state).await?.restart().await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}
