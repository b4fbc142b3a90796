//! What the E2B-compatible API answers, in E2B's field names: a created or connected
//! sandbox (with its tokens), a sandbox as `get_info` and listings show it, and a
//! reading of its metrics.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::application::e2b::SandboxTokens;
use crate::domain::e2b::{E2bMetrics, E2bSandbox};
use crate::domain::session::Network;

/// The envd protocol version whose features the sandbox's tool-api has; E2B's SDKs
/// switch features on by it.
pub const ENVD_VERSION: &str = "0.6.4";

/// E2B names the machine a sandbox runs on; here there is one kind.
const CLIENT_ID: &str = "sandpiper";

/// What every answer says of a sandbox.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Identity {
    #[serde(rename = "templateID")]
    template_id: &'static str,
    #[serde(rename = "sandboxID")]
    sandbox_id: String,
    #[serde(rename = "clientID")]
    client_id: &'static str,
    alias: &'static str,
    envd_version: &'static str,
}

impl From<&E2bSandbox> for Identity {
    fn from(sandbox: &E2bSandbox) -> Self {
        Self {
            template_id: sandbox.template.as_str(),
            sandbox_id: sandbox.id.as_str().to_owned(),
            client_id: CLIENT_ID,
            alias: sandbox.template.as_str(),
            envd_version: ENVD_VERSION,
        }
    }
}

/// `POST /sandboxes`, `POST /sandboxes/{id}/connect`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Created {
    #[serde(flatten)]
    identity: Identity,
    envd_access_token: String,
    traffic_access_token: String,
    /// No domain of its own: the SDK reaches the sandbox through `E2B_SANDBOX_URL`.
    domain: Option<String>,
}

impl Created {
    pub fn new(sandbox: &E2bSandbox, tokens: SandboxTokens) -> Self {
        Self {
            identity: Identity::from(sandbox),
            envd_access_token: tokens.access,
            traffic_access_token: tokens.traffic,
            domain: None,
        }
    }
}

/// `GET /sandboxes/{id}` and each entry of `GET /v2/sandboxes`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Detail {
    #[serde(flatten)]
    identity: Identity,
    started_at: DateTime<Utc>,
    end_at: DateTime<Utc>,
    cpu_count: u32,
    #[serde(rename = "memoryMB")]
    memory_mb: u64,
    /// Not measured: a sandbox's files are on a volume that its tool-api keeps within
    /// the home's quota.
    #[serde(rename = "diskSizeMB")]
    disk_size_mb: u64,
    state: &'static str,
    metadata: std::collections::BTreeMap<String, String>,
    allow_internet_access: bool,
    lifecycle: Lifecycle,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Lifecycle {
    auto_resume: bool,
    on_timeout: &'static str,
}

impl From<&E2bSandbox> for Detail {
    fn from(sandbox: &E2bSandbox) -> Self {
        Self {
            identity: Identity::from(sandbox),
            started_at: sandbox.started_at,
            end_at: sandbox.end_at,
            cpu_count: sandbox.cpu_count,
            memory_mb: sandbox.memory_mb,
            disk_size_mb: 0,
            state: sandbox.state.as_str(),
            metadata: sandbox.metadata.clone(),
            allow_internet_access: sandbox.network == Network::Internet,
            lifecycle: Lifecycle {
                auto_resume: false,
                on_timeout: if sandbox.auto_pause { "pause" } else { "kill" },
            },
        }
    }
}

/// An entry of `GET /sandboxes/{id}/metrics`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Metric {
    timestamp: DateTime<Utc>,
    timestamp_unix: i64,
    cpu_count: u32,
    cpu_used_pct: f64,
    mem_used: u64,
    mem_total: u64,
    /// Not told apart from the rest of the memory in use.
    mem_cache: u64,
    disk_used: u64,
    disk_total: u64,
}

impl From<&E2bMetrics> for Metric {
    fn from(reading: &E2bMetrics) -> Self {
        Self {
            timestamp: reading.at,
            timestamp_unix: reading.at.timestamp(),
            cpu_count: reading.cpu_count,
            cpu_used_pct: reading.cpu_used_pct,
            mem_used: reading.mem_used,
            mem_total: reading.mem_total,
            mem_cache: 0,
            disk_used: reading.disk_used,
            disk_total: reading.disk_total,
        }
    }
}
