//! Chooses the adapters from the configuration: MongoDB when `MONGODB_URI` is set (else
//! the embedded store) for users, sessions, events, refresh tokens, images (screenshots, charts), MCP
//! servers, API keys, jobs and their attachments, rented sandboxes, people's memory, the agent's own MCP servers, people's tool boxes; Redis when `REDIS_URL` is set for the key-value store, the run
//! leases and the fan-out between replicas (else the embedded store, leases and fan-out in
//! this process, which serve one replica).

use std::sync::Arc;

use crate::config::Settings;
use crate::domain::ports::{
    AgentServerRepository, ApiKeyRepository, AutomationRepository, DataDiskStatus, E2bSandboxRepository,
    EventBus, EventLog, ImageStore, JobAttachmentStore, JobRepository, KeyValueStore, McpServerRepository,
    MemoryRepository, RefreshTokenStore, RunLeases, SessionRepository, ToolboxRepository, UserRepository,
};
use crate::infrastructure::embedded::EmbeddedStore;
use crate::infrastructure::local_bus::LocalBus;
use crate::infrastructure::local_leases::LocalLeases;
use crate::infrastructure::mongo::MongoStore;
use crate::infrastructure::redis::{RedisBus, RedisStore};

/// Every storage port, each backed by the adapter the configuration picked.
pub struct StoragePorts {
    pub users: Arc<dyn UserRepository>,
    pub sessions: Arc<dyn SessionRepository>,
    pub log: Arc<dyn EventLog>,
    pub refresh_tokens: Arc<dyn RefreshTokenStore>,
    pub images: Arc<dyn ImageStore>,
    pub mcp_servers: Arc<dyn McpServerRepository>,
    pub api_keys: Arc<dyn ApiKeyRepository>,
    pub jobs: Arc<dyn JobRepository>,
    pub job_attachments: Arc<dyn JobAttachmentStore>,
    pub e2b_sandboxes: Arc<dyn E2bSandboxRepository>,
    pub automations: Arc<dyn AutomationRepository>,
    pub memory: Arc<dyn MemoryRepository>,
    pub agent_servers: Arc<dyn AgentServerRepository>,
    pub toolbox: Arc<dyn ToolboxRepository>,
    pub kv: Arc<dyn KeyValueStore>,
    pub leases: Arc<dyn RunLeases>,
    pub bus: Arc<dyn EventBus>,
    /// The disk the embedded store's file lives on, when one is open.
    pub disk: Option<Arc<dyn DataDiskStatus>>,
    /// What `/ready` calls them.
    pub database_name: &'static str,
    pub cache_name: &'static str,
}

/// The database ports, all from one adapter.
struct Database {
    users: Arc<dyn UserRepository>,
    sessions: Arc<dyn SessionRepository>,
    log: Arc<dyn EventLog>,
    refresh_tokens: Arc<dyn RefreshTokenStore>,
    images: Arc<dyn ImageStore>,
    mcp_servers: Arc<dyn McpServerRepository>,
    api_keys: Arc<dyn ApiKeyRepository>,
    jobs: Arc<dyn JobRepository>,
    job_attachments: Arc<dyn JobAttachmentStore>,
    e2b_sandboxes: Arc<dyn E2bSandboxRepository>,
    automations: Arc<dyn AutomationRepository>,
    memory: Arc<dyn MemoryRepository>,
    agent_servers: Arc<dyn AgentServerRepository>,
    toolbox: Arc<dyn ToolboxRepository>,
    name: &'static str,
}

impl Database {
    fn from<S>(store: Arc<S>, name: &'static str) -> Self
    where
        S: UserRepository
            + SessionRepository
            + EventLog
            + RefreshTokenStore
            + ImageStore
            + McpServerRepository
            + ApiKeyRepository
            + JobRepository
            + JobAttachmentStore
            + E2bSandboxRepository
            + AutomationRepository
            + MemoryRepository
            + AgentServerRepository
            + ToolboxRepository
            + 'static,
    {
        Self {
            users: store.clone(),
            sessions: store.clone(),
            log: store.clone(),
            refresh_tokens: store.clone(),
            images: store.clone(),
            mcp_servers: store.clone(),
            api_keys: store.clone(),
            jobs: store.clone(),
            job_attachments: store.clone(),
            e2b_sandboxes: store.clone(),
            automations: store.clone(),
            memory: store.clone(),
            agent_servers: store.clone(),
            toolbox: store,
            name,
        }
    }
}

impl StoragePorts {
    pub async fn open(settings: &Settings) -> anyhow::Result<Self> {
        // Opened only when something lives in it, since it locks the data directory.
        let embedded = match (&settings.mongodb_uri, &settings.redis_url) {
            (Some(_), Some(_)) => None,
            _ => Some(Arc::new(EmbeddedStore::open(&settings.data_dir)?)),
        };
        let disk = embedded.as_ref().map(|embedded| embedded.disk());
        if let Some(disk) = &disk {
            disk.clone().watch(settings.data_dir_low_space_mb * 1024 * 1024);
        }
        let database = match (&settings.mongodb_uri, &embedded) {
            (Some(uri), _) => Database::from(
                Arc::new(MongoStore::connect(uri, &settings.mongodb_database).await?),
                "database (MongoDB)",
            ),
            (None, Some(embedded)) => Database::from(embedded.clone(), "embedded store"),
            (None, None) => unreachable!("the embedded store is open without MONGODB_URI"),
        };
        type Shared = (
            Arc<dyn KeyValueStore>,
            Arc<dyn RunLeases>,
            Arc<dyn EventBus>,
            &'static str,
        );
        let (kv, leases, bus, cache_name): Shared = match (&settings.redis_url, embedded) {
            (Some(url), _) => {
                let redis = Arc::new(RedisStore::connect(url, &settings.redis_key_prefix).await?);
                let bus = RedisBus::start(RedisStore::clone(&redis)).await?;
                (redis.clone(), redis, Arc::new(bus), "cache (Redis)")
            }
            (None, Some(embedded)) => (
                embedded,
                Arc::new(LocalLeases::default()),
                Arc::new(LocalBus::new()),
                "embedded key-value store",
            ),
            (None, None) => unreachable!("the embedded store is open without REDIS_URL"),
        };
        Ok(Self {
            users: database.users,
            sessions: database.sessions,
            log: database.log,
            refresh_tokens: database.refresh_tokens,
            images: database.images,
            mcp_servers: database.mcp_servers,
            api_keys: database.api_keys,
            jobs: database.jobs,
            job_attachments: database.job_attachments,
            e2b_sandboxes: database.e2b_sandboxes,
            automations: database.automations,
            memory: database.memory,
            agent_servers: database.agent_servers,
            toolbox: database.toolbox,
            kv,
            leases,
            bus,
            disk: disk.map(|disk| disk as Arc<dyn DataDiskStatus>),
            database_name: database.name,
            cache_name,
        })
    }
}
