//! The port through which the manager runs sandboxes: a [`SandboxDriver`] creates, starts,
//! lists and removes them on some engine. [`docker`] implements it with bollard,
//! [`kubernetes`] with kube (one Pod per sandbox), which is why nothing here names
//! containers, Pods or Docker.

pub mod docker;
pub mod kubernetes;

use futures::stream::BoxStream;
use sandbox_manager_contract::{NetworkMode, ResourceLimits};

use crate::access::{Endpoints, Secrets};
use crate::config::SandboxSettings;

// What marks a sandbox as ours on any engine (labels; on Kubernetes the session and owner
// are annotations, as label values cannot hold every id or name).
const LABEL_MANAGED: &str = "org.sandpiper.managed-by";
const LABEL_NAMESPACE: &str = "org.sandpiper.manager";
const LABEL_SANDBOX: &str = "org.sandpiper.sandbox";
const LABEL_SESSION: &str = "org.sandpiper.session";
/// On a home volume: the key that names it ([`SandboxSpec::home_volume`]). Volumes made
/// before it existed carry only [`LABEL_SESSION`], which was their key.
const LABEL_HOME: &str = "org.sandpiper.home";
const LABEL_OWNER: &str = "org.sandpiper.owner";
/// `internet` or `offline` ([`network_label`]): what NetworkPolicies select Pods by, and
/// which firewall a restarted Docker sandbox gets again.
const LABEL_NETWORK: &str = "org.sandpiper.network";
const MANAGED_BY: &str = "sandpiper-sandbox-manager";

/// The value of [`LABEL_NETWORK`] for a mode.
fn network_label(mode: NetworkMode) -> &'static str {
    match mode {
        NetworkMode::Internet => "internet",
        NetworkMode::Offline => "offline",
    }
}

// What the sandbox image serves and where its user's home is (`sandbox-image/`).
const TOOL_API_PORT: u16 = 8080;
const HOME: &str = "/home/sandbox";
/// The sandbox image's user and group.
const SANDBOX_UID: i64 = 1000;

/// The tool-api settings in a sandbox's environment besides its token's digest: that
/// nothing in it starts before the manager has loaded its network rules and says so
/// (`Manager::wait_ready`), whether Chromium may use its own sandbox, for a home volume, which no engine sizes on every
/// filesystem, the storage quota the tool-api keeps itself (a tmpfs home is sized by its
/// mount), and whether the code interpreter's kernel starts with it.
fn tool_api_env(settings: &SandboxSettings, spec: &SandboxSpec) -> Vec<(&'static str, String)> {
    let mut env = vec![("TOOL_API_HOLD_UNTIL_NETWORK", "true".to_owned())];
    if !settings.browser_sandbox {
        env.push(("TOOL_API_DESKTOP__BROWSER_SANDBOX", "false".to_owned()));
    }
    if settings.desktop_always_on {
        env.push(("TOOL_API_DESKTOP__START", "always".to_owned()));
    }
    if spec.home_volume.is_some() {
        let bytes = settings.home_size_mb.saturating_mul(1 << 20);
        env.push(("TOOL_API_LIMITS__STORAGE_QUOTA_BYTES", bytes.to_string()));
    }
    if spec.warm_kernel {
        env.push(("TOOL_API_KERNEL__PREWARM", "interpreter".to_owned()));
    }
    env
}

/// The name of a sandbox's container or Pod (and of its Kubernetes Secret).
fn sandbox_name(namespace: &str, sandbox_id: &str) -> String {
    format!("sandpiper-{namespace}-{sandbox_id}")
}

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
    /// The key of the volume that holds its home (the session's id, or the id of the
    /// pool sandbox that made it); `None`: its home is in memory.
    pub home_volume: Option<String>,
    /// Its code interpreter's kernel starts with it.
    pub warm_kernel: bool,
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
    /// The configured image is not on the engine (or, on Kubernetes, cannot be pulled).
    #[error(
        "the sandbox image {0} is not available; build it with ./build.sh (on Kubernetes, \
         push it to a registry the nodes pull from)"
    )]
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

    /// Creates and starts a sandbox; returns where it is reached. A failure may leave
    /// parts of it behind: callers use [`SandboxDriver::start`].
    async fn create(&self, spec: &SandboxSpec) -> DriverResult<Endpoints>;

    /// [`SandboxDriver::create`], removing whatever it made when it fails (the home
    /// volume is its owner's, and stays).
    async fn start(&self, spec: &SandboxSpec) -> DriverResult<Endpoints> {
        let started = self.create(spec).await;
        if started.is_err() {
            if let Err(err) = self.remove(&spec.sandbox_id, None).await {
                tracing::warn!(sandbox = %spec.sandbox_id, %err, "cleaning up a failed start");
            }
        }
        started
    }

    /// Starts a stopped sandbox again; its ports may change.
    async fn restart(&self, sandbox_id: &str) -> DriverResult<Endpoints>;

    /// Stops and removes a sandbox; with `home_volume`, also the volume of that key.
    /// Succeeds when there was nothing to remove.
    async fn remove(&self, sandbox_id: &str, home_volume: Option<&str>) -> DriverResult<()>;

    /// Every sandbox of this manager the engine knows, running or not.
    async fn list(&self) -> DriverResult<Vec<ObservedSandbox>>;

    /// The keys of the home volumes on the engine.
    async fn list_volumes(&self) -> DriverResult<Vec<String>>;

    /// Removes the home volume of a key (idempotent).
    async fn remove_volume(&self, key: &str) -> DriverResult<()>;

    /// The last `tail` lines of the sandbox's output.
    async fn logs(&self, sandbox_id: &str, tail: u32) -> DriverResult<String>;

    /// Engine events about this manager's sandboxes, until the connection breaks.
    fn events(&self) -> BoxStream<'static, DriverResult<EngineEvent>>;
}
