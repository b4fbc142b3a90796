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
//! | `LLM_BASE_URL`, `LLM_API_KEY`, `LLM_MODEL` | the one model, when no list is given (below) |
//! | `LLM_DEFAULT_MODEL` | which of the listed models a session gets when it names none |
//! | `LLM_IMPLEMENTER_MODEL` | which of them sub-agents use when the delegating agent names none (the session's model otherwise) |
//! | `SANDBOX_MANAGER_URL`, `SANDBOX_MANAGER_TOKEN` | the sandbox-manager |
//! | `MCP_CONFIG` | an `mcp.json` file of MCP servers whose tools the agent gets |
//! | `SEARCH_PROVIDER` | web search for the agent: `searxng`, `brave`, `tavily`, `serper` or `generic` |
//! | `SEARCH_URL`, `SEARCH_API_KEY` | the provider's endpoint and key |
//! | `SEARCH_RESULTS_FIELD`, `SEARCH_TITLE_FIELD`, `SEARCH_URL_FIELD`, `SEARCH_SNIPPET_FIELD` | the generic provider's JSON layout |
//!
//! Several models are a table per model under `[llm.models.<name>]` in the file, or
//! `BACKEND_LLM__MODELS__<NAME>__<FIELD>` in the environment (which lower-cases the
//! name); see [`ModelConfig`]. [`LlmConfig::models`] checks them at start-up.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;
use web_kit::search::SearchSettings;

use crate::domain::invite::RegistrationMode;
use crate::domain::model::{ModelCatalog, ModelInfo, ModelName, Prices};
use crate::interfaces::http::forwarded::TrustedProxies;

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
    /// This deployment's address as people and other systems reach it
    /// (`https://sandpiper.example.org`), when known: automations' webhook URLs are then
    /// given absolute under it (relative to the API otherwise).
    #[serde(default)]
    pub public_url: Option<String>,
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
    #[serde(default)]
    pub automations: AutomationsConfig,
    /// The agent's web search provider, which the backend calls itself so its key never
    /// enters a sandbox.
    #[serde(default)]
    pub search: SearchSettings,
}

/// The models: any OpenAI-compatible chat-completions APIs. Either a list (`models`,
/// with `default_model`), or the one model of `base_url`, `api_key` and `model` (the
/// `LLM_*` variables) with `temperature`, `max_tokens` and `extra_headers`, named by its
/// `model`. The timeouts and retries hold for every model.
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
    pub extra_headers: BTreeMap<String, String>,
    /// The models people may pick, by the name they pick them by.
    pub models: BTreeMap<String, ModelConfig>,
    /// The listed model a session gets when it names none; may be left out when the
    /// list has one model.
    pub default_model: Option<String>,
    /// The listed model sub-agents use when the agent delegating a task names none: a
    /// planner (the default) handing implementation to a cheaper or stronger coder.
    /// Without it, sub-agents use the delegating session's model.
    pub implementer_model: Option<String>,
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
            extra_headers: BTreeMap::new(),
            models: BTreeMap::new(),
            default_model: None,
            implementer_model: None,
            timeout_secs: 300,
            chunk_timeout_secs: 90,
            max_retries: 4,
            retry_base_millis: 500,
        }
    }
}

/// One model of the list: where it is, what it is called there, what it can do and cost.
#[derive(Debug, Clone, Deserialize)]
pub struct ModelConfig {
    /// The OpenAI-compatible API's base, e.g. `https://openrouter.ai/api/v1`.
    pub base_url: String,
    pub api_key: Option<String>,
    /// The provider's id of the model; the list's name when left out.
    pub model: Option<String>,
    /// The context window in tokens (default 128000); the conversation is compacted to
    /// fit it.
    #[serde(default = "default_context_tokens")]
    pub context_tokens: u32,
    /// `false` for a model that cannot call tools: the agent then tells the person to
    /// pick another instead of asking it (default `true`).
    #[serde(default = "default_true")]
    pub supports_tools: bool,
    #[serde(default)]
    pub supports_images: bool,
    /// What a million tokens cost, both or neither; sessions then show their cost.
    pub input_price_per_million: Option<f64>,
    pub output_price_per_million: Option<f64>,
    pub temperature: Option<f32>,
    pub max_tokens: Option<u32>,
    #[serde(default)]
    pub extra_headers: BTreeMap<String, String>,
}

fn default_context_tokens() -> u32 {
    128_000
}

fn default_true() -> bool {
    true
}

/// The configured models, checked: the catalogue the application offers, and how to
/// reach each, for the adapter.
#[derive(Debug, Default)]
pub struct Models {
    pub catalog: ModelCatalog,
    pub endpoints: Vec<(ModelName, ModelConfig)>,
}

impl LlmConfig {
    /// The list, or the one `LLM_*` model, or none. Refuses a list beside the `LLM_*`
    /// model, a bad name, a missing or unknown default, twins and half a price.
    pub fn models(&self) -> Result<Models, String> {
        if self.models.is_empty() {
            return self.single_model();
        }
        if self.base_url.is_some() || self.model.is_some() {
            return Err(
                "both a model list (llm.models) and LLM_BASE_URL/LLM_MODEL are set; \
                        list that model too, or leave the list out"
                    .into(),
            );
        }
        let mut infos = Vec::new();
        let mut endpoints = Vec::new();
        for (raw, config) in &self.models {
            let name = ModelName::parse(raw).map_err(|err| format!("llm.models: {err}"))?;
            infos.push(model_info(&name, config)?);
            endpoints.push((name, config.clone()));
        }
        let default = match (&self.default_model, infos.as_slice()) {
            (Some(raw), _) => ModelName::parse(raw).map_err(|err| format!("llm.default_model: {err}"))?,
            (None, [only]) => only.name.clone(),
            (None, _) => {
                return Err(
                    "several models are listed: name the default one in llm.default_model \
                     (LLM_DEFAULT_MODEL)"
                        .into(),
                )
            }
        };
        let mut catalog = ModelCatalog::new(infos, &default).map_err(|err| format!("llm.models: {err}"))?;
        if let Some(raw) = &self.implementer_model {
            let name = ModelName::parse(raw).map_err(|err| format!("llm.implementer_model: {err}"))?;
            catalog = catalog
                .with_implementer(&name)
                .map_err(|err| format!("llm.implementer_model: {err}"))?;
        }
        Ok(Models { catalog, endpoints })
    }

    fn single_model(&self) -> Result<Models, String> {
        let (Some(base_url), Some(model)) = (&self.base_url, &self.model) else {
            return Ok(Models::default());
        };
        let name = ModelName::parse(model).map_err(|err| format!("LLM_MODEL: {err}"))?;
        let config = ModelConfig {
            base_url: base_url.clone(),
            api_key: self.api_key.clone(),
            model: Some(model.clone()),
            context_tokens: default_context_tokens(),
            supports_tools: true,
            supports_images: false,
            input_price_per_million: None,
            output_price_per_million: None,
            temperature: self.temperature,
            max_tokens: self.max_tokens,
            extra_headers: self.extra_headers.clone(),
        };
        let catalog =
            ModelCatalog::new(vec![model_info(&name, &config)?], &name).map_err(|e| e.to_string())?;
        Ok(Models {
            catalog,
            endpoints: vec![(name, config)],
        })
    }
}

fn model_info(name: &ModelName, config: &ModelConfig) -> Result<ModelInfo, String> {
    let prices = match (config.input_price_per_million, config.output_price_per_million) {
        (Some(input), Some(output)) => {
            Some(Prices::parse(input, output).map_err(|err| format!("llm.models.{}: {err}", name.as_str()))?)
        }
        (None, None) => None,
        _ => {
            return Err(format!(
                "llm.models.{}: give both input_price_per_million and output_price_per_million, or neither",
                name.as_str()
            ))
        }
    };
    if config.context_tokens == 0 {
        return Err(format!("llm.models.{}: context_tokens is 0", name.as_str()));
    }
    Ok(ModelInfo {
        name: name.clone(),
        context_tokens: config.context_tokens,
        supports_tools: config.supports_tools,
        supports_images: config.supports_images,
        prices,
    })
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
            max_per_person: 100,
            min_interval_secs: 60,
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
    /// Who may register in `password` mode: `open`, `invite` (the default) or `closed`.
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
    /// Password checks (sign-in, sign-up, password change) at once per replica: the
    /// hashing threads, each keeping `argon2_memory_kib` (default: the cores, at most 4).
    pub password_threads: usize,
    /// Checks that may wait for a thread beyond those running; more are refused (`503`).
    pub password_queue: usize,
    /// Longest wait for a thread before a check is refused (`503`).
    pub password_wait_secs: u64,
    /// Argon2id cost: memory in KiB and passes.
    pub argon2_memory_kib: u32,
    pub argon2_iterations: u32,
}

impl Default for AuthConfig {
    fn default() -> Self {
        Self {
            mode: AuthModeName::Password,
            registration: RegistrationMode::default(),
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
            password_threads: std::thread::available_parallelism().map_or(2, |n| n.get().min(4)),
            password_queue: 200,
            password_wait_secs: 5,
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
    /// The proxies in front whose `X-Forwarded-For` names the client (for the sign-in
    /// limits): addresses and CIDR ranges, a list or one comma-separated string. None
    /// by default: the client is the peer.
    #[serde(deserialize_with = "trusted_proxies")]
    pub trusted_proxies: TrustedProxies,
    /// Marks the refresh cookie `Secure` on every answer. Off, it is `Secure` when the
    /// page is on https or a trusted proxy says it was reached over https, so plain http
    /// on a developer's machine keeps working; turn it on where the site is https only.
    pub secure_cookies: bool,
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
            trusted_proxies: TrustedProxies::default(),
            secure_cookies: false,
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

fn trusted_proxies<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<TrustedProxies, D::Error> {
    let entries = list_or_commas(deserializer)?;
    // Named here: where the config crate says the error is depends on its walk.
    TrustedProxies::parse(&entries)
        .map_err(|err| serde::de::Error::custom(format!("BACKEND_HTTP__TRUSTED_PROXIES: {err}")))
}

/// The `BACKEND_*` variables, nested with `__`.
fn backend_environment() -> config::Environment {
    config::Environment::with_prefix("BACKEND")
        .prefix_separator("_")
        .separator("__")
        .try_parsing(true)
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
            .add_source(backend_environment())
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
            .set_override_option("llm.default_model", env("LLM_DEFAULT_MODEL"))?
            .set_override_option("llm.implementer_model", env("LLM_IMPLEMENTER_MODEL"))?
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
        Self::from_config(builder.build()?)
    }

    /// [`Settings::public_url`] checked: an `http` or `https` URL with a host and no
    /// query, without a trailing `/`; blank is none.
    pub fn public_base(&self) -> anyhow::Result<Option<String>> {
        let Some(raw) = self
            .public_url
            .as_deref()
            .map(str::trim)
            .filter(|raw| !raw.is_empty())
        else {
            return Ok(None);
        };
        let url = url::Url::parse(raw).map_err(|err| anyhow::anyhow!("BACKEND_PUBLIC_URL `{raw}`: {err}"))?;
        anyhow::ensure!(
            matches!(url.scheme(), "http" | "https") && url.host().is_some() && url.query().is_none(),
            "BACKEND_PUBLIC_URL `{raw}` is not an http or https URL with a host (and no query)"
        );
        Ok(Some(url.as_str().trim_end_matches('/').to_owned()))
    }

    /// Reads the merged sources, refusing a setting that is gone rather than ignoring it:
    /// `http.trust_forwarded_for`, ignored, would key every sign-in by the proxy's address.
    fn from_config(config: config::Config) -> Result<Self, config::ConfigError> {
        if config.get::<String>("http.trust_forwarded_for").is_ok() {
            return Err(config::ConfigError::Message(
                "http.trust_forwarded_for (BACKEND_HTTP__TRUST_FORWARDED_FOR) is gone: list the \
                 proxies in front in http.trusted_proxies (BACKEND_HTTP__TRUSTED_PROXIES) instead"
                    .into(),
            ));
        }
        config.try_deserialize()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `llm` section of a TOML file, read the way [`Settings::load`] reads one.
    fn llm(toml: &str) -> LlmConfig {
        config::Config::builder()
            .add_source(config::File::from_str(toml, config::FileFormat::Toml))
            .build()
            .and_then(|c| c.get::<LlmConfig>("llm"))
            .unwrap()
    }

    #[test]
    fn a_list_of_models_is_read_with_its_default() {
        let models = llm(r#"
            [llm]
            default_model = "coder"
            [llm.models.planner]
            base_url = "https://api.example.com/v1"
            api_key = "k1"
            model = "big-model-2"
            context_tokens = 200000
            input_price_per_million = 3.0
            output_price_per_million = 15.0
            [llm.models.coder]
            base_url = "http://localhost:11434/v1"
            supports_tools = true
            supports_images = true
        "#)
        .models()
        .unwrap();
        let names: Vec<_> = models.catalog.list().iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["coder", "planner"], "the default comes first");
        let planner = &models.catalog.list()[1];
        assert_eq!(planner.context_tokens, 200_000);
        assert_eq!(planner.prices, Some(Prices::parse(3.0, 15.0).unwrap()));
        let coder = &models.catalog.list()[0];
        assert!(coder.supports_images && coder.prices.is_none());
        assert_eq!(coder.context_tokens, 128_000);
        assert_eq!(models.endpoints.len(), 2);
    }

    #[test]
    fn the_llm_variables_make_the_one_default_model() {
        let models = llm(r#"
            [llm]
            base_url = "http://localhost:8080/v1"
            model = "openai/gpt-4o"
        "#)
        .models()
        .unwrap();
        assert_eq!(
            models.catalog.default_model().unwrap().name.as_str(),
            "openai/gpt-4o"
        );
        assert_eq!(models.endpoints[0].1.model.as_deref(), Some("openai/gpt-4o"));
        assert!(llm("[llm]").models().unwrap().catalog.list().is_empty());
    }

    #[test]
    fn models_are_listed_in_the_environment_too() {
        let variables = [
            ("BACKEND_LLM__MODELS__FAST__BASE_URL", "http://localhost:11434/v1"),
            ("BACKEND_LLM__MODELS__FAST__MODEL", "qwen2.5-coder:7b"),
            ("BACKEND_LLM__MODELS__FAST__CONTEXT_TOKENS", "32768"),
            ("BACKEND_LLM__MODELS__FAST__SUPPORTS_TOOLS", "false"),
            ("BACKEND_LLM__MODELS__FAST__INPUT_PRICE_PER_MILLION", "0.5"),
            ("BACKEND_LLM__MODELS__FAST__OUTPUT_PRICE_PER_MILLION", "1"),
        ];
        let environment = variables.map(|(k, v)| (k.to_owned(), v.to_owned()));
        let models = config::Config::builder()
            .add_source(backend_environment().source(Some(environment.into_iter().collect())))
            .build()
            .and_then(|c| c.get::<LlmConfig>("llm"))
            .unwrap()
            .models()
            .unwrap();
        let fast = models.catalog.default_model().unwrap();
        assert_eq!(fast.name.as_str(), "fast");
        assert_eq!(fast.context_tokens, 32_768);
        assert!(!fast.supports_tools);
        assert_eq!(fast.prices, Some(Prices::parse(0.5, 1.0).unwrap()));
        assert_eq!(models.endpoints[0].1.model.as_deref(), Some("qwen2.5-coder:7b"));
    }

    #[test]
    fn trusted_proxies_are_checked_at_start_and_the_old_switch_is_refused() {
        let http = |value: &str| {
            let environment = [("BACKEND_HTTP__TRUSTED_PROXIES".to_owned(), value.to_owned())];
            config::Config::builder()
                .add_source(backend_environment().source(Some(environment.into_iter().collect())))
                .build()
                .and_then(|c| c.get::<HttpConfig>("http"))
        };
        let trusted = http("10.0.0.0/8, fd00::/8").unwrap().trusted_proxies;
        let peer = "10.0.0.2".parse().unwrap();
        assert_eq!(trusted.client(peer, ["198.51.100.7"]).to_string(), "198.51.100.7");
        let err = http("10.0.0.0/8,10.0.0.0/33").unwrap_err().to_string();
        assert!(
            err.contains("`10.0.0.0/33` is not an IP address")
                && err.contains("BACKEND_HTTP__TRUSTED_PROXIES"),
            "{err}"
        );
        let old = config::Config::builder()
            .set_override("http.trust_forwarded_for", "true")
            .and_then(|b| b.build())
            .unwrap();
        let err = Settings::from_config(old).unwrap_err().to_string();
        assert!(err.contains("BACKEND_HTTP__TRUSTED_PROXIES"), "{err}");
    }

    #[test]
    fn bad_model_lists_are_refused_with_a_reason() {
        let model = |name: &str| format!("[llm.models.{name}]\nbase_url = \"http://x/v1\"\n");
        let refused = |toml: String| llm(&toml).models().unwrap_err();
        let two = format!("{}{}", model("a"), model("b"));
        assert!(refused(two.clone()).contains("name the default one"));
        assert!(refused(format!("[llm]\ndefault_model = \"c\"\n{two}"))
            .contains("`c` is not one of the models (a, b)"));
        assert!(refused(format!(
            "[llm]\nmodel = \"x\"\nbase_url = \"http://y/v1\"\n{}",
            model("a")
        ))
        .contains("both"));
        assert!(
            refused(format!("{}input_price_per_million = 1.0\n", model("a"))).contains("both input_price")
        );
        assert!(refused(model("\"two words\"")).contains("no spaces"));
    }
}
