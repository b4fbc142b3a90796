//! Configuration: built-in defaults, then an optional TOML file (`BACKEND_CONFIG`), then
//! environment variables `BACKEND_<FIELD>` (nested with `__`, e.g.
//! `BACKEND_AUTH__MODE=local`), plus the conventional names below, which win.
//!
//! | variable | meaning |
//! |---|---|
//! | `MONGODB_URI` | use MongoDB for users, sessions and events (embedded store otherwise) |
//! | `MONGODB_DATABASE` | the MongoDB database (default `sandpiper`) |
//! | `REDIS_URL` | use Redis for tickets, revocations, rate limits and fan-out |
//! | `JWT_SECRET` | HS256 secret for access tokens (≥ 32 bytes in production) |
//! | `AUTH_MODE` | `password`, `local` or `none` |
//! | `FRONTEND_ORIGIN` | origin(s) allowed by CORS, comma-separated |
//! | `FRONTEND_DIR` | the built front end, served at `/` |
//! | `LLM_BASE_URL`, `LLM_API_KEY`, `LLM_MODEL` | the OpenAI-compatible model provider |
//! | `SANDBOX_MANAGER_URL`, `SANDBOX_MANAGER_TOKEN` | the sandbox-manager |
//! | `MCP_CONFIG` | an `mcp.json` file of MCP servers whose tools the agent gets |
//! | `SEARCH_PROVIDER` | web search for the agent: `searxng`, `brave`, `tavily`, `serper` or `generic` |
//! | `SEARCH_URL`, `SEARCH_API_KEY` | the provider's endpoint and key |
//! | `SEARCH_RESULTS_FIELD`, `SEARCH_TITLE_FIELD`, `SEARCH_URL_FIELD`, `SEARCH_SNIPPET_FIELD` | the generic provider's JSON layout |

use std::path::PathBuf;

use serde::Deserialize;
use web_kit::search::SearchSettings;

use crate::domain::invite::RegistrationMode;

/// The development secret: usable on a laptop, refused in production.
pub const DEVELOPMENT_JWT_SECRET: &str = "sandpiper-development-secret-do-not-use-in-production";
/// Shortest JWT secret accepted in production (HS256 keys should be ≥ 256 bits).
pub const MIN_PRODUCTION_SECRET_BYTES: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Environment {
    Development,
    Production,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Settings {
    pub host: String,
    pub port: u16,
    pub environment: Environment,
    /// Where the embedded store keeps its file.
    pub data_dir: PathBuf,
    pub mongodb_uri: Option<String>,
    pub mongodb_database: String,
    pub redis_url: Option<String>,
    /// Starts every Redis key and channel this backend uses (several deployments can
    /// share one Redis).
    pub redis_key_prefix: String,
    #[serde(default)]
    pub auth: AuthConfig,
    #[serde(default)]
    pub http: HttpConfig,
    #[serde(default)]
    pub llm: LlmConfig,
    #[serde(default)]
    pub sandbox: SandboxConfig,
    #[serde(default)]
    pub agent: AgentConfig,
    #[serde(default)]
    pub mcp: McpConfig,
    #[serde(default)]
    pub api_keys: ApiKeysConfig,
    #[serde(default)]
    pub jobs: JobsConfig,
    /// The agent's web search provider, which the backend calls itself so its key never
    /// enters a sandbox.
    #[serde(default)]
    pub search: SearchSettings,
}

/// The model provider: any OpenAI-compatible chat-completions API.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct LlmConfig {
    /// e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1` (Ollama).
    pub base_url: Option<String>,
    pub api_key: Option<String>,
    pub model: Option<String>,
    pub temperature: Option<f32>,
    pub max_tokens: Option<u32>,
    /// Extra request headers (e.g. OpenRouter's `HTTP-Referer`), `name: value` per entry.
    pub extra_headers: std::collections::BTreeMap<String, String>,
    /// Longest wait for one answer, and for the next chunk of a streamed one.
    pub timeout_secs: u64,
    pub chunk_timeout_secs: u64,
    /// Retries on 429, 5xx and dropped streams, with exponential back-off.
    pub max_retries: u32,
    pub retry_base_millis: u64,
}

impl Default for LlmConfig {
    fn default() -> Self {
        Self {
            base_url: None,
            api_key: None,
            model: None,
            temperature: None,
            max_tokens: None,
            extra_headers: Default::default(),
            timeout_secs: 300,
            chunk_timeout_secs: 90,
            max_retries: 4,
            retry_base_millis: 500,
        }
    }
}

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
    /// A job's time limit when it names none.
    pub default_timeout_secs: u64,
    /// The longest time limit a job may ask for.
    pub max_timeout_secs: u64,
    /// The decoded size of the files sent with one job, together.
    pub max_attachment_bytes: u64,
    /// Lets webhooks go to private, loopback and link-local addresses (a receiver on the
    /// operator's own network); off, since a job's creator would otherwise reach it.
    pub allow_private_webhooks: bool,
}

impl Default for JobsConfig {
    fn default() -> Self {
        Self {
            max_running_per_person: 2,
            default_timeout_secs: 30 * 60,
            max_timeout_secs: 6 * 60 * 60,
            max_attachment_bytes: 10 * 1024 * 1024,
            allow_private_webhooks: false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AuthModeName {
    Password,
    Local,
    None,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JwtAlgorithm {
    Hs256,
    Rs256,
    Eddsa,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct AuthConfig {
    pub mode: AuthModeName,
    /// Who may register in `password` mode: `open`, `invite` or `closed`.
    pub registration: RegistrationMode,
    pub jwt_algorithm: JwtAlgorithm,
    pub jwt_secret: String,
    /// PEM files for RS256 / EdDSA.
    pub jwt_private_key_file: Option<PathBuf>,
    pub jwt_public_key_file: Option<PathBuf>,
    pub access_ttl_secs: u64,
    pub refresh_ttl_secs: u64,
    /// The admin account of the `local` mode.
    pub local_email: Option<String>,
    pub local_password: Option<String>,
    /// Failures for one account from one address before that pair is backed off.
    pub login_failures_before_backoff: u64,
    /// The first back-off, doubled with each further failure up to the max.
    pub login_backoff_base_secs: u64,
    pub login_backoff_max_secs: u64,
    /// Failures from one address, across accounts, before the address is refused.
    pub login_failures_per_address: u64,
    /// How long failures are remembered.
    pub login_window_secs: u64,
    /// Password verifications at once per replica; more sign-ins are refused (`429`).
    pub login_concurrent_verifications: usize,
    /// Argon2id cost: memory in KiB and passes.
    pub argon2_memory_kib: u32,
    pub argon2_iterations: u32,
}

impl Default for AuthConfig {
    fn default() -> Self {
        Self {
            mode: AuthModeName::Password,
            registration: RegistrationMode::Open,
            jwt_algorithm: JwtAlgorithm::Hs256,
            jwt_secret: DEVELOPMENT_JWT_SECRET.into(),
            jwt_private_key_file: None,
            jwt_public_key_file: None,
            access_ttl_secs: 15 * 60,
            refresh_ttl_secs: 30 * 24 * 60 * 60,
            local_email: None,
            local_password: None,
            login_failures_before_backoff: 5,
            login_backoff_base_secs: 1,
            login_backoff_max_secs: 60,
            login_failures_per_address: 100,
            login_window_secs: 15 * 60,
            login_concurrent_verifications: 8,
            argon2_memory_kib: 19 * 1024,
            argon2_iterations: 2,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct HttpConfig {
    /// Origins allowed by CORS (the front end's); empty allows none cross-origin. A list,
    /// or one comma-separated string (as environment variables give it).
    #[serde(deserialize_with = "list_or_commas")]
    pub cors_origins: Vec<String>,
    /// Largest JSON request body.
    pub body_limit_bytes: usize,
    /// Largest uploaded file (attachments, file browser uploads); streamed, never held
    /// in memory.
    pub upload_limit_bytes: u64,
    /// How long a VNC ticket may wait to be used.
    pub vnc_ticket_secs: u64,
    /// Comment lines on idle SSE streams, so proxies keep them open.
    pub sse_heartbeat_secs: u64,
    /// Use the first `X-Forwarded-For` address as the client's (behind a trusted proxy).
    pub trust_forwarded_for: bool,
    /// Connections one person may hold open at once, per replica: event streams, file
    /// watches, desktop and terminal relays.
    pub max_streams_per_person: usize,
    pub max_watches_per_person: usize,
    pub max_relays_per_person: usize,
    /// The built front end (`frontend/dist`), served at `/` when set.
    pub static_dir: Option<std::path::PathBuf>,
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            cors_origins: Vec::new(),
            body_limit_bytes: 256 * 1024,
            upload_limit_bytes: 100 * 1024 * 1024,
            vnc_ticket_secs: 30,
            sse_heartbeat_secs: 15,
            trust_forwarded_for: false,
            max_streams_per_person: 32,
            max_watches_per_person: 8,
            max_relays_per_person: 8,
            static_dir: None,
        }
    }
}

fn list_or_commas<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Origins {
        List(Vec<String>),
        Commas(String),
    }
    let list = match Origins::deserialize(deserializer)? {
        Origins::List(list) => list,
        Origins::Commas(text) => text.split(',').map(str::to_owned).collect(),
    };
    Ok(list
        .into_iter()
        .map(|o| o.trim().to_owned())
        .filter(|o| !o.is_empty())
        .collect())
}

impl Settings {
    /// Reads defaults, the optional file named by `BACKEND_CONFIG`, then the environment.
    pub fn load() -> Result<Self, config::ConfigError> {
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let mut builder = config::Config::builder()
            .set_default("host", "127.0.0.1")?
            .set_default("port", 8000)?
            .set_default("environment", "development")?
            .set_default("data_dir", "data")?
            .set_default("mongodb_database", "sandpiper")?
            .set_default("redis_key_prefix", "sandpiper:")?;
        if let Some(file) = env("BACKEND_CONFIG") {
            builder = builder.add_source(config::File::with_name(&file));
        }
        builder = builder
            .add_source(
                config::Environment::with_prefix("BACKEND")
                    .prefix_separator("_")
                    .separator("__")
                    .try_parsing(true),
            )
            .set_override_option("mongodb_uri", env("MONGODB_URI"))?
            .set_override_option("mongodb_database", env("MONGODB_DATABASE"))?
            .set_override_option("redis_url", env("REDIS_URL"))?
            .set_override_option("auth.jwt_secret", env("JWT_SECRET"))?
            .set_override_option("auth.mode", env("AUTH_MODE"))?
            .set_override_option("http.cors_origins", env("FRONTEND_ORIGIN"))?
            .set_override_option("http.static_dir", env("FRONTEND_DIR"))?
            .set_override_option("llm.base_url", env("LLM_BASE_URL"))?
            .set_override_option("llm.api_key", env("LLM_API_KEY"))?
            .set_override_option("llm.model", env("LLM_MODEL"))?
            .set_override_option("sandbox.manager_url", env("SANDBOX_MANAGER_URL"))?
            .set_override_option("sandbox.manager_token", env("SANDBOX_MANAGER_TOKEN"))?
            .set_override_option("mcp.config_file", env("MCP_CONFIG"))?;
        for key in [
            "provider",
            "url",
            "api_key",
            "results_field",
            "title_field",
            "url_field",
            "snippet_field",
        ] {
            let value = env(&format!("SEARCH_{}", key.to_uppercase()));
            builder = builder.set_override_option(format!("search.{key}"), value)?;
        }
        builder.build()?.try_deserialize()
    }
}
