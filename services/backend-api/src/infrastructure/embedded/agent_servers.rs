//! The MCP servers the agent registered, in the embedded store: keyed by session and
//! name, so a session's are one range (removed with the session).

use redb::ReadableDatabase;

use super::{decode, EmbeddedStore, AGENT_SERVERS};
use crate::domain::agent_server::AgentServer;
use crate::domain::mcp::McpServerName;
use crate::domain::ports::AgentServerRepository;
use crate::domain::session::SessionId;
use crate::domain::DomainResult;

#[async_trait::async_trait]
impl AgentServerRepository for EmbeddedStore {
    async fn agent_servers(&self, session: &SessionId) -> DomainResult<Vec<AgentServer>> {
        let session = session.clone();
        self.blocking(move |db| {
            let table = db.begin_read()?.open_table(AGENT_SERVERS)?;
            let id = session.as_str();
            let mut servers = Vec::new();
            for entry in table.range((id, "")..=(id, "~"))? {
                servers.push(decode(entry?.1.value())?);
            }
            Ok(servers)
        })
        .await
    }

    async fn put_agent_server(&self, server: &AgentServer) -> DomainResult<()> {
        let server = server.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            {
                let key = (server.session_id.as_str(), server.name.as_str());
                txn.open_table(AGENT_SERVERS)?
                    .insert(key, serde_json::to_vec(&server)?.as_slice())?;
            }
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn remove_agent_server(&self, session: &SessionId, name: &McpServerName) -> DomainResult<()> {
        let (session, name) = (session.clone(), name.clone());
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(AGENT_SERVERS)?
                .remove((session.as_str(), name.as_str()))?;
            txn.commit()?;
            Ok(())
        })
        .await
    }
}
