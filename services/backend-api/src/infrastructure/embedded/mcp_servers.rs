//! MCP servers in the embedded store, by name, and the names the `MCP_CONFIG` file has
//! seeded (kept when a server is deleted, so the file does not bring it back).

use redb::{ReadableDatabase, ReadableTable};

use super::{decode, EmbeddedStore, MCP_SEEDED, MCP_SERVERS};
use crate::domain::mcp::{McpServer, McpServerName};
use crate::domain::ports::McpServerRepository;
use crate::domain::{DomainError, DomainResult};

/// Writes `server` under its name when `exists` says the table is in the right state
/// for it (absent to insert, present to replace); whether it did.
fn put_if(db: &redb::Database, server: &McpServer, exists: bool) -> anyhow::Result<bool> {
    let txn = db.begin_write()?;
    {
        let mut table = txn.open_table(MCP_SERVERS)?;
        let name = server.name.as_str();
        if table.get(name)?.is_some() != exists {
            return Ok(false);
        }
        table.insert(name, serde_json::to_vec(server)?.as_slice())?;
    }
    txn.commit()?;
    Ok(true)
}

#[async_trait::async_trait]
impl McpServerRepository for EmbeddedStore {
    async fn list(&self) -> DomainResult<Vec<McpServer>> {
        self.blocking(|db| {
            let table = db.begin_read()?.open_table(MCP_SERVERS)?;
            let mut servers = Vec::new();
            for entry in table.iter()? {
                servers.push(decode(entry?.1.value())?);
            }
            Ok(servers)
        })
        .await
    }

    async fn get(&self, name: &McpServerName) -> DomainResult<Option<McpServer>> {
        let name = name.clone();
        self.blocking(move |db| {
            let table = db.begin_read()?.open_table(MCP_SERVERS)?;
            let found = table.get(name.as_str())?;
            found.map(|server| decode(server.value())).transpose()
        })
        .await
    }

    async fn insert(&self, server: &McpServer) -> DomainResult<()> {
        let server = server.clone();
        let name = server.name.clone();
        if self.blocking(move |db| put_if(db, &server, false)).await? {
            Ok(())
        } else {
            Err(DomainError::Conflict(format!(
                "an MCP server called {:?} exists already",
                name.as_str()
            )))
        }
    }

    async fn update(&self, server: &McpServer) -> DomainResult<()> {
        let server = server.clone();
        if self.blocking(move |db| put_if(db, &server, true)).await? {
            Ok(())
        } else {
            Err(DomainError::NotFound("MCP server"))
        }
    }

    async fn delete(&self, name: &McpServerName) -> DomainResult<()> {
        let name = name.clone();
        let deleted = self
            .blocking(move |db| {
                let txn = db.begin_write()?;
                let deleted = txn.open_table(MCP_SERVERS)?.remove(name.as_str())?.is_some();
                txn.commit()?;
                Ok(deleted)
            })
            .await?;
        if deleted {
            Ok(())
        } else {
            Err(DomainError::NotFound("MCP server"))
        }
    }

    async fn seeded(&self, name: &McpServerName) -> DomainResult<bool> {
        let name = name.clone();
        self.blocking(move |db| {
            let table = db.begin_read()?.open_table(MCP_SEEDED)?;
            Ok(table.get(name.as_str())?.is_some())
        })
        .await
    }

    async fn mark_seeded(&self, name: &McpServerName) -> DomainResult<()> {
        let name = name.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(MCP_SEEDED)?.insert(name.as_str(), ())?;
            txn.commit()?;
            Ok(())
        })
        .await
    }
}
