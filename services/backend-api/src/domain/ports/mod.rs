//! The ports: what the application needs from the outside world, as traits. Adapters in
//! `infrastructure` implement them (MongoDB, Redis, the embedded store, argon2, JWT, the
//! sandbox-manager, tool-api, the model providers); the application sees only these, by
//! the names this module exports.
//!
//! # Layout
//!
//! One file per family of ports, each naming only the domain's values (never another
//! port family, but for a port that extends one):
//! - `accounts.rs`: users, API keys, refresh tokens, password hashing, access tokens;
//! - `automations.rs`: automations, their fire times and history;
//! - `sessions.rs`: sessions, their event log and images, the event bus, run leases;
//! - `disk.rs`: the disk a store on this machine writes to, for `/health`;
//! - `key_value.rs`: short-lived keys (revocations, counters, tickets);
//! - `jobs.rs`: headless jobs, their files, their webhooks;
//! - `e2b.rs`: rented sandboxes, pausing them, their environment;
//! - `llm.rs`: the model providers;
//! - `sandbox.rs`: a session's sandbox from the sandbox-manager, and its files;
//! - `tools.rs`: the sandbox's tools and the backend's web search;
//! - `live.rs`: a sandbox's desktop and terminal, for the person taking over;
//! - `mcp.rs`: the admin's MCP servers and the servers themselves;
//! - `agent_servers.rs`: the MCP servers the agent registered in a session;
//! - `memory.rs`: each person's notes across chats, and what each chat's prompt got;
//! - `toolbox.rs`: each person's kept tools, and the published ones.

mod accounts;
mod agent_servers;
mod automations;
mod disk;
mod e2b;
mod jobs;
mod key_value;
mod live;
mod llm;
mod mcp;
mod memory;
mod sandbox;
mod sessions;
mod toolbox;
mod tools;

pub use accounts::{
    AccessClaims, AccessTokenCodec, ApiKeyRepository, PasswordHasher, RefreshToken, RefreshTokenStore,
    UserRepository,
};
pub use agent_servers::AgentServerRepository;
pub use automations::{AutomationFiles, AutomationRepository};
pub use disk::{DataDiskStatus, DiskReading, DiskState};
pub use e2b::{E2bSandboxRepository, PausableSandboxes, SandboxEnvironment, Updated};
pub use jobs::{JobAttachmentStore, JobRepository, WebhookSender};
pub use key_value::KeyValueStore;
pub use live::{DesktopConnector, DesktopStream, TerminalConnector};
pub use llm::LlmClient;
pub use mcp::{McpServerRepository, McpServers};
pub use memory::MemoryRepository;
pub use sandbox::{SandboxFiles, SandboxGateway};
pub use sessions::{AppendId, EventBus, EventLog, ImageStore, RunLeases, SessionChange, SessionRepository};
pub use toolbox::ToolboxRepository;
pub use tools::{SandboxTools, WebSearch};
