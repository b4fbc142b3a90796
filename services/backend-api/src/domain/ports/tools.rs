//! The ports of the agent's tools: those that act inside a sandbox, and the web search
//! the backend runs itself.

use crate::domain::agent::{SandboxAccess, ToolOutcome};
use crate::domain::error::DomainResult;
use crate::domain::sandbox_call::SandboxCall;
use crate::domain::web_search::WebSearchRequest;

/// The tools that act inside a sandbox (shell, files, browser, code, page fetch).
#[async_trait::async_trait]
pub trait SandboxTools: Send + Sync {
    /// Runs one call; a failure of the tool itself is an outcome with an error view, an
    /// `Err` means the sandbox could not be reached.
    async fn call(&self, sandbox: &SandboxAccess, call: &SandboxCall) -> DomainResult<ToolOutcome>;
    /// Ends whatever command the agent's shell is running (on stop).
    async fn interrupt(&self, sandbox: &SandboxAccess) -> DomainResult<()>;
}

/// Web search through the operator's provider, run by the backend: the provider's key
/// stays here, out of every sandbox, and a search needs no sandbox.
#[async_trait::async_trait]
pub trait WebSearch: Send + Sync {
    /// Runs one search. A failure (a blank query, a refused key, a provider that does not
    /// answer) is an outcome with an error view for the model to read, never an error
    /// that ends the turn.
    async fn search(&self, request: &WebSearchRequest) -> ToolOutcome;
}
