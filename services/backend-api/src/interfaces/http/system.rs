//! Liveness, readiness (the stores answer) and metrics.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(health))
        .routes(routes!(ready))
        .routes(routes!(metrics_text))
}

#[derive(Serialize, ToSchema)]
pub struct Health {
    pub status: &'static str,
    pub version: &'static str,
}

#[derive(Serialize, ToSchema)]
pub struct Readiness {
    /// `ready` or `unavailable`.
    pub status: &'static str,
    /// Each store and whether it answers (`ok` or what failed).
    pub checks: Vec<Check>,
}

#[derive(Serialize, ToSchema)]
pub struct Check {
    pub name: &'static str,
    pub status: String,
}

/// The process is up.
#[utoipa::path(get, path = "/health", tag = "system", security(()), responses((status = 200, body = Health)))]
async fn health() -> axum::Json<Health> {
    axum::Json(Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
    })
}

/// Every store answers: 200, else 503 with which does not.
#[utoipa::path(get, path = "/ready", tag = "system", security(()),
    responses((status = 200, body = Readiness), (status = 503, body = Readiness)))]
async fn ready(State(state): State<AppState>) -> (StatusCode, axum::Json<Readiness>) {
    let (database, cache) = tokio::join!(state.stores.database.ping(), state.stores.cache.ping());
    let checks = vec![
        Check {
            name: state.stores.database_name,
            status: database.map_or_else(|err| err.to_string(), |()| "ok".into()),
        },
        Check {
            name: state.stores.cache_name,
            status: cache.map_or_else(|err| err.to_string(), |()| "ok".into()),
        },
    ];
    let ready = checks.iter().all(|c| c.status == "ok");
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let body = Readiness {
        status: if ready { "ready" } else { "unavailable" },
        checks,
    };
    (status, axum::Json(body))
}

/// Prometheus text format.
#[utoipa::path(get, path = "/metrics", tag = "system", security(()),
    responses((status = 200, content_type = "text/plain", body = String)))]
async fn metrics_text() -> String {
    super::metrics::handle().render()
}
