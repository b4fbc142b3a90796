//! HTTP interface: one module per resource, each contributing an `OpenApiRouter` whose
//! handlers carry `#[utoipa::path]`, so `/openapi.json` is generated from the routes
//! themselves. Every route but `/health` (and the document) sits behind the bearer token.

pub mod auth;
mod browser;
mod code;
mod code_interpreter;
mod desktop;
pub mod envd;
pub mod error;
pub mod extract;
mod files;
mod mcp_stdio;
mod shell;
mod sse;
mod system;
mod terminal;
mod web;

use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use service_kit::OPAQUE_BEARER;
use tokio_util::sync::CancellationToken;
use tool_api_contract::ErrorCode;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::browser::BrowserTools;
use crate::config::Settings;
use crate::desktop::Desktop;
use crate::error::ToolError;
use crate::interpreter::Interpreter;
use crate::kernel::Kernel;
use crate::mcp_stdio::StdioServers;
use crate::paths::Workspace;
use crate::sandbox_env::SandboxEnv;
use crate::shell::ShellManager;
use crate::storage_quota::StorageQuota;
use crate::web::WebTools;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub settings: Arc<Settings>,
    pub workspace: Workspace,
    pub shells: Arc<ShellManager>,
    pub web: Arc<WebTools>,
    /// The supervised desktop, when enabled.
    pub desktop: Option<Arc<Desktop>>,
    /// The browser tools, with the desktop.
    pub browser: Option<Arc<BrowserTools>>,
    pub mcp_stdio: Arc<StdioServers>,
    pub kernel: Arc<Kernel>,
    /// E2B's code contexts, each a kernel of its own.
    pub interpreter: Arc<Interpreter>,
    pub storage: Arc<StorageQuota>,
    /// The variables the sandbox was created with, for the E2B surfaces.
    pub sandbox_env: Arc<SandboxEnv>,
    pub token: auth::ExpectedToken,
    pub started: Instant,
    /// Cancelled on shutdown; long-lived streams end when it is.
    pub stopping: CancellationToken,
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Sandpiper tool-api", description = "The server inside every sandbox."),
    modifiers(&OPAQUE_BEARER),
    security(("bearer" = []))
)]
struct ApiDoc;

/// The OpenAPI document, as served at `/openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    split().2
}

/// The public routes, the protected routes and the document describing both.
fn split() -> (Router<AppState>, Router<AppState>, utoipa::openapi::OpenApi) {
    let (public, mut doc) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(system::public_router())
        .split_for_parts();
    let (protected, protected_doc) = OpenApiRouter::new()
        .merge(browser::router())
        .merge(code::router())
        .merge(code_interpreter::router())
        .merge(desktop::router())
        .merge(envd::router())
        .merge(files::router())
        .merge(mcp_stdio::router())
        .merge(shell::router())
        .merge(terminal::router())
        .merge(web::router())
        .merge(system::protected_router())
        .split_for_parts();
    doc.merge(protected_doc);
    (public, protected, doc)
}

pub fn router(state: AppState) -> Router {
    let (public, protected, _) = split();
    let body_limit = state.settings.limits.json_body_max_bytes;
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
        .fallback(|| async { ToolError::new(ErrorCode::NotFound, "no such route") })
        .method_not_allowed_fallback(|| async {
            ToolError::new(
                ErrorCode::MethodNotAllowed,
                "this route does not take that method",
            )
        })
        .layer(axum::extract::DefaultBodyLimit::max(body_limit))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(state)
}
