//! E2B's envd protocol under `/e2b/envd`: the Connect-RPC services `process.Process` and
//! `filesystem.Filesystem` (JSON codec, see [`connect`]) and the REST routes `health`,
//! `init`, `envs` and `files`. backend-api's `/e2b/sandbox` proxy forwards E2B's SDKs
//! here with the sandbox's bearer token, and names the user the SDK asked for in the
//! `E2b-User` header. The work is done in [`crate::envd`].

pub mod connect;
mod rest;

use std::sync::Arc;

use axum::routing::{get, post};
use axum::Extension;
use utoipa_axum::router::OpenApiRouter;

use super::AppState;
use crate::envd::Envd;

pub fn router() -> OpenApiRouter<AppState> {
    let home = std::env::var_os("HOME").map_or_else(|| "/".into(), Into::into);
    let envd = Arc::new(Envd::new(home));
    OpenApiRouter::new()
        .route("/e2b/envd/health", get(rest::health))
        .route("/e2b/envd/init", post(rest::init))
        .route("/e2b/envd/envs", get(rest::envs))
        .layer(Extension(envd))
}
