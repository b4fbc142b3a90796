//! The port of each person's tool box: the tools they kept (files and all), and the ones
//! an admin published for everyone.

use crate::domain::error::DomainResult;
use crate::domain::ids::KeptToolId;
use crate::domain::toolbox::KeptTool;
use crate::domain::user::UserId;

#[async_trait::async_trait]
pub trait ToolboxRepository: Send + Sync {
    /// The person's kept tools, by name; every person's when `owner` is `None`.
    async fn kept_tools(&self, owner: Option<&UserId>) -> DomainResult<Vec<KeptTool>>;
    /// The published tools, of anyone, by name.
    async fn published_tools(&self) -> DomainResult<Vec<KeptTool>>;
    async fn kept_tool(&self, id: &KeptToolId) -> DomainResult<Option<KeptTool>>;
    /// Keeps `tool`, replacing the stored one of its id.
    async fn put_kept_tool(&self, tool: &KeptTool) -> DomainResult<()>;
    /// Forgets it (none is fine).
    async fn remove_kept_tool(&self, id: &KeptToolId) -> DomainResult<()>;
}
