//! The sections of the sandbox, the agent, MCP, API keys, jobs and automations.

use std::path::PathBuf;

use serde::Deserialize;

/// Where sandboxes come from.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct SandboxConfig {
    /// The sandbox-manager; without it the agent answers but cannot act.
    pub manager_url: Option<String>,
    pub manager_token: Option<String>,
}

/// The agent and its budgets.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct AgentConfig {
    /// `false` runs the API without the agent: messages are stored and nothing answers
    /// them (a replay-only deployment; the event-log tests).
    pub enabled: bool,
    /// Model requests per run before it ends with an error event.
    pub max_steps: u32,
    /// Wall-clock time per run.
    pub max_run_secs: u64,
    /// Longest tool output the model sees (characters); the rest is cut with a note.
    pub tool_output_chars: usize,
    /// Conversation size (characters) above which old tool results are compacted.
    pub context_chars: usize,
    /// Model tokens (prompt and completion) per person per UTC day; 0: no budget.
    pub daily_token_budget: u64,
    /// Code cells that may fail in a row before the turn ends with a message.
    pub failed_cells: u32,
    /// Sub-agents one model answer may start at once (each may take a sandbox of the
    /// person's quota); the steps and time of a run count for it and its sub-agents.
    pub max_delegations: u32,
    /// A session's run lease (with several replicas): the owner renews it every third of
    /// this; when a replica dies, another settles its runs about this long after.
    pub lease_secs: f64,
}

impl Default for AgentConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            max_steps: 60,
            max_run_secs: 30 * 60,
            tool_output_chars: 12_000,
            context_chars: 200_000,
            daily_token_budget: 0,
            failed_cells: 5,
            max_delegations: 4,
            lease_secs: 10.0,
        }
    }
}

/// MCP servers: the file that lists them and how long they may take.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct McpConfig {
    /// An `mcp.json` file (`{"mcpServers": {...}}`); none means no MCP tools.
    pub config_file: Option<PathBuf>,
    /// Connecting to a server and listing its tools, each.
    pub connect_timeout_secs: u64,
    /// One tool call.
    pub call_timeout_secs: u64,
    /// How long a server's tool list (or its failure) is reused by later runs.
    pub cache_secs: u64,
}

impl Default for McpConfig {
    fn default() -> Self {
        Self {
            config_file: None,
            connect_timeout_secs: 10,
            call_timeout_secs: 120,
            cache_secs: 60,
        }
    }
}

/// Personal API keys: how much one may be used, how many one person may have.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct ApiKeysConfig {
    /// Requests one key may make per minute, across replicas; 0: no limit.
    pub requests_per_minute: u64,
    /// Keys (not revoked) one person may have.
    pub per_person: usize,
    /// How often a replica writes a key's request count and last use.
    pub usage_write_secs: u64,
}

impl Default for ApiKeysConfig {
    fn default() -> Self {
        Self {
            requests_per_minute: 600,
            per_person: 50,
            usage_write_secs: 5,
        }
    }
}

/// Headless jobs: how many of a person's run at once, how long each may take.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct JobsConfig {
    /// A person's jobs running or waiting at once; more wait as `queued`. Below the
    /// sandbox-manager's per-person sandbox quota, so chats keep a sandbox free.
    pub max_running_per_person: usize,
    /// A person's jobs waiting as `queued`; more are refused with 429 and `Retry-After`.
    pub max_queued_per_person: usize,
    /// A job's time limit when it names none.
    pub default_timeout_secs: u64,
    /// The longest time limit a job may ask for.
    pub max_timeout_secs: u64,
    /// The decoded size of the files sent with one job, together.
    pub max_attachment_bytes: u64,
    /// The files of every queued job together, kept in the store until their jobs start;
    /// a creation past it is refused with 429 and `Retry-After`.
    pub max_queued_attachment_bytes: u64,
    /// Lets webhooks go to private, loopback and link-local addresses (a receiver on the
    /// operator's own network); off, since a job's creator would otherwise reach it.
    pub allow_private_webhooks: bool,
}

impl Default for JobsConfig {
    fn default() -> Self {
        Self {
            max_running_per_person: 2,
            max_queued_per_person: 10,
            default_timeout_secs: 30 * 60,
            max_timeout_secs: 6 * 60 * 60,
            max_attachment_bytes: 10 * 1024 * 1024,
            max_queued_attachment_bytes: 2 * 1024 * 1024 * 1024,
            allow_private_webhooks: false,
        }
    }
}

/// Automations: when one pauses itself, what counts as a missed fire time, how often
/// the scheduler looks at the store regardless, how large a webhook delivery may be.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct AutomationsConfig {
    /// Failed runs in a row after which an automation disables itself.
    pub max_failures: u32,
    /// A fire time found later than this (no replica ran then) is a missed one.
    pub missed_after_secs: u64,
    /// The scheduler's longest sleep; it also wakes at the earliest fire time, and at
    /// once for changes made on its replica.
    pub poll_secs: u64,
    pub max_webhook_bytes: usize,
    /// How far a webhook delivery's signed time may be from this server's clock, either
    /// way, in seconds; one signed earlier (or later) is refused.
    pub signature_tolerance_secs: u64,
    /// How long a rotated webhook secret is still taken beside the new one, in seconds.
    pub rotation_grace_secs: u64,
    /// Webhook deliveries read and checked at once (each holds its body until it fired).
    pub webhooks_at_once: usize,
    /// Deliveries waiting for a turn beyond those, holding nothing yet; more are `503`.
    pub webhooks_queue: usize,
    /// Longest wait for a turn, in seconds (`503` after).
    pub webhooks_wait_secs: u64,
    /// The automations one person may have.
    pub max_per_person: usize,
    /// The shortest time an automation's triggers together may leave between two fires.
    pub min_interval_secs: u64,
}

impl Default for AutomationsConfig {
    fn default() -> Self {
        Self {
            max_failures: 3,
            missed_after_secs: 60,
            poll_secs: 10,
            max_webhook_bytes: 1024 * 1024,
            signature_tolerance_secs: 300,
            rotation_grace_secs: 24 * 60 * 60,
            webhooks_at_once: 8,
            webhooks_queue: 256,
            webhooks_wait_secs: 10,
            max_per_person: 100,
            min_interval_secs: 60,
        }
    }
}
