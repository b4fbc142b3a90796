//! The port of each person's tool box: the tools they kept (files and all), and the ones
//! an admin published for everyone.

use crate::domain::error::DomainResult;
use crate::domain::ids::KeptToolId;
use crate::domain::toolbox::{KeptInsert, KeptTool};
use crate::domain::user::UserId;

#[async_trait::async_trait]
pub trait ToolboxRepository: Send + Sync {
    /// The person's kept tools, by name; every person's when `owner` is `None`.
    async fn kept_tools(&self, owner: Option<&UserId>) -> DomainResult<Vec<KeptTool>>;
    /// The published tools, of anyone, by name.
    async fn published_tools(&self) -> DomainResult<Vec<KeptTool>>;
    async fn kept_tool(&self, id: &KeptToolId) -> DomainResult<Option<KeptTool>>;
    /// Stores a new kept tool unless its owner keeps one of its name or
    /// `max_per_owner` already, decided in one step with the insert so keeps racing
    /// cannot pass the cap or share a name together.
    async fn insert_kept_tool(&self, tool: &KeptTool, max_per_owner: usize) -> DomainResult<KeptInsert>;
    /// Keeps `tool`, replacing the stored one of its id.
    async fn put_kept_tool(&self, tool: &KeptTool) -> DomainResult<()>;
    /// Forgets it (none is fine).
    async fn remove_kept_tool(&self, id: &KeptToolId) -> DomainResult<()>;
}
