//! The ports of MCP servers: the admin's configured servers, and the servers themselves
//! (the admin's and those the agent registered) as the run and the API reach them.

use crate::domain::agent_server::AgentServer;
use crate::domain::error::DomainResult;
use crate::domain::mcp::{McpResult, McpServer, McpServerName, McpServerStatus, McpSite, McpTool};

/// The MCP servers admins configured, and the names the `MCP_CONFIG` file has seeded (so
/// a server an admin deleted is not brought back by the file).
#[async_trait::async_trait]
pub trait McpServerRepository: Send + Sync {
    /// Every server, enabled or not, by name.
    async fn list(&self) -> DomainResult<Vec<McpServer>>;
    async fn get(&self, name: &McpServerName) -> DomainResult<Option<McpServer>>;
    /// Fails with `Conflict` when the name is taken.
    async fn insert(&self, server: &McpServer) -> DomainResult<()>;
    /// Replaces the server of that name; `NotFound` when there is none.
    async fn update(&self, server: &McpServer) -> DomainResult<()>;
    /// `NotFound` when there is none. The name stays seeded.
    async fn delete(&self, name: &McpServerName) -> DomainResult<()>;
    /// Whether the file has seeded this name before.
    async fn seeded(&self, name: &McpServerName) -> DomainResult<bool>;
    /// Remembers that the file has seeded this name (again is fine).
    async fn mark_seeded(&self, name: &McpServerName) -> DomainResult<()>;
}

/// The MCP servers of the deployment.
///
/// What a sandbox produced never reaches another person: a stdio server runs in the
/// sandbox of the session that needs it, as its user, so the tools it lists (their names,
/// descriptions and schemas) are that session's only — kept with its server, offered to
/// its runs, and never shown without its site.
#[async_trait::async_trait]
pub trait McpServers: Send + Sync {
    /// Every server with its tools (listed now, or the reason it has none). A stdio
    /// server's tools are those its own server in `site` lists (started there when it
    /// runs none); without a site it shows none.
    async fn status(&self, site: Option<&McpSite>) -> Vec<McpServerStatus>;
    /// Whether an enabled server runs in the sandbox (a run then gives
    /// [`McpServers::status`] its sandbox).
    async fn needs_site(&self) -> bool;
    /// Whether `server` runs in the sandbox (its calls need a site).
    fn runs_in_sandbox(&self, server: &str) -> bool;
    /// Calls `tool` on `server`; `Err` says why the server gave no result.
    async fn call(
        &self,
        server: &str,
        tool: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
        site: Option<&McpSite>,
    ) -> Result<McpResult, String>;
    /// Whether an admin configured a server called `name`, enabled or not (the agent may
    /// not register one under it). A store that does not answer counts as yes.
    async fn configured(&self, name: &McpServerName) -> bool;
    /// Starts `command` in `site`'s sandbox as that session's own server `name`
    /// (stopping one of that name it replaces), with no environment of the deployment's,
    /// and lists its tools as it listed them; `Err` says why it could not (with how the
    /// process ended, when it did).
    async fn start_agent_server(
        &self,
        site: &McpSite,
        name: &McpServerName,
        command: &str,
        args: &[String],
    ) -> Result<Vec<McpTool>, String>;
    /// Calls `tool` of a server the session registered, started again in `site` when
    /// none runs there; `Err` says why it gave no result.
    async fn call_agent_server(
        &self,
        site: &McpSite,
        server: &AgentServer,
        tool: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
    ) -> Result<McpResult, String>;
    /// Stops the session's server `name` in `site`, if one runs.
    fn stop_agent_server(&self, site: &McpSite, name: &McpServerName);
}
