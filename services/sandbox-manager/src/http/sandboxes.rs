//! `/v1/sandboxes`: create-or-get per session, get, list, delete, keep-alive, logs.
//!
//! Creating and deleting run to their end whether or not the client waits for the
//! answer: a client that goes away (timed out, or its process killed) would otherwise
//! drop the work halfway, leaving a record the session's next request is refused on until
//! reconciliation cleans it up.

use std::future::Future;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use sandbox_manager_contract::{CreateSandbox, ErrorBody, ListQuery, LogsQuery, Sandbox, SandboxList};
use service_kit::{Json, Query};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use crate::error::ManagerResult;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create, list))
        .routes(routes!(get, delete))
        .routes(routes!(keep_alive))
        .routes(routes!(stop))
        .routes(routes!(logs))
}

/// The session's sandbox: returned as it is when it exists (200), otherwise claimed from
/// the warm pool or started (201) once it is ready.
#[utoipa::path(
    post, path = "/v1/sandboxes", request_body = CreateSandbox,
    responses(
        (status = 201, description = "made for this request", body = Sandbox),
        (status = 200, description = "the session already had it", body = Sandbox),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody),
        (status = 503, body = ErrorBody), (status = 504, body = ErrorBody),
    )
)]
async fn create(
    State(state): State<AppState>,
    Json(request): Json<CreateSandbox>,
) -> ManagerResult<impl IntoResponse> {
    let manager = state.manager.clone();
    let (sandbox, created) = to_the_end(async move { manager.create_or_get(request).await }).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, axum::Json(sandbox)))
}

#[utoipa::path(
    get, path = "/v1/sandboxes", params(ListQuery),
    responses((status = 200, body = SandboxList), (status = 400, body = ErrorBody))
)]
async fn list(State(state): State<AppState>, Query(query): Query<ListQuery>) -> axum::Json<SandboxList> {
    axum::Json(SandboxList {
        sandboxes: state.manager.list(&query).await,
    })
}

#[utoipa::path(
    get, path = "/v1/sandboxes/{id}",
    responses((status = 200, body = Sandbox), (status = 404, body = ErrorBody))
)]
async fn get(State(state): State<AppState>, Path(id): Path<String>) -> ManagerResult<axum::Json<Sandbox>> {
    Ok(axum::Json(state.manager.get(&id).await?))
}

/// Stops and removes the container and the session's volume, also when it is half-made.
#[utoipa::path(
    delete, path = "/v1/sandboxes/{id}",
    responses((status = 204), (status = 404, body = ErrorBody), (status = 503, body = ErrorBody))
)]
async fn delete(State(state): State<AppState>, Path(id): Path<String>) -> ManagerResult<StatusCode> {
    let manager = state.manager.clone();
    to_the_end(async move { manager.delete(&id).await }).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Runs `work` in a task of its own, so dropping the request does not cancel it.
async fn to_the_end<T: Send + 'static>(
    work: impl Future<Output = ManagerResult<T>> + Send + 'static,
) -> ManagerResult<T> {
    tokio::spawn(work)
        .await
        .map_err(|err| anyhow::anyhow!("a sandbox request's task failed: {err}"))?
}

/// Stops the sandbox's container and keeps the session's volume: the session's next
/// sandbox finds its files. An ended sandbox is answered as it is.
#[utoipa::path(
    post, path = "/v1/sandboxes/{id}/stop",
    responses((status = 200, body = Sandbox), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody))
)]
async fn stop(State(state): State<AppState>, Path(id): Path<String>) -> ManagerResult<axum::Json<Sandbox>> {
    let manager = state.manager.clone();
    Ok(axum::Json(
        to_the_end(async move { manager.stop(&id).await }).await?,
    ))
}

/// Marks the sandbox used now, pushing its idle time-out back.
#[utoipa::path(
    post, path = "/v1/sandboxes/{id}/keepalive",
    responses((status = 200, body = Sandbox), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody))
)]
async fn keep_alive(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ManagerResult<axum::Json<Sandbox>> {
    Ok(axum::Json(state.manager.keep_alive(&id).await?))
}

/// The sandbox's own output (tool-api and desktop), as plain text.
#[utoipa::path(
    get, path = "/v1/sandboxes/{id}/logs", params(LogsQuery),
    responses(
        (status = 200, content_type = "text/plain", body = String),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody),
    )
)]
async fn logs(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<LogsQuery>,
) -> ManagerResult<String> {
    state.manager.logs(&id, query.tail).await
}
