//! Liveness, readiness (the stores answer) and metrics.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use crate::domain::ports::DiskState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(health))
        .routes(routes!(ready))
        .routes(routes!(metrics_text))
}

#[derive(Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `degraded` while the data directory's disk is full (writes answer `507`).
    pub status: &'static str,
    pub version: &'static str,
    /// The disk the embedded store's file lives on; absent when MongoDB and Redis keep
    /// everything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disk: Option<DiskHealth>,
}

#[derive(Serialize, ToSchema)]
pub struct DiskHealth {
    /// `ok`; `low` below `BACKEND_DATA_DIR_LOW_SPACE_MB` free; `full` once a write failed
    /// for want of space, until space is freed and the store opens again by itself.
    pub status: &'static str,
    /// Free space in MiB, when the disk answers.
    pub free_mb: Option<u64>,
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

/// The process is up, and how the data directory's disk stands.
#[utoipa::path(get, path = "/health", tag = "system", security(()), responses((status = 200, body = Health)))]
async fn health(State(state): State<AppState>) -> axum::Json<Health> {
    let disk = state.stores.disk.as_ref().map(|disk| {
        let reading = disk.reading();
        DiskHealth {
            status: match reading.state {
                DiskState::Ok => "ok",
                DiskState::Low => "low",
                DiskState::Full => "full",
            },
            free_mb: reading.free_bytes.map(|free| free / (1024 * 1024)),
        }
    });
    let full = disk.as_ref().is_some_and(|disk| disk.status == "full");
    axum::Json(Health {
        status: if full { "degraded" } else { "ok" },
        version: env!("CARGO_PKG_VERSION"),
        disk,
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
