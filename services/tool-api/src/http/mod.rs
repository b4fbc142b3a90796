//! HTTP interface: one module per resource, each contributing an `OpenApiRouter` whose
//! handlers carry `#[utoipa::path]`, so `/openapi.json` is generated from the routes
//! themselves. Every route but `/health` (and the document) sits behind the bearer token;
//! the router itself is assembled by `service_kit::ServiceRoutes`.

mod browser;
mod code;
mod code_interpreter;
mod desktop;
pub mod envd;
mod error;
mod files;
mod mcp_stdio;
mod network;
mod shell;
mod sse;
mod system;
mod terminal;
mod web;

use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use service_kit::{ExpectedToken, ServiceRoutes};
use tokio_util::sync::CancellationToken;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::browser::BrowserTools;
use crate::config::Settings;
use crate::desktop::Desktop;
use crate::interpreter::Interpreter;
use crate::kernel::Kernel;
use crate::mcp_stdio::StdioServers;
use crate::network_gate::NetworkGate;
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
    /// Closed until the sandbox's network rules are in place; routes wait behind it.
    pub network_gate: Arc<NetworkGate>,
    pub token: ExpectedToken,
    pub started: Instant,
    /// Cancelled on shutdown; long-lived streams end when it is.
    pub stopping: CancellationToken,
}

#[derive(OpenApi)]
#[openapi(info(
    title = "Sandpiper tool-api",
    description = "The server inside every sandbox."
))]
struct ApiDoc;

/// The public routes, the protected routes and the document describing both. Every
/// protected route but the one that opens it waits behind the network gate.
fn routes(network_gate: Arc<NetworkGate>) -> ServiceRoutes<AppState> {
    let held = OpenApiRouter::new()
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
        .route_layer(axum::middleware::from_fn_with_state(network_gate, network::held));
    let protected = held.merge(network::router());
    ServiceRoutes::split(
        ApiDoc::openapi(),
        OpenApiRouter::new().merge(system::public_router()),
        protected,
    )
}

pub fn router(state: AppState) -> Router {
    let body_limit = state.settings.limits.json_body_max_bytes;
    routes(state.network_gate.clone())
        .into_router(state.token.clone(), body_limit)
        .with_state(state)
}
