//! The HTTP interface: one module per resource, each an `OpenApiRouter` whose handlers
//! carry `#[utoipa::path]`, so `/openapi.json` is generated from the routes themselves
//! (browsable at `/docs`). Everything the application offers lives under `/api/v1`.
//!
//! Every request gets an `x-request-id` (kept when the client sent one), a tracing span
//! carrying it, a metrics sample, CORS for the configured front-end origins and a body
//! limit; every response the browser-hardening headers (`hardening`).

mod api_keys;
mod auth;
mod automations;
mod docs;
mod e2b;
mod error;
mod events;
mod extract;
mod files;
pub mod forwarded;
mod frontend;
mod hardening;
mod images;
mod invites;
mod jobs;
mod live;
mod mcp;
mod mcp_admin;
mod memory;
pub mod metrics;
mod models;
mod origin;
mod refresh_cookie;
mod sessions;
mod sharing;
mod system;
mod terminal;
mod toolbox;
mod users;
mod views;
mod vnc;

pub use e2b::relay_client as e2b_relay_client;
pub use images::image_url;

use std::sync::Arc;

use axum::http::{header, HeaderName, HeaderValue, Method, Request};
use axum::Router;
use service_kit::JWT_BEARER;
use tokio_util::sync::CancellationToken;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::application::agent::AgentService;
use crate::application::api_keys::ApiKeys;
use crate::application::auth::AuthService;
use crate::application::automations::AutomationService;
use crate::application::e2b::E2bService;
use crate::application::events::EventService;
use crate::application::files::FileService;
use crate::application::holds::Holds;
use crate::application::invites::Invites;
use crate::application::jobs::JobService;
use crate::application::live::LiveService;
use crate::application::mcp_servers::McpServerAdmin;
use crate::application::memory::MemoryService;
use crate::application::sessions::SessionService;
use crate::application::toolbox::ToolboxService;
use crate::application::AppError;
use crate::domain::ports::{DataDiskStatus, KeyValueStore, McpServers, UserRepository};

use api_keys::ApiKeyBearer;
pub use error::ErrorBody;
use forwarded::TrustedProxies;

/// The stores `/ready` checks, by name, and the disk `/health` reports.
pub struct Stores {
    pub database: Arc<dyn UserRepository>,
    pub database_name: &'static str,
    pub cache: Arc<dyn KeyValueStore>,
    pub cache_name: &'static str,
    pub disk: Option<Arc<dyn DataDiskStatus>>,
}

#[derive(Clone)]
pub struct AppState {
    pub auth: Arc<AuthService>,
    pub invites: Arc<Invites>,
    pub api_keys: Arc<ApiKeys>,
    pub sessions: Arc<SessionService>,
    pub agent: Arc<AgentService>,
    pub events: Arc<EventService>,
    pub files: Arc<FileService>,
    pub jobs: Arc<JobService>,
    pub automations: Arc<AutomationService>,
    /// Sandboxes rented through the E2B-compatible API.
    pub e2b: Arc<E2bService>,
    /// The data plane's relay to the sandboxes' tool-apis (no overall timeout: streams
    /// last as long as the client keeps them).
    pub relay_http: reqwest::Client,
    /// The desktop and terminal relays.
    pub live: Arc<LiveService>,
    /// Each person's open streams and watches (the relays' are in `live`).
    pub holds: Arc<Holds>,
    pub stores: Arc<Stores>,
    pub mcp: Arc<dyn McpServers>,
    pub mcp_admin: Arc<McpServerAdmin>,
    /// Each person's memory across chats.
    pub memory: Arc<MemoryService>,
    /// Each person's tool box, and publishing kept tools.
    pub toolbox: Arc<ToolboxService>,
    /// Cancelled on shutdown; SSE streams end when it is.
    pub stopping: CancellationToken,
    pub sse_heartbeat_secs: u64,
    /// The proxies whose `X-Forwarded-For` and `X-Forwarded-Host` are believed.
    pub trusted_proxies: TrustedProxies,
    /// The front end's origins, which may open the desktop and terminal relays and use
    /// the refresh cookie.
    pub allowed_origins: Arc<[String]>,
    /// The refresh cookie is `Secure` whatever the request says (else only for https).
    pub secure_cookies: bool,
}

/// What the router needs besides the state.
pub struct HttpOptions {
    pub cors_origins: Vec<String>,
    pub body_limit_bytes: usize,
    /// The built front end, served for every path outside the API.
    pub static_dir: Option<std::path::PathBuf>,
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Sandpiper API",
        description = "Accounts, sessions and the agent's event log. Sign in with \
            `/api/v1/auth/login`, then send `Authorization: Bearer <access_token>`; or make a \
            personal API key (`POST /api/v1/api-keys`) and send `Authorization: Bearer sp_…`."
    ),
    modifiers(&JWT_BEARER, &ApiKeyBearer),
    security(("bearer" = []), ("api_key" = []))
)]
struct ApiDoc;

fn split() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(system::router())
        .merge(auth::router())
        .merge(users::router())
        .merge(models::router())
        .merge(sessions::router())
        .merge(sharing::router())
        .merge(events::router())
        .merge(files::router())
        .merge(vnc::router())
        .merge(terminal::router())
        .merge(images::router())
        .merge(mcp::router())
        .merge(mcp_admin::router())
        .merge(invites::router())
        .merge(api_keys::router())
        .merge(jobs::router())
        .merge(memory::router())
        .merge(toolbox::router())
        .merge(automations::router())
        .split_for_parts()
}

/// The OpenAPI document, as served at `/openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    split().1
}

pub fn router(state: AppState, options: &HttpOptions) -> Router {
    // Installed before the first request records anything.
    metrics::handle();
    let (routes, doc) = split();
    let x_request_id = HeaderName::from_static("x-request-id");
    let trace = TraceLayer::new_for_http().make_span_with(|request: &Request<_>| {
        let id = request
            .headers()
            .get("x-request-id")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("-");
        tracing::info_span!("request", method = %request.method(), uri = %request.uri().path(), request_id = %id)
    });
    let app = Router::new()
        .merge(routes)
        .merge(docs::router())
        .merge(e2b::router())
        .route(
            "/openapi.json",
            axum::routing::get(move || std::future::ready(axum::Json(doc.clone()))),
        );
    let app = match &options.static_dir {
        Some(dir) => frontend::serve(app, dir),
        None => app.fallback(|| async { AppError::NoRoute }),
    };
    let app = app
        .method_not_allowed_fallback(|| async { AppError::MethodNotAllowed })
        .layer(axum::middleware::from_fn(metrics::record))
        .layer(axum::extract::DefaultBodyLimit::max(options.body_limit_bytes))
        .layer(cors(&options.cors_origins))
        .layer(PropagateRequestIdLayer::new(x_request_id.clone()))
        .layer(trace)
        .layer(SetRequestIdLayer::new(x_request_id, MakeRequestUuid));
    hardening::harden(app).with_state(state)
}

fn cors(origins: &[String]) -> CorsLayer {
    let origins: Vec<HeaderValue> = origins
        .iter()
        .filter_map(|o| HeaderValue::from_str(o).ok())
        .collect();
    CorsLayer::new()
        .allow_origin(AllowOrigin::list(origins))
        .allow_methods([
            Method::GET,
            Method::POST,
            Method::PUT,
            Method::PATCH,
            Method::DELETE,
        ])
        .allow_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::RANGE,
            HeaderName::from_static("last-event-id"),
        ])
        .expose_headers([
            HeaderName::from_static("x-request-id"),
            header::CONTENT_DISPOSITION,
            header::CONTENT_RANGE,
        ])
        .allow_credentials(true)
        .max_age(std::time::Duration::from_secs(600))
}

#[cfg(test)]
mod tests {
    /// The front end's types and the API clients are generated from the committed
    /// document, so it must be what the code serves.
    #[test]
    fn the_committed_openapi_document_is_current() {
        let committed = include_str!("../../../../../docs/openapi.json");
        let served = super::openapi().to_pretty_json().unwrap();
        assert!(
            committed.trim_end() == served.trim_end(),
            "docs/openapi.json is stale: run scripts/api-types.sh"
        );
    }
}
