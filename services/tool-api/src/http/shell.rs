//! Routes of shell sessions: exec, view, wait, input, kill, delete, list, live output.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::Event;
use axum::response::IntoResponse;
use futures::StreamExt;
use service_kit::{Json, Query};
use tool_api_contract::shell::{
    ExecRequest, InputRequest, ShellSessionList, ShellSnapshot, StreamQuery, ViewQuery, WaitRequest,
};
use tool_api_contract::ErrorBody;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::sse::sse;
use super::AppState;
use crate::error::ToolResult;
use crate::shell::StreamItem;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(view, delete))
        .routes(routes!(exec))
        .routes(routes!(wait))
        .routes(routes!(input))
        .routes(routes!(kill))
        .routes(routes!(stream))
}

/// Runs a command in the named session (created on first use). Answers when it ends or
/// when the wait timeout passes; then `state` is `running` and the command goes on.
#[utoipa::path(post, path = "/v1/shell/sessions/{id}/exec", tag = "shell",
    params(("id" = String, Path, description = "session name: 1–64 of [A-Za-z0-9._-]")),
    request_body = ExecRequest,
    responses((status = 200, body = ShellSnapshot), (status = 404, body = ErrorBody, description = "cwd missing"),
        (status = 409, body = ErrorBody, description = "a command is still running"),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody, description = "too many sessions")))]
async fn exec(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(request): Json<ExecRequest>,
) -> ToolResult<Json<ShellSnapshot>> {
    Ok(Json(state.shells.exec(&id, request).await?))
}

/// The latest command's state and output (or the whole console with `full=true`).
#[utoipa::path(get, path = "/v1/shell/sessions/{id}", tag = "shell",
    params(("id" = String, Path), ViewQuery),
    responses((status = 200, body = ShellSnapshot), (status = 404, body = ErrorBody)))]
async fn view(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<ViewQuery>,
) -> ToolResult<Json<ShellSnapshot>> {
    Ok(Json(state.shells.view(&id, query.full)?))
}

/// Kills the session's command and forgets the session.
#[utoipa::path(delete, path = "/v1/shell/sessions/{id}", tag = "shell",
    params(("id" = String, Path)),
    responses((status = 204), (status = 404, body = ErrorBody)))]
async fn delete(State(state): State<AppState>, Path(id): Path<String>) -> ToolResult<StatusCode> {
    state.shells.remove(&id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Waits for the latest command up to the timeout.
#[utoipa::path(post, path = "/v1/shell/sessions/{id}/wait", tag = "shell",
    params(("id" = String, Path)), request_body = WaitRequest,
    responses((status = 200, body = ShellSnapshot), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn wait(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(request): Json<WaitRequest>,
) -> ToolResult<Json<ShellSnapshot>> {
    Ok(Json(state.shells.wait(&id, request.timeout_secs).await?))
}

/// Writes to the running command's stdin (with a newline unless `enter` is false).
#[utoipa::path(post, path = "/v1/shell/sessions/{id}/input", tag = "shell",
    params(("id" = String, Path)), request_body = InputRequest,
    responses((status = 200, body = ShellSnapshot), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "nothing is running")))]
async fn input(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(request): Json<InputRequest>,
) -> ToolResult<Json<ShellSnapshot>> {
    Ok(Json(
        state
            .shells
            .write_input(&id, &request.input, request.enter)
            .await?,
    ))
}

/// Kills the latest command's whole process group (SIGTERM, then SIGKILL).
#[utoipa::path(post, path = "/v1/shell/sessions/{id}/kill", tag = "shell",
    params(("id" = String, Path)),
    responses((status = 200, body = ShellSnapshot), (status = 404, body = ErrorBody)))]
async fn kill(State(state): State<AppState>, Path(id): Path<String>) -> ToolResult<Json<ShellSnapshot>> {
    Ok(Json(state.shells.kill(&id).await?))
}

/// Sessions that have run a command.
#[utoipa::path(get, path = "/v1/shell/sessions", tag = "shell",
    responses((status = 200, body = ShellSessionList)))]
async fn list(State(state): State<AppState>) -> Json<ShellSessionList> {
    Json(state.shells.list())
}

/// Live output as server-sent events: `output` events (data: a JSON string, `id:` the
/// console offset after it), then one `exit` event (data: the final snapshot).
/// Reconnects resume with `Last-Event-ID`.
#[utoipa::path(get, path = "/v1/shell/sessions/{id}/stream", tag = "shell",
    params(("id" = String, Path), StreamQuery),
    responses((status = 200, content_type = "text/event-stream", description = "output and exit events"),
        (status = 404, body = ErrorBody)))]
async fn stream(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<StreamQuery>,
    headers: HeaderMap,
) -> ToolResult<impl IntoResponse> {
    let resume = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok());
    let items = state.shells.stream(&id, resume.or(query.from))?;
    let events = items.map(|item| match item {
        StreamItem::Output(slice) => Event::default()
            .event("output")
            .id(slice.end.to_string())
            .json_data(slice.text),
        StreamItem::Exit(snapshot) => Event::default().event("exit").json_data(snapshot),
    });
    // Serialising a String or a snapshot cannot fail; drop the impossible error.
    let events = events.filter_map(|event| async move { event.ok() });
    Ok(sse(events, &state.stopping))
}
