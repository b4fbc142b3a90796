//! What the agent works with: the conversation it sends to the model, what a tool call
//! gave, and how it reaches the sandbox it acts in. Values only: the ports to the model
//! provider, the sandbox-manager and the tools are in [`super::ports`].

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::image::Picture;
use super::tool::ToolView;

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
