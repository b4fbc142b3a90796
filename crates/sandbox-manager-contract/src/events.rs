//! Lifecycle events: what happened to a sandbox, streamed to the backend (SSE) so it can
//! tell the person what their sandbox is doing.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LifecycleEvent {
    /// Increases by one per event since the manager started; the SSE `id:`.
    pub seq: u64,
    pub kind: LifecycleKind,
    pub sandbox_id: String,
    pub session_id: String,
    pub owner: String,
    pub at: DateTime<Utc>,
    /// A sentence for people, e.g. why it became unhealthy.
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LifecycleKind {
    /// A container is being started for the session (not sent for a warm-pool claim).
    Creating,
    /// The sandbox answers: tool-api, desktop, VNC and browser are up.
    Ready,
    /// The sandbox stopped answering its health check.
    Unhealthy,
    /// The container stopped unexpectedly and was started again; its ports may have changed.
    Restarted,
    /// The kernel killed a process in the sandbox for exceeding its memory limit.
    OomKilled,
    /// The idle time-out or the maximum lifetime ended it.
    Expired,
    /// It was deleted (its container and volumes are gone).
    Removed,
    /// Its container vanished outside the manager's control.
    Lost,
}
