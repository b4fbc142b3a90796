//! HTTP interface: one module per resource, each an `OpenApiRouter` whose handlers carry
//! `#[utoipa::path]`, so `/openapi.json` is generated from the routes themselves. Every
//! route but `/health` (and the document) needs the service token; the router itself is
//! assembled by `service_kit::ServiceRoutes`.

mod error;
mod events;
mod sandboxes;
mod system;

use std::sync::Arc;

use axum::Router;
use service_kit::{ExpectedToken, ServiceRoutes};
use tokio_util::sync::CancellationToken;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::manager::Manager;

#[derive(Clone)]
pub struct AppState {
    pub manager: Arc<Manager>,
    pub token: ExpectedToken,
    /// Cancelled on shutdown; event streams end when it is.
    pub stopping: CancellationToken,
}

#[derive(OpenApi)]
#[openapi(info(
    title = "Sandpiper sandbox-manager",
    description = "Creates, pools, watches and removes the per-session sandboxes."
))]
struct ApiDoc;

fn routes() -> ServiceRoutes<AppState> {
    ServiceRoutes::split(
        ApiDoc::openapi(),
        OpenApiRouter::new().merge(system::router()),
        OpenApiRouter::new()
            .merge(sandboxes::router())
            .merge(events::router()),
    )
}

pub fn router(state: AppState) -> Router {
    routes()
        .into_router(state.token.clone(), 64 * 1024)
        .with_state(state)
}
