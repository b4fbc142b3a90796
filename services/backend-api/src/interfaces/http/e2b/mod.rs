//! E2B's API, as its official SDKs speak it, so programs written for E2B run against
//! Sandpiper unchanged (`E2B_API_URL=<app>/e2b`, `E2B_SANDBOX_URL=<app>/e2b/sandbox`, a
//! `sandboxes` API key as `E2B_API_KEY`). Not part of Sandpiper's own OpenAPI document:
//! E2B's is the reference.
//!
//! # Layout
//! - `caller.rs` — the `X-API-Key` extractor: a `sandboxes` key's owner.
//! - `sandboxes.rs` — the control plane (create, get, list, kill, timeout, pause,
//!   connect, metrics).
//! - `views.rs` — its answers in E2B's field names.
//! - `data_plane.rs` — every in-sandbox request relayed to the sandbox's tool-api.
//! - `error.rs` — errors in E2B's `{code, message}` shape.

mod caller;
mod data_plane;
mod error;
mod sandboxes;
mod views;

use axum::routing::{any, get, post};
use axum::Router;

use super::AppState;
pub use data_plane::client as relay_client;
use error::E2bError;

pub fn router() -> Router<AppState> {
    let data_plane = format!("{}/{{*rest}}", data_plane::MOUNT);
    Router::new()
        .route("/e2b/sandboxes", post(sandboxes::create).get(sandboxes::list))
        .route("/e2b/v2/sandboxes", post(sandboxes::create).get(sandboxes::list))
        .route("/e2b/sandboxes/{id}", get(sandboxes::get).delete(sandboxes::kill))
        .route("/e2b/sandboxes/{id}/timeout", post(sandboxes::set_timeout))
        .route("/e2b/sandboxes/{id}/connect", post(sandboxes::connect))
        .route("/e2b/v2/sandboxes/{id}/connect", post(sandboxes::connect))
        .route("/e2b/sandboxes/{id}/pause", post(sandboxes::pause))
        .route("/e2b/sandboxes/{id}/metrics", get(sandboxes::metrics))
        // What SDKs before `connect` called to resume a paused sandbox.
        .route("/e2b/sandboxes/{id}/resume", post(sandboxes::connect))
        .route(data_plane::MOUNT, any(data_plane::relay))
        // The SDKs join their signed file links' `/files` onto E2B_SANDBOX_URL as an
        // absolute path, so those links arrive at the root.
        .route(
            data_plane::SIGNED_FILES,
            get(data_plane::relay).post(data_plane::relay),
        )
        .route(&data_plane, any(data_plane::relay))
        .route("/e2b", any(no_route))
        .route("/e2b/{*rest}", any(no_route))
}

async fn no_route() -> E2bError {
    E2bError::Unsupported(
        "this route of E2B's API is not served here; see the README's E2B section for what is",
    )
}
