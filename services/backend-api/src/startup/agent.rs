//! The agent wired with what it works on: sandboxes (managed, or none), the configured
//! models, sessions and their files, web search, MCP servers, memory and the tool box.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};

use crate::application::agent::{AgentService, Budgets, Cluster, DailyTokens, Dependencies};
use crate::application::automations::rules::AutomationRules;
use crate::application::events::EventService;
use crate::application::files::FileService;
use crate::application::mcp_servers::McpServerAdmin;
use crate::application::memory::MemoryService;
use crate::application::sessions::SessionService;
use crate::application::toolbox::ToolboxService;
use crate::config::Settings;
use crate::domain::automation::MAX_FILES_BYTES;
use crate::domain::ports::{McpServers, PausableSandboxes, SandboxFiles, SandboxGateway, WebSearch};
use crate::domain::replica::ReplicaId;
use crate::infrastructure::llm::OpenAiModels;
use crate::infrastructure::mcp::{config as mcp_config, McpHub};
use crate::infrastructure::sandbox_files::ToolApiFiles;
use crate::infrastructure::sandbox_gateway::{ManagedSandboxes, NoSandboxes};
use crate::infrastructure::sandbox_tools::ToolApiTools;
use crate::infrastructure::stores::StoragePorts;
use crate::infrastructure::web_search::ProviderSearch;
use crate::interfaces::http;

/// What a person reads when no model is configured, naming the settings that configure one.
const NO_MODEL: &str = "No model is configured. Set LLM_BASE_URL and LLM_MODEL (and LLM_API_KEY if the \
                        provider needs one), or list models in the configuration, then restart the backend.";

/// The agent and the services it shares with the HTTP interface and the jobs.
pub(super) struct AgentParts {
    /// Rented sandboxes, kept with their files while paused (E2B).
    pub rented: Arc<dyn PausableSandboxes>,
    pub sandboxes: Arc<dyn SandboxGateway>,
    pub sessions: Arc<SessionService>,
    pub files: Arc<FileService>,
    pub mcp_admin: Arc<McpServerAdmin>,
    pub mcp: Arc<dyn McpServers>,
    pub memory: Arc<MemoryService>,
    pub toolbox: Arc<ToolboxService>,
    pub automation_rules: AutomationRules,
    /// How long a run's lease lasts unrenewed.
    pub lease: Duration,
    pub agent: Arc<AgentService>,
}

impl AgentParts {
    pub(super) async fn build(
        settings: &Settings,
        stores: &StoragePorts,
        events: &Arc<EventService>,
    ) -> anyhow::Result<Self> {
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
        Ok(Self {
            rented,
            sandboxes,
            sessions,
            files,
            mcp_admin,
            mcp,
            memory,
            toolbox,
            automation_rules,
            lease,
            agent,
        })
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
