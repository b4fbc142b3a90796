//! `/health` (no auth), `/openapi.json` (no auth) and `/v1/info`.

use axum::extract::State;
use tool_api_contract::info::{HealthResponse, InfoResponse};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::Json;
use super::AppState;
use crate::error::ToolResult;
use crate::system;

pub fn public_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(health))
}

pub fn protected_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(info))
}

/// Liveness: answers without authentication.
#[utoipa::path(get, path = "/health", tag = "system", security(()),
    responses((status = 200, body = HealthResponse)))]
async fn health() -> Json<HealthResponse> {
    Json(HealthResponse {
        status: "ok".into(),
        version: env!("CARGO_PKG_VERSION").into(),
    })
}

/// Uptime, user, home and the sandbox's CPU, memory and disk use.
#[utoipa::path(get, path = "/v1/info", tag = "system",
    responses((status = 200, body = InfoResponse), (status = 401, body = tool_api_contract::ErrorBody)))]
async fn info(State(state): State<AppState>) -> ToolResult<Json<InfoResponse>> {
    let running = state.shells.running_count().await;
    let info = system::collect(&state.workspace, state.started, running).await?;
    Ok(Json(info))
}
