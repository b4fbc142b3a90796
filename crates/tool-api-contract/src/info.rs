//! Health and sandbox information.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct HealthResponse {
    /// Ready for tools: `ready` once the tool-api serves. A desktop that starts on demand
    /// does not count (its state is in `desktop`); one configured to start with the
    /// sandbox (`start = always`) does, and the status is `starting` until it answers;
    /// so does a kernel configured to start with the server (`kernel.prewarm`), until it
    /// has started.
    pub status: Readiness,
    pub version: String,
    /// The desktop's state and whether each part answers; absent when the desktop is
    /// disabled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desktop: Option<DesktopReadiness>,
    /// The memory the sandbox's cgroup uses now, without the file cache the kernel may
    /// reclaim (as `docker stats` counts it), for the manager's memory budget; absent
    /// where no memory controller can be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_used_bytes: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Readiness {
    Starting,
    Ready,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DesktopReadiness {
    pub state: DesktopState,
    /// The X server accepts clients.
    pub display: bool,
    /// The VNC server sends its protocol banner.
    pub vnc: bool,
    /// The browser's DevTools endpoint answers.
    pub browser: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DesktopState {
    /// Not running, or being stopped (its `processes` may still be ending): it starts on
    /// the next browser call, VNC connection or `POST /v1/desktop/start`, once a stop is
    /// over.
    Stopped,
    /// Started, not every part answers yet.
    Starting,
    /// X, VNC and the browser's DevTools answer.
    Ready,
}

/// The desktop's processes as the supervisor sees them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DesktopInfo {
    /// e.g. `1280x800x24`.
    pub screen: String,
    /// X display, e.g. `:99`.
    pub display: String,
    pub readiness: DesktopReadiness,
    pub processes: Vec<ProcessInfo>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProcessState {
    /// Waiting for what it depends on (the X server) or for its first start.
    Waiting,
    Running,
    /// Exited; starts again after a back-off delay.
    Restarting,
    /// Stopped for shutdown.
    Stopped,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ProcessInfo {
    /// `xvfb`, `window_manager`, `vnc` or `browser`.
    pub name: String,
    pub state: ProcessState,
    pub pid: Option<u32>,
    /// How often it was started again after exiting.
    pub restarts: u32,
    /// How the last run ended, e.g. `exit status 1` or `signal 9`.
    pub last_exit: Option<String>,
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
    /// Absent when the workspace has no storage quota.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage: Option<StorageUsage>,
    /// Shell sessions with a running command.
    pub running_commands: u32,
    /// Absent when the desktop is disabled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desktop: Option<DesktopInfo>,
}

/// The workspace against its storage quota, as last measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct StorageUsage {
    /// Bytes the workspace's files take on disk.
    pub used_bytes: u64,
    pub quota_bytes: u64,
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
