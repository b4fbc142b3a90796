//! The port through which the manager runs sandboxes: a [`SandboxDriver`] creates, starts,
//! lists and removes them on some engine. [`docker`] implements it with bollard; a
//! Kubernetes driver would implement the same trait (one Pod per sandbox), which is why
//! nothing here names containers, images or Docker.

pub mod docker;

use futures::stream::BoxStream;
use sandbox_manager_contract::{NetworkMode, ResourceLimits, StorageKind};

use crate::record::{Endpoints, Secrets};

/// Everything a driver needs to start one sandbox.
#[derive(Debug, Clone)]
pub struct SandboxSpec {
    pub sandbox_id: String,
    /// Absent for warm-pool sandboxes, which get a session when they are claimed.
    pub session_id: Option<String>,
    pub owner: Option<String>,
    pub secrets: Secrets,
    pub limits: ResourceLimits,
    pub network: NetworkMode,
    pub storage: StorageKind,
}

/// A sandbox as the engine reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObservedSandbox {
    pub sandbox_id: String,
    /// Exited (or never started): it needs starting to be used. A paused container is
    /// not stopped.
    pub stopped: bool,
}

/// Something the engine noticed about one of our sandboxes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineEvent {
    /// Its main process ended (crash, kill, OOM of the init process).
    Died {
        sandbox_id: String,
        exit_code: Option<i64>,
    },
    /// The kernel's OOM killer killed a process in it.
    OutOfMemory { sandbox_id: String },
}

#[derive(Debug, thiserror::Error)]
pub enum DriverError {
    /// The engine does not answer (not running, socket missing, timed out).
    #[error("the container engine is not reachable: {0}")]
    EngineUnavailable(String),
    /// The configured image is not on the engine.
    #[error("the sandbox image {0} is not present; build it with sandbox-image/build.sh")]
    ImageMissing(String),
    /// The engine refused to create or start the sandbox.
    #[error("the engine could not start the sandbox: {0}")]
    StartFailed(String),
    /// Anything else the engine said.
    #[error("container engine error: {0}")]
    Engine(String),
}

pub type DriverResult<T> = Result<T, DriverError>;

#[async_trait::async_trait]
pub trait SandboxDriver: Send + Sync + 'static {
    /// Checks the engine answers and makes what sandboxes share (networks); idempotent.
    async fn prepare(&self) -> DriverResult<()>;

    /// The image reference sandboxes run.
    fn image(&self) -> &str;

    /// Creates and starts a sandbox; returns where its ports were published. On failure
    /// nothing of it is left behind.
    async fn start(&self, spec: &SandboxSpec) -> DriverResult<Endpoints>;

    /// Starts a stopped sandbox again; its ports may change.
    async fn restart(&self, sandbox_id: &str) -> DriverResult<Endpoints>;

    /// Stops and removes a sandbox; with `session_volume`, also the volume of that session.
    /// Succeeds when there was nothing to remove.
    async fn remove(&self, sandbox_id: &str, session_volume: Option<&str>) -> DriverResult<()>;

    /// Every sandbox of this manager the engine knows, running or not.
    async fn list(&self) -> DriverResult<Vec<ObservedSandbox>>;

    /// Sessions that have a volume on the engine.
    async fn list_volumes(&self) -> DriverResult<Vec<String>>;

    /// Removes a session's volume (idempotent).
    async fn remove_volume(&self, session_id: &str) -> DriverResult<()>;

    /// The last `tail` lines of the sandbox's output.
    async fn logs(&self, sandbox_id: &str, tail: u32) -> DriverResult<String>;

    /// Engine events about this manager's sandboxes, until the connection breaks.
    fn events(&self) -> BoxStream<'static, DriverResult<EngineEvent>>;
}
