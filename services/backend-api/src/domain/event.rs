//! Agent events: everything observable in a session, in the vocabulary users of agent
//! tools know. Each is stored with a per-session, gap-free sequence number before it is
//! published; the SSE `id:` is that number.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::agent::ChatMessage;
use super::logged_call::LoggedCall;
pub use super::plan::{PlanStep, StepStatus};
use super::session::{SessionId, SessionStatus};
use super::tool::ToolView;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AgentEvent {
    /// A chat message from the person or the assistant.
    Message {
        role: MessageRole,
        content: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        attachments: Vec<String>,
    },
    /// The agent's plan: its steps, in order.
    Plan { steps: Vec<PlanStep> },
    /// A plan step changed state.
    Step {
        step_id: String,
        status: StepStatus,
        description: String,
    },
    /// A tool call: `calling` when it starts, `called` with its view when it ends.
    Tool {
        call_id: String,
        /// The tool's `name` and `args`: a built-in tool's typed (a sandbox tool's by its
        /// request, the run's own and web search by their arguments), an MCP tool's or
        /// arguments that did not fit as the model wrote them (`{}` when not JSON).
        #[serde(flatten)]
        call: LoggedCall,
        status: ToolStatus,
        /// What the UI shows for it, once `called`.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "ToolView::lenient"
        )]
        view: Option<ToolView>,
    },
    /// The session's title was set.
    Title { title: String },
    /// The agent waits for the person (a question; maybe "take over the browser").
    Wait {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        prompt: Option<String>,
        #[serde(default)]
        take_over: bool,
    },
    /// The agent finished the task.
    Done {},
    /// Something failed; the message says what to do.
    Error { message: String },
    /// The session's status changed.
    Status { status: SessionStatus },
    /// What the model's requests of one turn cost; the session record keeps the sum, in
    /// all and by model.
    Usage {
        prompt_tokens: u64,
        completion_tokens: u64,
        /// The model the turn asked (absent in events from before there were several).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model: Option<String>,
        /// What the tokens cost, when the model has prices.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cost: Option<f64>,
    },
    /// A step of a sub-agent, nested under the `delegate` call that started it: its
    /// messages, tool calls and errors, as the session's own would be.
    Delegated {
        call_id: String,
        #[schema(no_recursion)]
        event: Box<AgentEvent>,
    },
    /// The agent's working memory of one model request: its answer with the tool calls
    /// and each call's result as the model saw it. Later turns, and a restarted backend,
    /// rebuild the conversation from these; the UI shows the other events instead.
    Memory {
        /// The log had been read up to here when the request was made: person messages
        /// after it reached the model after these messages.
        after: u64,
        messages: Vec<ChatMessage>,
    },
}

impl AgentEvent {
    /// The `type` tag, also the SSE event name.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Message { .. } => "message",
            Self::Plan { .. } => "plan",
            Self::Step { .. } => "step",
            Self::Tool { .. } => "tool",
            Self::Title { .. } => "title",
            Self::Wait { .. } => "wait",
            Self::Done {} => "done",
            Self::Error { .. } => "error",
            Self::Status { .. } => "status",
            Self::Usage { .. } => "usage",
            Self::Delegated { .. } => "delegated",
            Self::Memory { .. } => "memory",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MessageRole {
    User,
    Assistant,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ToolStatus {
    Calling,
    Called,
}

/// An event as the log holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StoredEvent {
    #[schema(value_type = String)]
    pub session_id: SessionId,
    /// 1, 2, 3… per session, without gaps.
    pub seq: u64,
    pub at: DateTime<Utc>,
    pub event: AgentEvent,
}
