//! Sandboxes: what the backend asks for and what it gets back.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// `POST /v1/sandboxes`: the sandbox of a session, created unless it already exists.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateSandbox {
    /// The chat session the sandbox belongs to; one sandbox per session.
    pub session_id: String,
    /// The user who owns the session; quotas count per owner.
    pub owner: String,
    /// Default: the manager's configured mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<NetworkMode>,
    /// Default: the manager's configured storage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage: Option<StorageKind>,
    /// Overrides of the default limits, each within the manager's maximum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<LimitsRequest>,
    /// The idle time-out does not end it: its caller keeps its own end (E2B's timeout)
    /// and deletes or stops it then. The maximum lifetime still ends it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keep_while_idle: bool,
    /// Its code interpreter's kernel (E2B's default context) starts with it, so the
    /// first cell does not wait ≈1 s for it; the sandbox then holds ≈80 MiB while idle. With volume
    /// storage and the default network and limits, it comes from the manager's code pool
    /// when that has one ready.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub warm_kernel: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NetworkMode {
    /// Outbound internet through the engine's NAT.
    Internet,
    /// No route out: a bridge without masquerading. The published ports still work.
    Offline,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StorageKind {
    /// Home and workspace in memory: gone with the container.
    Tmpfs,
    /// Home and workspace on a volume of the session's: survives a restart or a
    /// re-created sandbox of the same session, removed by delete.
    Volume,
}

/// Requested limits; a missing field takes the default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LimitsRequest {
    pub memory_mb: Option<u64>,
    pub cpus: Option<f64>,
    pub pids: Option<u32>,
}

/// The limits a sandbox runs with.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ResourceLimits {
    /// Memory including the tmpfs contents, MiB.
    pub memory_mb: u64,
    pub cpus: f64,
    pub pids: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SandboxState {
    /// Its container is being created and started.
    Creating,
    /// It answers.
    Ready,
    /// It stopped answering its health check (it may recover).
    Unhealthy,
    /// Ended by the idle time-out or maximum lifetime; its volume (if any) is kept.
    Expired,
    /// Its container vanished outside the manager's control.
    Lost,
    /// It is being deleted.
    Removing,
}

impl SandboxState {
    /// Whether a container is (or is about to be) running for it; only these count
    /// towards quotas.
    pub fn is_live(self) -> bool {
        matches!(self, Self::Creating | Self::Ready | Self::Unhealthy)
    }
}

/// How to reach the sandbox's tool-api.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ToolApiAccess {
    /// e.g. `http://127.0.0.1:49153`.
    pub url: String,
    /// The sandbox's own bearer token.
    pub token: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Sandbox {
    pub id: String,
    pub session_id: String,
    pub owner: String,
    pub state: SandboxState,
    pub created_at: DateTime<Utc>,
    pub last_used_at: DateTime<Utc>,
    /// When the idle time-out or the maximum lifetime will end it, whichever is first.
    pub expires_at: DateTime<Utc>,
    /// Absent until the container is running.
    pub tool_api: Option<ToolApiAccess>,
    pub limits: ResourceLimits,
    pub network: NetworkMode,
    pub storage: StorageKind,
    /// The image reference it runs.
    pub image: String,
    /// How often the manager restarted it after an unexpected stop.
    pub restarts: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SandboxList {
    pub sandboxes: Vec<Sandbox>,
}

/// `GET /v1/sandboxes` filters; all optional, combined with AND.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    pub owner: Option<String>,
    pub session_id: Option<String>,
    pub state: Option<SandboxState>,
}

/// `GET /v1/sandboxes/{id}/logs`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct LogsQuery {
    /// The last N lines (default 200, at most 10 000).
    pub tail: Option<u32>,
}
