//! Health and sandbox information.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct HealthResponse {
    /// `ok` while the server answers.
    pub status: String,
    pub version: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct InfoResponse {
    pub version: String,
    pub uptime_secs: u64,
    pub user: String,
    pub uid: u32,
    pub home: String,
    pub workspace: String,
    pub cpu: CpuInfo,
    pub memory: MemoryInfo,
    pub disk: DiskInfo,
    /// Shell sessions with a running command.
    pub running_commands: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CpuInfo {
    /// CPUs this process may run on.
    pub cores: u32,
    /// Load averages over 1, 5 and 15 minutes.
    pub load_average: [f64; 3],
    /// CPU time used by the sandbox's cgroup (or the host, outside a container), in µs.
    pub usage_usec: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MemoryInfo {
    /// Bytes in use by the sandbox's cgroup (or the host, outside a container).
    pub used_bytes: u64,
    /// The sandbox's memory limit, or the host's total memory when there is none.
    pub limit_bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DiskInfo {
    /// The filesystem holding the workspace.
    pub path: String,
    pub total_bytes: u64,
    pub used_bytes: u64,
    pub available_bytes: u64,
}
