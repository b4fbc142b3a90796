//! The MCP servers the agent registered, in MongoDB: `agent_servers`, unique by session
//! and name, each written whole by an upsert (removed with the session).

use mongodb::bson::doc;

use super::{all, failure, MongoStore};
use crate::domain::agent_server::AgentServer;
use crate::domain::mcp::McpServerName;
use crate::domain::ports::AgentServerRepository;
use crate::domain::session::SessionId;
use crate::domain::DomainResult;

#[async_trait::async_trait]
impl AgentServerRepository for MongoStore {
    async fn agent_servers(&self, session: &SessionId) -> DomainResult<Vec<AgentServer>> {
        let find = self
            .agent_servers
            .find(doc! { "session_id": session.as_str() })
            .sort(doc! { "name": 1 });
        all(find).await
    }

    async fn put_agent_server(&self, server: &AgentServer) -> DomainResult<()> {
        let key = doc! { "session_id": server.session_id.as_str(), "name": server.name.as_str() };
        self.agent_servers
            .replace_one(key, server)
            .upsert(true)
            .await
            .map_err(failure)?;
        Ok(())
    }

    async fn remove_agent_server(&self, session: &SessionId, name: &McpServerName) -> DomainResult<()> {
        self.agent_servers
            .delete_one(doc! { "session_id": session.as_str(), "name": name.as_str() })
            .await
            .map_err(failure)?;
        Ok(())
    }
}
