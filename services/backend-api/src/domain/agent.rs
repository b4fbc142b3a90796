//! What the agent works with: the conversation it sends to the model, the tools it may
//! call, and the sandbox it acts in — with the ports to the model provider, the
//! sandbox-manager, the sandbox's tools and the web search the backend runs itself.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::web_search::WebSearchRequest;
use super::error::DomainResult;
use super::image::Picture;
use super::model::ModelName;
use super::sandbox_call::SandboxCall;
use super::session::{Network, SessionId};
use super::tool::{ToolSpec, ToolView};
use super::user::UserId;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChatRole {
    System,
    User,
    Assistant,
    Tool,
}

/// One message of the conversation as chat-completion APIs know it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ChatMessage {
    pub role: ChatRole,
    pub content: Option<String>,
    /// The model's tool calls (assistant messages).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCallRequest>,
    /// The call a tool message answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl ChatMessage {
    pub fn text(role: ChatRole, content: impl Into<String>) -> Self {
        Self {
            role,
            content: Some(content.into()),
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }

    pub fn tool_result(call_id: &str, content: impl Into<String>) -> Self {
        Self {
            role: ChatRole::Tool,
            content: Some(content.into()),
            tool_calls: Vec::new(),
            tool_call_id: Some(call_id.to_owned()),
        }
    }
}

/// A tool call as the model wrote it: `arguments` is its raw JSON text, which may not
/// parse (the run feeds the error back).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ToolCallRequest {
    pub id: String,
    pub name: String,
    pub arguments: String,
}

/// Tokens the model provider counted (and bills).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TokenUsage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

impl TokenUsage {
    pub fn is_empty(&self) -> bool {
        self.prompt_tokens == 0 && self.completion_tokens == 0
    }

    pub fn add(&mut self, more: TokenUsage) {
        self.prompt_tokens = self.prompt_tokens.saturating_add(more.prompt_tokens);
        self.completion_tokens = self.completion_tokens.saturating_add(more.completion_tokens);
    }
}

/// The model's answer to one request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Completion {
    pub content: Option<String>,
    pub tool_calls: Vec<ToolCallRequest>,
    pub usage: TokenUsage,
}

/// The configured models, each behind its OpenAI-compatible chat-completion provider.
#[async_trait::async_trait]
pub trait LlmClient: Send + Sync {
    /// Asks `model` (a name of the [`super::model::ModelCatalog`]). Fails with
    /// `Unavailable` when its provider cannot be reached or keeps failing (after the
    /// adapter's retries), `Invalid` when it refuses the request or the model is not
    /// configured.
    async fn complete(
        &self,
        model: &ModelName,
        messages: &[ChatMessage],
        tools: &[ToolSpec],
    ) -> DomainResult<Completion>;
}

/// How to reach a running sandbox; never shown to a browser.
#[derive(Debug, Clone, PartialEq)]
pub struct SandboxAccess {
    pub tool_api_url: String,
    pub tool_api_token: String,
    /// The shell session the agent's commands run in: [`SandboxAccess::AGENT_SHELL`] for
    /// the session's agent, one of its own for each sub-agent sharing the sandbox, so
    /// their commands run side by side (a person's terminal is another still).
    pub shell: String,
    /// What the sandbox may use.
    pub size: SandboxSize,
}

/// A sandbox's CPU and memory limits, as its manager set them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SandboxSize {
    pub cpus: f64,
    pub memory_mb: u64,
}

impl SandboxAccess {
    pub const AGENT_SHELL: &'static str = "agent";

    /// The same sandbox, with commands in the shell session `shell`.
    pub fn in_shell(&self, shell: String) -> Self {
        Self {
            shell,
            ..self.clone()
        }
    }
}

/// The sandbox-manager, as far as sessions need it.
#[async_trait::async_trait]
pub trait SandboxGateway: Send + Sync {
    /// The sandbox of `session` (a session's id, or a sub-agent's own key), claimed or
    /// created, once it answers. One that does not run yet is made with `network` (the
    /// network of the session it works for; `None`: the manager's default); one that runs
    /// keeps its own.
    async fn acquire(
        &self,
        session: &SessionId,
        owner: &UserId,
        network: Option<Network>,
    ) -> DomainResult<SandboxAccess>;
    /// The session's sandbox when one runs and answers; never creates one.
    async fn find(&self, session: &SessionId) -> DomainResult<Option<SandboxAccess>>;
    /// Removes the session's sandbox, if it has one.
    async fn release(&self, session: &SessionId) -> DomainResult<()>;
}

/// What a tool call gave: text for the model, a view for the person.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutcome {
    pub text: String,
    pub view: ToolView,
    /// Pictures for the view's image slots ([`ToolView::image_slots`]), in order: what the
    /// browser showed after a browser tool, a code cell's charts. The run stores them and
    /// puts their addresses into the view.
    pub images: Vec<Picture>,
}

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
