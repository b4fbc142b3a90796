//! The MCP servers the agent gets tools from, as admins manage them: list, add, change
//! (enable, disable, new address, keys), delete; and the seeding of the store from the
//! `MCP_CONFIG` file at start-up.
//!
//! The seeding rule: the file seeds each server name once. A name the store has never
//! had from the file is inserted as the file says (disabled when it says
//! `"disabled": true`), unless an admin already added a server of that name, which
//! stays as it is. From then on the store owns the server: the file does not overwrite
//! an admin's changes, and a server an admin deleted is not brought back, because the
//! store remembers the names the file has seeded.

use std::sync::Arc;

use chrono::Utc;

use super::error::{AppError, AppResult};
use super::principal::{require_admin, Principal};
use crate::domain::mcp::{McpServer, McpServerName};
use crate::domain::mcp_edit::McpServerInput;
use crate::domain::ports::McpServerRepository;
use crate::domain::DomainError;

pub struct McpServerAdmin {
    store: Arc<dyn McpServerRepository>,
}

impl McpServerAdmin {
    pub fn new(store: Arc<dyn McpServerRepository>) -> Self {
        Self { store }
    }

    /// Inserts the file's servers the seeding rule lets in; the names inserted.
    pub async fn seed(&self, from_file: Vec<McpServer>) -> AppResult<Vec<McpServerName>> {
        let mut inserted = Vec::new();
        for server in from_file {
            if self.store.seeded(&server.name).await? {
                continue;
            }
            // Inserted before the name is marked: a start cut short in between inserts
            // the server again next time, finds it there, and marks it then.
            match self.store.insert(&server).await {
                Ok(()) => inserted.push(server.name.clone()),
                Err(DomainError::Conflict(_)) => {}
                Err(err) => return Err(err.into()),
            }
            self.store.mark_seeded(&server.name).await?;
        }
        Ok(inserted)
    }

    /// Every server, enabled or not, by name (admins only).
    pub async fn list(&self, principal: &Principal) -> AppResult<Vec<McpServer>> {
        require_admin(principal)?;
        Ok(self.store.list().await?)
    }

    /// Adds a server (admins only); `Conflict` when the name is taken.
    pub async fn add(&self, principal: &Principal, input: McpServerInput) -> AppResult<McpServer> {
        require_admin(principal)?;
        let server = McpServer::create(input, Utc::now())?;
        self.store.insert(&server).await?;
        tracing::info!(
            server = server.name.as_str(),
            enabled = server.enabled,
            "MCP server added"
        );
        Ok(server)
    }

    /// Changes what `input` gives (admins only). Two admins editing one server at the
    /// same moment: the later write wins.
    pub async fn edit(
        &self,
        principal: &Principal,
        name: &str,
        input: McpServerInput,
    ) -> AppResult<McpServer> {
        require_admin(principal)?;
        let stored = self.store.get(&known(name)?).await?.ok_or(NOT_FOUND)?;
        let server = stored.edit(input, Utc::now())?;
        self.store.update(&server).await?;
        tracing::info!(
            server = server.name.as_str(),
            enabled = server.enabled,
            "MCP server changed"
        );
        Ok(server)
    }

    /// Deletes a server (admins only); the file does not bring it back.
    pub async fn remove(&self, principal: &Principal, name: &str) -> AppResult<()> {
        require_admin(principal)?;
        let name = known(name)?;
        self.store.delete(&name).await?;
        tracing::info!(server = name.as_str(), "MCP server deleted");
        Ok(())
    }
}

const NOT_FOUND: AppError = AppError::NotFound("MCP server");

/// A name from a path: one that breaks the naming rules names no server.
fn known(name: &str) -> AppResult<McpServerName> {
    McpServerName::parse(name).map_err(|_| NOT_FOUND)
}
