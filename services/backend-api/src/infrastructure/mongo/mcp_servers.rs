//! MCP servers in MongoDB, one document per server, and the names the `MCP_CONFIG` file
//! has seeded in a collection of their own (kept when a server is deleted, so the file
//! does not bring it back). Unique indexes on `name` make two replicas seeding at once,
//! or two admins adding one name, end with one document.

use mongodb::bson::doc;

use super::{all, failure, is_duplicate_key, MongoStore};
use crate::domain::mcp::{McpServer, McpServerName};
use crate::domain::ports::McpServerRepository;
use crate::domain::{DomainError, DomainResult};

#[async_trait::async_trait]
impl McpServerRepository for MongoStore {
    async fn list(&self) -> DomainResult<Vec<McpServer>> {
        all(self.mcp_servers.find(doc! {}).sort(doc! { "name": 1 })).await
    }

    async fn get(&self, name: &McpServerName) -> DomainResult<Option<McpServer>> {
        self.mcp_servers
            .find_one(doc! { "name": name.as_str() })
            .await
            .map_err(failure)
    }

    async fn insert(&self, server: &McpServer) -> DomainResult<()> {
        match self.mcp_servers.insert_one(server).await {
            Ok(_) => Ok(()),
            Err(err) if is_duplicate_key(&err) => Err(DomainError::Conflict(format!(
                "an MCP server called {:?} exists already",
                server.name.as_str()
            ))),
            Err(err) => Err(failure(err)),
        }
    }

    async fn update(&self, server: &McpServer) -> DomainResult<()> {
        let replaced = self
            .mcp_servers
            .replace_one(doc! { "name": server.name.as_str() }, server)
            .await
            .map_err(failure)?;
        if replaced.matched_count == 0 {
            return Err(DomainError::NotFound("MCP server"));
        }
        Ok(())
    }

    async fn delete(&self, name: &McpServerName) -> DomainResult<()> {
        let deleted = self
            .mcp_servers
            .delete_one(doc! { "name": name.as_str() })
            .await
            .map_err(failure)?;
        if deleted.deleted_count == 0 {
            return Err(DomainError::NotFound("MCP server"));
        }
        Ok(())
    }

    async fn seeded(&self, name: &McpServerName) -> DomainResult<bool> {
        let found = self
            .mcp_seeded
            .find_one(doc! { "name": name.as_str() })
            .await
            .map_err(failure)?;
        Ok(found.is_some())
    }

    async fn mark_seeded(&self, name: &McpServerName) -> DomainResult<()> {
        match self.mcp_seeded.insert_one(doc! { "name": name.as_str() }).await {
            Err(err) if !is_duplicate_key(&err) => Err(failure(err)),
            _ => Ok(()),
        }
    }
}
