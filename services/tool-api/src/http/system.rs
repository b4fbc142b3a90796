//! `/health` (no auth), `/openapi.json` (no auth) and `/v1/info`.

use axum::extract::State;
use service_kit::Json;
use tool_api_contract::info::{DesktopState, HealthResponse, InfoResponse, Readiness};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use crate::error::ToolResult;
use crate::system;

pub fn public_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(health))
}

pub fn protected_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(info))
}

/// Readiness, without authentication: `ready` once the tools are (the desktop's own state
/// is beside it), the network gate is open, and a kernel started with the server has
/// started.
#[utoipa::path(get, path = "/health", tag = "system", security(()),
    responses((status = 200, body = HealthResponse)))]
async fn health(State(state): State<AppState>) -> Json<HealthResponse> {
    let (desktop, waits_for_desktop) = match &state.desktop {
        Some(desktop) => (Some(desktop.readiness().await), desktop.always_on()),
        None => (None, false),
    };
    let warming = state.kernel.warming() || state.interpreter.default_kernel().warming();
    let ready = state.network_gate.is_open()
        && !warming
        && (!waits_for_desktop || desktop.is_some_and(|d| d.state == DesktopState::Ready));
    Json(HealthResponse {
        status: if ready {
            Readiness::Ready
        } else {
            Readiness::Starting
        },
        version: env!("CARGO_PKG_VERSION").into(),
        desktop,
        memory_used_bytes: system::working_set(),
    })
}

/// Uptime, user, home and the sandbox's CPU, memory and disk use.
#[utoipa::path(get, path = "/v1/info", tag = "system",
    responses((status = 200, body = InfoResponse), (status = 401, body = tool_api_contract::ErrorBody)))]
async fn info(State(state): State<AppState>) -> ToolResult<Json<InfoResponse>> {
    let running = state.shells.running_count().await;
    let mut info = system::collect(&state.workspace, state.started, running).await?;
    info.storage = state.storage.usage();
    if let Some(desktop) = &state.desktop {
        info.desktop = Some(desktop.info().await);
    }
    Ok(Json(info))
}
