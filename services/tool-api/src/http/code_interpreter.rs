//! E2B's code-interpreter routes under `/e2b/code` (port 49999 of an E2B sandbox, reached
//! through backend-api's E2B proxy): run a cell as a stream of NDJSON outputs, and manage
//! code contexts. The shapes are those the `e2b-code-interpreter` SDK parses.

use std::collections::BTreeMap;
use std::convert::Infallible;

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use serde::Deserialize;
use service_kit::Json;
use tool_api_contract::ErrorBody;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use crate::error::ToolResult;
use crate::interpreter::{Cell, ContextInfo};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(health))
        .routes(routes!(execute))
        .routes(routes!(create_context, list_contexts))
        .routes(routes!(restart_context))
        .routes(routes!(remove_context))
}

/// A cell: in the default context, or the one named, or the default one of a language.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
struct ExecuteRequest {
    code: String,
    context_id: Option<String>,
    language: Option<String>,
    /// Set for this cell only, on top of the sandbox's variables.
    env_vars: Option<BTreeMap<String, String>>,
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
struct CreateContextRequest {
    language: Option<String>,
    /// Relative to the sandbox user's home, which is the default.
    cwd: Option<String>,
}

/// Always `"OK"`.
#[utoipa::path(get, path = "/e2b/code/health", tag = "e2b", responses((status = 200, body = String)))]
async fn health() -> Json<&'static str> {
    Json("OK")
}

/// Runs a cell and streams its outputs as they come, one JSON object a line: `stdout` /
/// `stderr` text, `result` (a display bundle), `error`, `number_of_executions`, an
/// occasional `keepalive`, and always `end_of_execution` last. A client that hangs up
/// interrupts the cell.
#[utoipa::path(post, path = "/e2b/code/execute", tag = "e2b", request_body = ExecuteRequest,
    responses((status = 200, content_type = "application/x-ndjson", body = String),
        (status = 400, body = ErrorBody, description = "both context_id and language, or a language there is no kernel for"),
        (status = 404, body = ErrorBody, description = "no such context")))]
async fn execute(State(state): State<AppState>, Json(request): Json<ExecuteRequest>) -> ToolResult<Response> {
    let cell = Cell {
        code: request.code,
        context_id: request.context_id,
        language: request.language,
        env_vars: request.env_vars.unwrap_or_default(),
    };
    let outputs = state.interpreter.execute(cell, state.sandbox_env.vars())?;
    let end = futures::stream::iter([serde_json::json!({ "type": "end_of_execution" })]);
    let lines = outputs
        .take_until(state.stopping.clone().cancelled_owned())
        .chain(end)
        .map(|output| {
            let mut line = output.to_string();
            line.push('\n');
            Ok::<_, Infallible>(line)
        });
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(lines),
    )
        .into_response())
}

/// Makes a context (a kernel of its own, started now) and describes it.
#[utoipa::path(post, path = "/e2b/code/contexts", tag = "e2b", request_body = CreateContextRequest,
    responses((status = 200, body = ContextInfo),
        (status = 400, body = ErrorBody, description = "a language there is no kernel for"),
        (status = 403, body = ErrorBody, description = "the sandbox user may not enter cwd"),
        (status = 422, body = ErrorBody, description = "cwd does not exist or is not a directory"),
        (status = 429, body = ErrorBody, description = "every context slot is taken"),
        (status = 503, body = ErrorBody, description = "the kernel could not be started")))]
async fn create_context(
    State(state): State<AppState>,
    Json(request): Json<CreateContextRequest>,
) -> ToolResult<Json<ContextInfo>> {
    let context = state
        .interpreter
        .create(request.language.as_deref(), request.cwd.as_deref())
        .await?;
    Ok(Json(context))
}

/// Every context, the default one first.
#[utoipa::path(get, path = "/e2b/code/contexts", tag = "e2b", responses((status = 200, body = Vec<ContextInfo>)))]
async fn list_contexts(State(state): State<AppState>) -> Json<Vec<ContextInfo>> {
    Json(state.interpreter.list())
}

/// Ends the context's kernel and starts a new one: its variables are gone.
#[utoipa::path(post, path = "/e2b/code/contexts/{id}/restart", tag = "e2b",
    params(("id" = String, Path)),
    responses((status = 204), (status = 404, body = ErrorBody),
        (status = 503, body = ErrorBody, description = "the kernel could not be started")))]
async fn restart_context(State(state): State<AppState>, Path(id): Path<String>) -> ToolResult<StatusCode> {
    state.interpreter.restart(&id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Removes a context and ends its kernel.
#[utoipa::path(delete, path = "/e2b/code/contexts/{id}", tag = "e2b",
    params(("id" = String, Path)),
    responses((status = 204), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "the default context")))]
async fn remove_context(State(state): State<AppState>, Path(id): Path<String>) -> ToolResult<StatusCode> {
    state.interpreter.remove(&id)?;
    Ok(StatusCode::NO_CONTENT)
}
