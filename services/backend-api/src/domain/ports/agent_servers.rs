//! The port of the MCP servers the agent registered, kept with their session (removed
//! with it): what a later turn, on any replica, offers again.

use crate::domain::agent_server::AgentServer;
use crate::domain::error::DomainResult;
use crate::domain::mcp::McpServerName;
use crate::domain::session::SessionId;

#[async_trait::async_trait]
pub trait AgentServerRepository: Send + Sync {
    /// The session's servers, by name.
    async fn agent_servers(&self, session: &SessionId) -> DomainResult<Vec<AgentServer>>;
    /// Keeps `server`, replacing the session's server of the same name. The number a
    /// session keeps is checked by its run, the one writer a session has at a time.
    async fn put_agent_server(&self, server: &AgentServer) -> DomainResult<()>;
    /// Forgets the session's server of that name (none is fine).
    async fn remove_agent_server(&self, session: &SessionId, name: &McpServerName) -> DomainResult<()>;
}
