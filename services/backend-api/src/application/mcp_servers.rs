//! The MCP servers the agent gets tools from, as stored: the seeding of the store from
//! the `MCP_CONFIG` file at start-up.
//!
//! The seeding rule: the file seeds each server name once. A name the store has never
//! had from the file is inserted as the file says (disabled when it says
//! `"disabled": true`), unless a server of that name is stored already, which stays as
//! it is. From then on the store owns the server: the file does not overwrite changes
//! made to it, and a server deleted from the store is not brought back, because the
//! store remembers the names the file has seeded.

use std::sync::Arc;

use super::error::AppResult;
use crate::domain::mcp::{McpServer, McpServerName};
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
}
