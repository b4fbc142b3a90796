//! Wiring and serving. [`Application::build`] checks the settings (refusing unsafe ones
//! in production), opens the stores, builds the use cases and binds the listener (port 0
//! works, so tests start the real server and speak HTTP to it).

use std::net::SocketAddr;
use std::sync::{Arc, Weak};
use std::time::Duration;

use anyhow::{bail, Context};
use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::application::agent::{AgentService, Budgets, Cluster, DailyTokens, Dependencies};
use crate::application::api_keys::{ApiKeySettings, ApiKeys};
use crate::application::auth::{AuthMode, AuthPorts, AuthService, AuthSettings};
use crate::application::automations::rules::AutomationRules;
use crate::application::automations::{AutomationService, AutomationSettings};
use crate::application::e2b::E2bService;
use crate::application::events::EventService;
use crate::application::files::FileService;
use crate::application::holds::{HoldCaps, Holds};
use crate::application::invites::Invites;
use crate::application::jobs::{JobEnds, JobPorts, JobService, JobSettings};
use crate::application::live::{Connectors, LiveService};
use crate::application::login_limits::LoginLimitSettings;
use crate::application::mcp_servers::McpServerAdmin;
use crate::application::memory::MemoryService;
use crate::application::password_checks::PasswordCheckSettings;
use crate::application::sessions::SessionService;
use crate::application::tickets::TicketBook;
use crate::application::toolbox::ToolboxService;
use crate::config::{
    AuthConfig, AuthModeName, Environment, JwtAlgorithm, Settings, DEVELOPMENT_JWT_SECRET,
    MIN_PRODUCTION_SECRET_BYTES,
};
use crate::domain::automation::MAX_FILES_BYTES;
use crate::domain::ports::{McpServers, PausableSandboxes, SandboxFiles, SandboxGateway, WebSearch};
use crate::domain::replica::ReplicaId;
use crate::infrastructure::llm::OpenAiModels;
use crate::infrastructure::mcp::{config as mcp_config, McpHub};
use crate::infrastructure::password::Argon2Hasher;
use crate::infrastructure::sandbox_environment::ToolApiEnvironment;
use crate::infrastructure::sandbox_files::ToolApiFiles;
use crate::infrastructure::sandbox_gateway::{ManagedSandboxes, NoSandboxes};
use crate::infrastructure::sandbox_tools::ToolApiTools;
use crate::infrastructure::stores::StoragePorts;
use crate::infrastructure::terminal::ToolApiTerminals;
use crate::infrastructure::tokens::{JwtCodec, SigningKey};
use crate::infrastructure::vnc::VncConnector;
use crate::infrastructure::web_search::ProviderSearch;
use crate::infrastructure::webhooks::HttpWebhooks;
use crate::interfaces::http::{self, AppState, HttpOptions, Stores};

/// What a person reads when no model is configured, naming the settings that configure one.
const NO_MODEL: &str = "No model is configured. Set LLM_BASE_URL and LLM_MODEL (and LLM_API_KEY if the \
                        provider needs one), or list models in the configuration, then restart the backend.";

pub struct Application {
    listener: TcpListener,
    router: axum::Router,
    stopping: CancellationToken,
    /// Their last uses are written when serving ends.
    api_keys: Arc<ApiKeys>,
    /// Its runs end when serving ends.
    agent: Arc<AgentService>,
}

impl Application {
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let codec = Arc::new(jwt_codec(&settings.auth, settings.environment)?);
        let auth_mode = auth_mode(&settings.auth)?;
        let stores = StoragePorts::open(&settings).await?;
        let hasher = Arc::new(Argon2Hasher::new(
            settings.auth.argon2_memory_kib,
            settings.auth.argon2_iterations,
            settings.auth.password_threads,
        )?);
        let invites = Arc::new(Invites::new(stores.kv.clone()));
        let api_keys = Arc::new(ApiKeys::new(
            stores.api_keys.clone(),
            stores.users.clone(),
            stores.kv.clone(),
            ApiKeySettings {
                requests_per_minute: settings.api_keys.requests_per_minute,
                per_person: settings.api_keys.per_person,
                usage_every: Duration::from_secs(settings.api_keys.usage_write_secs.max(1)),
            },
        ));
        let auth = AuthService::new(
            AuthPorts {
                users: stores.users.clone(),
                refresh: stores.refresh_tokens.clone(),
                kv: stores.kv.clone(),
                hasher,
                codec,
            },
            invites.clone(),
            api_keys.clone(),
            AuthSettings {
                mode: auth_mode,
                registration: settings.auth.registration,
                access_ttl: Duration::from_secs(settings.auth.access_ttl_secs),
                refresh_ttl: Duration::from_secs(settings.auth.refresh_ttl_secs),
                login_limits: LoginLimitSettings {
                    failures_before_backoff: settings.auth.login_failures_before_backoff,
                    backoff_base: Duration::from_secs(settings.auth.login_backoff_base_secs),
                    backoff_max: Duration::from_secs(settings.auth.login_backoff_max_secs),
                    failures_per_address: settings.auth.login_failures_per_address,
                    window: Duration::from_secs(settings.auth.login_window_secs),
                },
                password_checks: PasswordCheckSettings {
                    at_once: settings.auth.password_threads,
                    queue: settings.auth.password_queue,
                    wait: Duration::from_secs(settings.auth.password_wait_secs),
                },
            },
        )
        .await
        .context("setting up the configured account")?;
        let events = Arc::new(EventService::new(stores.log.clone(), stores.bus.clone()));
        let managed = match (&settings.sandbox.manager_url, &settings.sandbox.manager_token) {
            (Some(url), Some(token)) => Some(ManagedSandboxes::new(url, token)),
            (Some(_), None) => bail!("SANDBOX_MANAGER_URL is set but SANDBOX_MANAGER_TOKEN is not"),
            _ => None,
        };
        let (sandboxes, rented): (Arc<dyn SandboxGateway>, Arc<dyn PausableSandboxes>) = match &managed {
            Some(managed) => (Arc::new(managed.clone()), Arc::new(managed.keeping_files())),
            None => (Arc::new(NoSandboxes), Arc::new(NoSandboxes)),
        };
        let models = settings
            .llm
            .models()
            .map_err(|err| anyhow::anyhow!("configuring the models: {err}"))?;
        let llm = OpenAiModels::new(&models.endpoints, &settings.llm).context("configuring the models")?;
        let models = Arc::new(models.catalog);
        match models.default_model() {
            Some(default) => tracing::info!(
                models = models.list().len(),
                default = default.name.as_str(),
                "models configured"
            ),
            None if settings.agent.enabled => tracing::warn!(
                "no model configured (LLM_BASE_URL, LLM_MODEL, or llm.models): messages get an error event saying so"
            ),
            None => {}
        }
        let sessions = Arc::new(SessionService::new(
            stores.sessions.clone(),
            events.clone(),
            sandboxes.clone(),
            stores.images.clone(),
            models.clone(),
        ));
        let sandbox_files: Arc<dyn SandboxFiles> = Arc::new(ToolApiFiles::default());
        let files = Arc::new(FileService::new(
            sessions.clone(),
            sandboxes.clone(),
            sandbox_files.clone(),
            settings.http.upload_limit_bytes,
        ));
        let web_search = ProviderSearch::from_settings(&settings.search)
            .context("configuring web search (SEARCH_*, BACKEND_SEARCH__TIMEOUT_SECS)")?;
        match &web_search {
            Some(search) => tracing::info!(provider = search.provider_name(), "web search configured"),
            None => tracing::info!(
                "web search is not configured (SEARCH_PROVIDER is not set): the agent is not offered web_search"
            ),
        }
        let mcp_admin = Arc::new(McpServerAdmin::new(stores.mcp_servers.clone()));
        if let Some(path) = &settings.mcp.config_file {
            let from_file = mcp_config::load(path, chrono::Utc::now()).map_err(anyhow::Error::msg)?;
            let seeded = mcp_admin
                .seed(from_file)
                .await
                .context("storing the MCP servers of MCP_CONFIG")?;
            for name in seeded {
                tracing::info!(server = name.as_str(), "MCP server seeded from MCP_CONFIG");
            }
        }
        let mcp: Arc<dyn McpServers> =
            Arc::new(McpHub::new(stores.mcp_servers.clone(), settings.mcp.clone()));
        let memory = Arc::new(MemoryService::new(stores.memory.clone()));
        let toolbox = Arc::new(ToolboxService::new(
            stores.toolbox.clone(),
            sessions.clone(),
            stores.agent_servers.clone(),
            sandboxes.clone(),
            sandbox_files.clone(),
        ));
        let automation_rules = AutomationRules {
            max_per_person: settings.automations.max_per_person,
            max_timeout_secs: settings.jobs.max_timeout_secs,
            min_interval: Duration::from_secs(settings.automations.min_interval_secs),
            max_file_bytes: settings.jobs.max_attachment_bytes.min(MAX_FILES_BYTES),
        };
        let lease = lease_time(settings.agent.lease_secs)?;
        let agent = Arc::new(AgentService::new(
            sessions.clone(),
            Dependencies {
                events: events.clone(),
                sessions: stores.sessions.clone(),
                llm: Arc::new(llm),
                models,
                sandboxes: sandboxes.clone(),
                tools: Arc::new(ToolApiTools::new()),
                files: sandbox_files,
                web_search: web_search.map(|search| Arc::new(search) as Arc<dyn WebSearch>),
                budgets: Budgets {
                    max_steps: settings.agent.max_steps,
                    max_run: Duration::from_secs(settings.agent.max_run_secs),
                    tool_output_chars: settings.agent.tool_output_chars,
                    context_chars: settings.agent.context_chars,
                    failed_cells: settings.agent.failed_cells.max(1),
                    delegations: settings.agent.max_delegations,
                },
                take_over: Arc::default(),
                images: stores.images.clone(),
                mcp: mcp.clone(),
                agent_servers: stores.agent_servers.clone(),
                toolbox: toolbox.clone(),
                daily_tokens: DailyTokens::new(
                    stores.kv.clone(),
                    Some(settings.agent.daily_token_budget).filter(|&budget| budget > 0),
                ),
                memory: memory.clone(),
                automations: stores.automations.clone(),
                automation_rules,
                image_url: http::image_url,
                no_model: NO_MODEL.to_owned(),
            },
            Cluster {
                replica: ReplicaId::new(&std::env::var("HOSTNAME").unwrap_or_else(|_| "backend".into())),
                leases: stores.leases.clone(),
                bus: stores.bus.clone(),
                lease,
                alone: settings.redis_url.is_none(),
            },
            settings.agent.enabled,
        ));
        let holds = Arc::new(Holds::new(HoldCaps {
            streams: settings.http.max_streams_per_person,
            watches: settings.http.max_watches_per_person,
            relays: settings.http.max_relays_per_person,
        }));
        let live = Arc::new(LiveService::new(
            sessions.clone(),
            TicketBook::new(
                sessions.clone(),
                stores.sessions.clone(),
                stores.kv.clone(),
                Duration::from_secs(settings.http.vnc_ticket_secs.max(1)),
            ),
            sandboxes.clone(),
            Connectors {
                desktop: Arc::new(VncConnector),
                terminal: Arc::new(ToolApiTerminals),
            },
            agent.clone(),
            holds.clone(),
        ));
        let interrupted = agent
            .settle_orphans()
            .await
            .context("settling the runs a stopped backend left")?;
        if interrupted > 0 {
            tracing::warn!(
                interrupted,
                "runs interrupted by a stopped backend were marked failed"
            );
        }
        let stopping = CancellationToken::new();
        agent.start(stopping.clone());
        let jobs = Arc::new(JobService::new(
            JobPorts {
                jobs: stores.jobs.clone(),
                attachments: stores.job_attachments.clone(),
                api_keys: stores.api_keys.clone(),
                webhooks: Arc::new(HttpWebhooks::new(settings.jobs.allow_private_webhooks)),
                kv: stores.kv.clone(),
            },
            sessions.clone(),
            agent.clone(),
            events.clone(),
            files.clone(),
            JobSettings {
                max_running_per_person: settings.jobs.max_running_per_person.max(1),
                max_queued_per_person: settings.jobs.max_queued_per_person.max(1),
                default_timeout_secs: settings.jobs.default_timeout_secs,
                max_timeout_secs: settings.jobs.max_timeout_secs,
                max_attachment_bytes: settings.jobs.max_attachment_bytes,
                max_queued_attachment_bytes: settings.jobs.max_queued_attachment_bytes,
            },
            stopping.clone(),
        ));
        let automations = Arc::new(AutomationService::new(
            stores.automations.clone(),
            stores.users.clone(),
            jobs.clone(),
            sessions.clone(),
            AutomationSettings {
                max_failures: settings.automations.max_failures.max(1),
                missed_after: Duration::from_secs(settings.automations.missed_after_secs),
                poll: Duration::from_secs(settings.automations.poll_secs.max(1)),
                max_webhook_bytes: settings.automations.max_webhook_bytes,
                public_url: settings.public_base()?,
                rules: automation_rules,
            },
            stopping.clone(),
        ));
        // Before any job can end: each end of an automation's run is counted there.
        let ends: Weak<dyn JobEnds> = Arc::downgrade(&automations) as Weak<AutomationService>;
        jobs.on_end(ends);
        // After the interrupted runs are failed, so the jobs they carried fail with them.
        let resumed = jobs.resume().await.context("resuming jobs")?;
        if resumed > 0 {
            tracing::info!(resumed, "following the jobs that were going before the restart");
        }
        if settings.redis_url.is_some() {
            // Other replicas may start jobs, and die following them.
            jobs.keep_adopting(lease / 4);
        }
        automations.start_scheduler();
        let e2b = Arc::new(E2bService::new(
            stores.e2b_sandboxes.clone(),
            rented,
            Arc::new(ToolApiEnvironment::default()),
            &e2b_token_secret(&settings.auth)?,
        ));
        e2b.keep_ending_overdue(E2B_SWEEP, stopping.clone());
        let state = AppState {
            auth: Arc::new(auth),
            invites,
            api_keys: api_keys.clone(),
            sessions,
            agent: agent.clone(),
            events,
            files,
            jobs,
            automations,
            e2b,
            relay_http: reqwest::Client::builder()
                .connect_timeout(Duration::from_secs(10))
                .build()
                .context("building the E2B data plane's HTTP client")?,
            live,
            holds,
            stores: Arc::new(Stores {
                database: stores.users.clone(),
                database_name: stores.database_name,
                cache: stores.kv.clone(),
                cache_name: stores.cache_name,
            }),
            mcp,
            mcp_admin,
            memory,
            toolbox,
            stopping: stopping.clone(),
            sse_heartbeat_secs: settings.http.sse_heartbeat_secs.max(1),
            trusted_proxies: settings.http.trusted_proxies.clone(),
            allowed_origins: settings.http.cors_origins.clone().into(),
            secure_cookies: settings.http.secure_cookies,
        };
        let router = http::router(
            state,
            &HttpOptions {
                cors_origins: settings.http.cors_origins.clone(),
                body_limit_bytes: settings.http.body_limit_bytes,
                static_dir: settings.http.static_dir.clone(),
            },
        );
        let address = format!("{}:{}", settings.host, settings.port);
        let listener = TcpListener::bind(&address)
            .await
            .with_context(|| format!("binding {address}"))?;
        Ok(Self {
            listener,
            router,
            stopping,
            api_keys,
            agent,
        })
    }

    pub fn address(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// Serves until SIGTERM or Ctrl-C.
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        self.run_until(service_kit::shutdown_signal()).await
    }

    /// Serves until `stop` completes; then open event streams end, requests in flight
    /// finish, the agent's runs end (their sessions marked interrupted), API keys' uses
    /// are written, and the stores are closed.
    pub async fn run_until(
        self,
        stop: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let stopping = self.stopping.clone();
        // Small writes (an event, a relayed frame) go out at once, not after the peer's
        // delayed ACK.
        let listener = self.listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(
            listener,
            self.router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            stop.await;
            tracing::info!("shutting down: ending event streams, finishing requests");
            stopping.cancel();
        })
        .await
        .context("serving HTTP")?;
        self.agent.shut_down().await;
        self.api_keys.write_usage().await;
        Ok(())
    }
}

/// How often rented sandboxes whose time is up are looked for.
const E2B_SWEEP: Duration = Duration::from_secs(2);

/// What keys the rented sandboxes' access tokens: the token-signing secret, or the
/// private key when tokens are signed with a key pair.
fn e2b_token_secret(config: &AuthConfig) -> anyhow::Result<String> {
    match (&config.jwt_algorithm, &config.jwt_private_key_file) {
        (JwtAlgorithm::Hs256, _) | (_, None) => Ok(config.jwt_secret.clone()),
        (_, Some(file)) => {
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))
        }
    }
}

/// `BACKEND_AGENT__LEASE_SECS` as a duration: a lease renewed every third of it must
/// outlast a slow store's answer, and a dead replica's runs must not wait for hours.
fn lease_time(secs: f64) -> anyhow::Result<Duration> {
    if !(1.0..=3600.0).contains(&secs) {
        anyhow::bail!("BACKEND_AGENT__LEASE_SECS must be between 1 and 3600 seconds, not {secs}");
    }
    Ok(Duration::from_secs_f64(secs))
}

fn auth_mode(config: &AuthConfig) -> anyhow::Result<AuthMode> {
    Ok(match config.mode {
        AuthModeName::Password => AuthMode::Password,
        AuthModeName::None => AuthMode::None,
        AuthModeName::Local => match (&config.local_email, &config.local_password) {
            (Some(email), Some(password)) => AuthMode::Local {
                email: email.clone(),
                password: password.clone(),
            },
            _ => bail!("AUTH_MODE=local needs BACKEND_AUTH__LOCAL_EMAIL and BACKEND_AUTH__LOCAL_PASSWORD"),
        },
    })
}

fn jwt_codec(config: &AuthConfig, environment: Environment) -> anyhow::Result<JwtCodec> {
    let read = |file: &Option<std::path::PathBuf>, what: &str| -> anyhow::Result<Vec<u8>> {
        let file = file
            .as_ref()
            .with_context(|| format!("{what} is required for {:?}", config.jwt_algorithm))?;
        std::fs::read(file).with_context(|| format!("reading {}", file.display()))
    };
    match config.jwt_algorithm {
        JwtAlgorithm::Hs256 => {
            let secret = config.jwt_secret.as_bytes();
            if environment == Environment::Production
                && (config.jwt_secret == DEVELOPMENT_JWT_SECRET || secret.len() < MIN_PRODUCTION_SECRET_BYTES)
            {
                bail!(
                    "refusing to start in production with the default or a short JWT secret: set JWT_SECRET \
                     to at least {MIN_PRODUCTION_SECRET_BYTES} random bytes (e.g. `openssl rand -hex 32`)"
                );
            }
            if config.jwt_secret == DEVELOPMENT_JWT_SECRET {
                tracing::warn!(
                    "using the development JWT secret; set JWT_SECRET before exposing this server"
                );
            }
            JwtCodec::new(SigningKey::Hs256 { secret })
        }
        JwtAlgorithm::Rs256 | JwtAlgorithm::Eddsa => {
            let private_pem = read(&config.jwt_private_key_file, "BACKEND_AUTH__JWT_PRIVATE_KEY_FILE")?;
            let public_pem = read(&config.jwt_public_key_file, "BACKEND_AUTH__JWT_PUBLIC_KEY_FILE")?;
            let key = if config.jwt_algorithm == JwtAlgorithm::Rs256 {
                SigningKey::Rs256 {
                    private_pem: &private_pem,
                    public_pem: &public_pem,
                }
            } else {
                SigningKey::EdDsa {
                    private_pem: &private_pem,
                    public_pem: &public_pem,
                }
            };
            JwtCodec::new(key).context("loading the JWT key pair")
        }
    }
}
