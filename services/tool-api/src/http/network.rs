//! `POST /v1/network-ready`, by which the manager opens the network gate, and the layer
//! that keeps every other route closed until then (see `crate::network_gate`).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tool_api_contract::ErrorCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use crate::error::ToolError;
use crate::network_gate::NetworkGate;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(network_ready))
}

/// The sandbox's network rules are in place: what waited for them starts, and every
/// route opens. The manager calls it once it has loaded the rules, on every start;
/// calling it again changes nothing.
#[utoipa::path(post, path = "/v1/network-ready", tag = "system",
    responses((status = 204, description = "The gate is open"),
        (status = 401, body = tool_api_contract::ErrorBody)))]
async fn network_ready(State(state): State<AppState>) -> StatusCode {
    state.network_gate.open();
    StatusCode::NO_CONTENT
}

/// Answers `503 network_pending` while the gate is closed.
pub async fn held(State(gate): State<Arc<NetworkGate>>, request: Request, next: Next) -> Response {
    if gate.is_open() {
        return next.run(request).await;
    }
    ToolError::new(
        ErrorCode::NetworkPending,
        "the sandbox is starting: its network rules are not in place yet, and nothing in it \
         runs until they are; retry in a moment",
    )
    .into_response()
}
