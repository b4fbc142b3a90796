//! `GET /health`: whether the manager runs, the engine answers, how full the pool is, and
//! how much of the memory budget the sandboxes use.

use axum::extract::State;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use crate::manager::{MemoryStatus, PoolStatus};

#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `degraded` while the container engine does not answer.
    pub status: &'static str,
    pub engine: bool,
    /// The light pool: sandboxes for chats, with the default storage.
    pub pool: PoolStatus,
    /// The code pool: sandboxes with a home volume and their kernel started, for E2B's
    /// code interpreter.
    pub code_pool: PoolStatus,
    pub memory: MemoryStatus,
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(health))
}

/// Liveness and readiness (no token needed).
#[utoipa::path(get, path = "/health", security(()), responses((status = 200, body = Health)))]
async fn health(State(state): State<AppState>) -> Json<Health> {
    let engine = state.manager.engine_up().await;
    let (pool, code_pool) = state.manager.pool_status();
    Json(Health {
        status: if engine { "ok" } else { "degraded" },
        engine,
        pool,
        code_pool,
        memory: state.manager.memory_status().await,
    })
}
