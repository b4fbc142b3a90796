//! HTTP interface: one module per resource, each an `OpenApiRouter` whose handlers carry
//! `#[utoipa::path]`, so `/openapi.json` is generated from the routes themselves. Every
//! route but `/health` (and the document) needs the service token.

mod auth;
mod error;
mod events;
mod extract;
mod sandboxes;
mod system;

use std::sync::Arc;

use axum::Router;
use sandbox_manager_contract::ErrorCode;
use service_kit::OPAQUE_BEARER;
use tokio_util::sync::CancellationToken;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::error::ManagerError;
use crate::manager::Manager;

pub use auth::ExpectedToken;

#[derive(Clone)]
pub struct AppState {
    pub manager: Arc<Manager>,
    pub token: ExpectedToken,
    /// Cancelled on shutdown; event streams end when it is.
    pub stopping: CancellationToken,
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Sandpiper sandbox-manager",
        description = "Creates, pools, watches and removes the per-session sandboxes."
    ),
    modifiers(&OPAQUE_BEARER),
    security(("bearer" = []))
)]
struct ApiDoc;

/// The OpenAPI document, as served at `/openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    split().2
}

fn split() -> (Router<AppState>, Router<AppState>, utoipa::openapi::OpenApi) {
    let (public, mut doc) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(system::router())
        .split_for_parts();
    let (protected, protected_doc) = OpenApiRouter::new()
        .merge(sandboxes::router())
        .merge(events::router())
        .split_for_parts();
    doc.merge(protected_doc);
    (public, protected, doc)
}

pub fn router(state: AppState) -> Router {
    let (public, protected, _) = split();
    let protected = protected.layer(axum::middleware::from_fn_with_state(
        state.token.clone(),
        auth::require_token,
    ));
    Router::new()
        .merge(public)
        .route(
            "/openapi.json",
            axum::routing::get(|| async { axum::Json(openapi()) }),
        )
        .merge(protected)
        .fallback(|| async { ManagerError::new(ErrorCode::NotFound, "no such route") })
        .method_not_allowed_fallback(|| async {
            ManagerError::new(
                ErrorCode::MethodNotAllowed,
                "this route does not take that method",
            )
        })
        .layer(axum::extract::DefaultBodyLimit::max(64 * 1024))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(state)
}
