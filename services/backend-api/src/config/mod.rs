//! Configuration: built-in defaults, then an optional TOML file (`BACKEND_CONFIG`), then
//! environment variables `BACKEND_<FIELD>` (nested with `__`, e.g.
//! `BACKEND_AUTH__MODE=local`), plus the conventional names below (`CONVENTIONAL`),
//! which win; a blank one counts as unset. [`service_kit::read_settings`] merges them.
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
//!
//! # Layout
//! - `llm.rs` — the models.
//! - `features.rs` — the sandbox, the agent, MCP, API keys, jobs and automations.
//! - `auth.rs` — sign-in and tokens.
//! - `http.rs` — the HTTP server: CORS, the front end, trusted proxies, limits.

use std::collections::HashMap;
use std::path::PathBuf;

use serde::Deserialize;
use web_kit::search::SearchSettings;

mod auth;
mod features;
mod http;
mod llm;
#[cfg(test)]
mod tests;

pub use auth::*;
pub use features::*;
pub use http::*;
pub use llm::*;

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
    /// Below this much free space on the data directory's disk, the log warns and
    /// `/health` says `low`.
    #[serde(default = "low_space_mb")]
    pub data_dir_low_space_mb: u64,
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

fn low_space_mb() -> u64 {
    1024
}

/// The conventional variables (key, variable), which win over the `BACKEND_*` ones.
const CONVENTIONAL: [(&str, &str); 22] = [
    ("mongodb_uri", "MONGODB_URI"),
    ("mongodb_database", "MONGODB_DATABASE"),
    ("redis_url", "REDIS_URL"),
    ("auth.jwt_secret", "JWT_SECRET"),
    ("auth.mode", "AUTH_MODE"),
    ("http.cors_origins", "FRONTEND_ORIGIN"),
    ("http.static_dir", "FRONTEND_DIR"),
    ("llm.base_url", "LLM_BASE_URL"),
    ("llm.api_key", "LLM_API_KEY"),
    ("llm.model", "LLM_MODEL"),
    ("llm.default_model", "LLM_DEFAULT_MODEL"),
    ("llm.implementer_model", "LLM_IMPLEMENTER_MODEL"),
    ("sandbox.manager_url", "SANDBOX_MANAGER_URL"),
    ("sandbox.manager_token", "SANDBOX_MANAGER_TOKEN"),
    ("mcp.config_file", "MCP_CONFIG"),
    ("search.provider", "SEARCH_PROVIDER"),
    ("search.url", "SEARCH_URL"),
    ("search.api_key", "SEARCH_API_KEY"),
    ("search.results_field", "SEARCH_RESULTS_FIELD"),
    ("search.title_field", "SEARCH_TITLE_FIELD"),
    ("search.url_field", "SEARCH_URL_FIELD"),
    ("search.snippet_field", "SEARCH_SNIPPET_FIELD"),
];

impl Settings {
    /// Reads defaults, the optional file named by `BACKEND_CONFIG`, the `BACKEND_*`
    /// variables, then the conventional ones (a blank one counts as unset), through
    /// [`service_kit::load_settings`]'s sources.
    pub fn load() -> Result<Self, config::ConfigError> {
        Self::read(None)
    }

    /// [`Settings::load`] from `variables` instead of the process's environment when given.
    fn read(variables: Option<HashMap<String, String>>) -> Result<Self, config::ConfigError> {
        let defaults = [
            ("host", "127.0.0.1".into()),
            ("port", 8000.into()),
            ("environment", "development".into()),
            ("data_dir", "data".into()),
            ("mongodb_database", "sandpiper".into()),
            ("redis_key_prefix", "sandpiper:".into()),
        ];
        Self::from_config(service_kit::read_settings(
            "BACKEND",
            &defaults,
            &CONVENTIONAL,
            variables,
        )?)
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
