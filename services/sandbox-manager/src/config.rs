//! Configuration: built-in defaults, then an optional TOML file (`SANDBOX_MANAGER_CONFIG`),
//! then environment variables `SANDBOX_MANAGER_<FIELD>` (nested with `__`, e.g.
//! `SANDBOX_MANAGER_POOL__SIZE=2`), plus the conventional names below.
//!
//! | variable | meaning |
//! |---|---|
//! | `SANDBOX_MANAGER_TOKEN` | service token every route but `/health` requires (≥ 16 chars) |
//! | `SANDBOX_MANAGER_INSECURE_NO_AUTH=true` | development only: serve without a token |
//! | `SANDBOX_IMAGE` | the sandbox image (default `sandpiper-sandbox:latest`) |
//! | `SANDBOX_MANAGER_SANDBOX__ADDRESS_MODE` | `published` (host ports, default) or `network` (by container name) |
//! | `SANDBOX_MANAGER_DRIVER` | `docker` (default) or `kubernetes` (one Pod per sandbox) |
//! | `SANDBOX_MANAGER_KUBERNETES__*` | the Kubernetes driver's settings ([`KubernetesSettings`]) |

use std::path::PathBuf;

use sandbox_manager_contract::{NetworkMode, ResourceLimits, StorageKind};
use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct Settings {
    /// Listen address (default `127.0.0.1:8090`: only backend-api should reach it).
    pub host: String,
    pub port: u16,
    pub token: Option<String>,
    pub insecure_no_auth: bool,
    /// Where the sandbox records are kept (a `redb` file), so a restart knows them.
    pub data_dir: PathBuf,
    /// Names this manager's containers, volumes and records apart from any other manager
    /// on the same engine (`org.sandpiper.manager` label). `[a-z0-9-]`, at most 32.
    pub namespace: String,
    /// Which engine runs the sandboxes.
    #[serde(default)]
    pub driver: DriverKind,
    #[serde(default)]
    pub sandbox: SandboxSettings,
    #[serde(default)]
    pub kubernetes: KubernetesSettings,
    #[serde(default)]
    pub pool: PoolSettings,
    #[serde(default)]
    pub lifetime: LifetimeSettings,
    #[serde(default)]
    pub quota: QuotaSettings,
}

/// The engine sandboxes run on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DriverKind {
    /// One container per sandbox on the local Docker engine.
    #[default]
    Docker,
    /// One Pod per sandbox on a Kubernetes cluster, reached at the Pod's IP.
    Kubernetes,
}

/// The Kubernetes driver's settings; the `sandbox` ones (image, limits, sizes, timeouts,
/// browser sandbox) apply as well. The address mode and the Docker network names do not:
/// a Pod is reached at its IP, and NetworkPolicies (`deploy/kubernetes/`) do what the
/// Docker sandboxes' own firewall does, keyed on the Pod's `org.sandpiper.network` label.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct KubernetesSettings {
    /// A kubeconfig file; without it the usual places are tried (the Pod's service account
    /// in a cluster, then `KUBECONFIG` and `~/.kube/config`).
    pub kubeconfig: Option<PathBuf>,
    /// The Kubernetes namespace sandboxes run in; by default the configuration's own.
    pub namespace: Option<String>,
    /// A RuntimeClass for sandbox Pods, e.g. `gvisor` or `kata`.
    pub runtime_class: Option<String>,
    /// A seccomp profile installed on every node (path below the kubelet's seccomp
    /// directory), needed for Chromium's own sandbox; `sandbox-image/seccomp-chromium.json`
    /// is the one to install. Without it Pods get the runtime's default profile, and
    /// `sandbox.browser_sandbox` must be off.
    pub seccomp_profile: Option<String>,
    /// The StorageClass of session volumes; the cluster's default without it.
    pub storage_class: Option<String>,
    /// `IfNotPresent` (default), `Always` or `Never`.
    pub image_pull_policy: Option<String>,
    /// How long a Pod may take to run, seconds: scheduling, a new claim and the first
    /// pull of the image on a node come before the sandbox's own start
    /// (`sandbox.ready_timeout_secs`, which follows).
    pub start_timeout_secs: u64,
}

impl Default for KubernetesSettings {
    fn default() -> Self {
        Self {
            kubeconfig: None,
            namespace: None,
            runtime_class: None,
            seccomp_profile: None,
            storage_class: None,
            image_pull_policy: None,
            start_timeout_secs: 300,
        }
    }
}

/// How backend-api (and the manager's own health checks) reach a sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AddressMode {
    /// Ports published on `publish_host` and handed out as `advertise_host:<port>`: for
    /// services running on the engine's host.
    Published,
    /// Nothing published: sandboxes join `internet_network` / `offline_network`, which
    /// whoever deploys makes and attaches backend-api and the manager to, and are reached
    /// by container name. For services running in containers themselves (compose).
    Network,
    /// Nothing published: sandboxes are reached at their own address on the bridge they
    /// join, which the manager makes as with `published`. For services on the engine's own
    /// Linux host, which routes to its bridges (rootless Docker's and Docker Desktop's
    /// hosts do not); each request then skips Docker's userland proxy, and no proxy
    /// process runs per sandbox.
    Bridge,
}

/// How each sandbox is made.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct SandboxSettings {
    pub image: String,
    pub address_mode: AddressMode,
    /// Host address the ports are published on; keep it on loopback.
    pub publish_host: String,
    /// Host name put into the URLs handed out (the address backend-api reaches the
    /// published ports at).
    pub advertise_host: String,
    pub network: NetworkMode,
    pub storage: StorageKind,
    pub limits: ResourceLimits,
    /// The largest limits a request may ask for.
    pub max_limits: ResourceLimits,
    pub tmp_size_mb: u64,
    pub home_size_mb: u64,
    /// The networks sandboxes join. With published addresses the manager creates them
    /// (bridges, traffic between containers off in both); with `network` addresses they
    /// must exist.
    pub internet_network: String,
    pub offline_network: String,
    /// `false`: no Chromium seccomp profile, Chromium runs with `--no-sandbox`.
    pub browser_sandbox: bool,
    /// `true`: every sandbox starts its desktop at once and keeps it up (and the pool
    /// holds sandboxes whose desktop is ready). By default the desktop starts on first
    /// need and stops when idle, so a sandbox costs ≈10 MiB until someone looks.
    pub desktop_always_on: bool,
    /// Memory the engine reserves for each sandbox (Docker's soft limit, the Pod's
    /// request), below `limits.memory_mb`: what a sandbox without its desktop needs,
    /// so the scheduler packs sandboxes by what they use rather than what they may.
    pub memory_reservation_mb: u64,
    /// A seccomp profile file instead of the built-in one.
    pub seccomp_profile: Option<PathBuf>,
    /// How long a new sandbox may take to become ready, seconds.
    pub ready_timeout_secs: u64,
    /// How often a sandbox that stopped unexpectedly is started again before it is given up.
    pub max_restarts: u32,
}

impl Default for SandboxSettings {
    fn default() -> Self {
        Self {
            image: "sandpiper-sandbox:latest".into(),
            address_mode: AddressMode::Published,
            publish_host: "127.0.0.1".into(),
            advertise_host: "127.0.0.1".into(),
            network: NetworkMode::Internet,
            storage: StorageKind::Tmpfs,
            limits: ResourceLimits {
                memory_mb: 2048,
                cpus: 1.5,
                pids: 256,
            },
            max_limits: ResourceLimits {
                memory_mb: 8192,
                cpus: 4.0,
                pids: 2048,
            },
            tmp_size_mb: 512,
            home_size_mb: 2048,
            internet_network: "sandpiper-internet".into(),
            offline_network: "sandpiper-offline".into(),
            browser_sandbox: true,
            desktop_always_on: false,
            memory_reservation_mb: 64,
            seccomp_profile: None,
            ready_timeout_secs: 30,
            max_restarts: 3,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct PoolSettings {
    /// Ready sandboxes kept waiting for a session; 0 disables the pool.
    pub size: usize,
    /// Ready sandboxes with a home volume and their code interpreter's kernel started
    /// (≈80 MiB each while idle, kernel included), kept for sessions that ask for a warm kernel (E2B's
    /// code interpreter); 0 disables this pool.
    pub code_size: usize,
    /// How many pool sandboxes (of both pools together) start at the same time while
    /// refilling.
    pub parallel_starts: usize,
}

impl Default for PoolSettings {
    fn default() -> Self {
        Self {
            size: 1,
            code_size: 0,
            parallel_starts: 2,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct LifetimeSettings {
    /// A sandbox nobody used (create, keep-alive) for this long is removed, seconds.
    pub idle_ttl_secs: u64,
    /// No sandbox lives longer than this, seconds.
    pub max_lifetime_secs: u64,
    /// How often the reaper and the health check run, seconds.
    pub check_interval_secs: u64,
    /// Failed health checks in a row before a sandbox is reported unhealthy.
    pub unhealthy_after: u32,
    /// How often records and containers are reconciled, seconds.
    pub reconcile_interval_secs: u64,
}

impl Default for LifetimeSettings {
    fn default() -> Self {
        Self {
            idle_ttl_secs: 30 * 60,
            max_lifetime_secs: 24 * 60 * 60,
            check_interval_secs: 5,
            unhealthy_after: 3,
            reconcile_interval_secs: 60,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct QuotaSettings {
    /// Live sandboxes one owner may have.
    pub per_owner: usize,
    /// Live sandboxes in all (the warm pool comes on top).
    pub global: usize,
    /// Memory (MiB) the sandboxes may use together, counted as they use it; a new one is
    /// refused when its reservation would not fit. Unset: 90 % of the host's memory with
    /// Docker, none on Kubernetes (the scheduler places pods by their requests); `0`: none.
    pub memory_mb: Option<u64>,
}

impl Default for QuotaSettings {
    fn default() -> Self {
        Self {
            per_owner: 3,
            global: 50,
            memory_mb: None,
        }
    }
}

impl Settings {
    /// Reads defaults, the optional file named by `SANDBOX_MANAGER_CONFIG`, then the
    /// `SANDBOX_MANAGER_*` variables, then `SANDBOX_IMAGE`.
    pub fn load() -> Result<Self, config::ConfigError> {
        let defaults = [
            ("host", "127.0.0.1".into()),
            ("port", 8090.into()),
            ("insecure_no_auth", false.into()),
            ("data_dir", "data".into()),
            ("namespace", "default".into()),
        ];
        service_kit::load_settings(
            "SANDBOX_MANAGER",
            &defaults,
            &[("sandbox.image", "SANDBOX_IMAGE")],
        )
    }
}
