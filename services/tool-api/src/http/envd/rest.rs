//! envd's REST routes besides file transfer: `GET /health`, `POST /init` (backend-api hands
//! over the variables the sandbox was created with) and `GET /envs`.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;

use super::AppState;
use crate::envd::error::EnvdError;

/// 204 while the tool-api serves.
pub async fn health() -> StatusCode {
    StatusCode::NO_CONTENT
}

/// What `POST /init` reads; envd's other fields (access token, default user and workdir,
/// time, volume mounts, CA bundle) have no meaning here: the bearer token guards the
/// tool-api, the sandbox has one user and its clock is the host's.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitRequest {
    #[serde(default)]
    env_vars: BTreeMap<String, String>,
}

/// Stores the sandbox's variables for every program started from now on.
pub async fn init(State(state): State<AppState>, body: axum::body::Bytes) -> Response {
    let request: InitRequest = match serde_json::from_slice(if body.is_empty() { b"{}" } else { &body }) {
        Ok(request) => request,
        Err(err) => return rest_error(StatusCode::BAD_REQUEST, format!("invalid init request: {err}")),
    };
    if let Err(message) = crate::child_env::check(&request.env_vars) {
        return rest_error(StatusCode::BAD_REQUEST, message);
    }
    state.sandbox_env.set(request.env_vars);
    StatusCode::NO_CONTENT.into_response()
}

/// The sandbox's variables.
pub async fn envs(State(state): State<AppState>) -> Json<BTreeMap<String, String>> {
    Json(state.sandbox_env.vars())
}

/// envd's REST error body: the status again as `code`, and a message.
pub fn rest_error(status: StatusCode, message: String) -> Response {
    (
        status,
        Json(serde_json::json!({ "code": status.as_u16(), "message": message })),
    )
        .into_response()
}

/// An envd error on a REST route.
pub fn rest_failure(err: EnvdError) -> Response {
    let status = StatusCode::from_u16(err.rest_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    rest_error(status, err.public_message())
}
