//! One session's run: the loop of model requests and tool calls, and every event it
//! leaves in the log. A turn ends when the model answers without calling a tool, asks
//! the person, fails, runs out of budget, or is stopped; the run then ends unless its
//! inbox holds a message (see the service). Each model request leaves its part of the
//! working memory in the log (see [`memory`]), from which later runs start.
//!
//! The person's messages reach the run through its inbox, never by reading back the
//! log. Every model request and tool call is bounded by the turn's [`Guard`]. A backend,
//! sandbox, MCP or delegate call is an [`OpenCall`] from its `calling` event to its
//! `called` one, and whatever ends a turn closes it, so every `calling` has its `called`.
//!
//! A sub-agent is a `Run` too, in the [`Role::Sub`] role (see [`delegation`]): the same
//! loop and tools, its events nested under the delegating call.
//!
//! # Layout
//!
//! - `turn.rs`: the loop — a turn from its start to how it ended, its model requests, its
//!   step and time budgets.
//! - `calls.rs`: one tool call from its arguments to the model's reply: parsed, opened,
//!   run where it lives (the backend's own tools here), closed.
//! - `own_tools.rs`: what the tools the run handles itself do (their calls and typed
//!   arguments are [`crate::domain::run_call`]'s), and the events they leave.
//! - `memory_tool.rs`: the `memory` tool, notes kept across the person's chats.
//! - `automation_tool.rs`: the `automation_create` tool, an automation for the person.
//! - `tool_register.rs`: the `tool_register` tool, MCP servers the agent wrote, kept
//!   with the session.
//! - `sandbox.rs`: sandbox calls, the run's sandbox, the images they show, the failed-cell
//!   budget.
//! - `mcp.rs`: the MCP servers' tools, offered as a turn starts and called.
//! - `history.rs`: the run and the log: earlier turns read back, the inbox, the working
//!   memory each request leaves, every event the run appends.
//! - `messages.rs`: the sentences a person reads when something ends a turn or a call.
//! - `sub_agents.rs`: whom a run works for, the turn's shared step budget, the turn's
//!   sub-agents and how each one ended.
//! - `delegation.rs`: the `delegate` tool: a task checked, its sub-agent made and run.
//! - `hand_back.rs`: the files a sub-agent with its own sandbox hands back.
//!
//! [`memory`]: super::memory
//! [`Guard`]: super::guard::Guard
//! [`Role::Sub`]: sub_agents::Role::Sub

mod automation_tool;
mod calls;
mod delegation;
mod hand_back;
mod history;
mod kept_tools;
mod mcp;
mod memory_tool;
mod messages;
mod own_tools;
mod sandbox;
mod sub_agents;
mod tool_register;
mod turn;

use std::collections::HashSet;
use std::sync::Arc;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::catalogue::Catalogue;
use super::replicas::Fence;
use super::{prompt, Dependencies, Incoming};
use crate::domain::agent::{ChatMessage, ChatRole, SandboxAccess, TokenUsage, ToolCallRequest};
use crate::domain::agent_server::AgentServer;
use crate::domain::logged_call::LoggedCall;
use crate::domain::model::ModelInfo;
use crate::domain::session::{Session, SessionId};
use sub_agents::{Role, StepBudget, SubAgents};

/// How a turn ended.
enum TurnEnd {
    /// With the model's final answer, if it wrote one.
    Answered(Option<String>),
    Waiting,
    Failed(String),
    Stopped,
}

/// What handling one tool call decided.
enum Next {
    Continue,
    WaitForPerson,
}

/// A tool call whose `calling` event is in the log and whose `called` one is not yet.
struct OpenCall {
    call: ToolCallRequest,
    logged: LoggedCall,
}

pub struct Run {
    deps: Arc<Dependencies>,
    session: Session,
    role: Role,
    /// Events up to here are earlier turns, loaded into the working memory when the
    /// first turn starts; `None` once loaded.
    history_until: Option<u64>,
    inbox: mpsc::UnboundedReceiver<Incoming>,
    /// The last event the conversation holds: the history's, or the latest person
    /// message taken from the inbox.
    read_up_to: u64,
    /// Where the history read from the log ends: a message up to here that reaches the
    /// inbox too (messages posted at once, numbered in one order and delivered in the
    /// other) is in the conversation already.
    history_end: u64,
    conversation: Vec<ChatMessage>,
    catalogue: Catalogue,
    /// MCP servers whose failure the person has been told of in this run.
    mcp_reported: HashSet<String>,
    /// The servers the agent registered in the session, as this turn offers them.
    agent_servers: Vec<AgentServer>,
    sandbox: Option<SandboxAccess>,
    /// The sandbox this run asks the manager for: the session's, or a sub-agent's own.
    sandbox_key: SessionId,
    /// The shell session its commands run in (sub-agents sharing a sandbox have their own).
    shell: String,
    /// The model this turn asks, and its tokens, recorded when the turn ends.
    model: Option<ModelInfo>,
    usage: TokenUsage,
    /// Several at once while sub-agents work.
    open_calls: Vec<OpenCall>,
    /// Model requests left to the turn, shared with its sub-agents.
    steps: Arc<StepBudget>,
    sub_agents: SubAgents,
    /// Code cells that failed in a row in this turn.
    failed_cells: u32,
    cancel: CancellationToken,
    /// Raised when the run's lease was lost: it then writes nothing more.
    fence: Fence,
}

impl Run {
    pub fn new(
        deps: Arc<Dependencies>,
        session: Session,
        history_until: u64,
        inbox: mpsc::UnboundedReceiver<Incoming>,
        cancel: CancellationToken,
        fence: Fence,
    ) -> Self {
        let catalogue = Catalogue::new(deps.web_search.is_some() && session.reaches_internet(), true);
        let system = prompt::system_prompt(&deps.models);
        Self {
            sandbox_key: session.id.clone(),
            shell: SandboxAccess::AGENT_SHELL.to_owned(),
            steps: Arc::new(StepBudget::new(deps.budgets.max_steps)),
            sub_agents: SubAgents::new(cancel.child_token()),
            deps,
            session,
            role: Role::Lead,
            history_until: Some(history_until),
            inbox,
            read_up_to: history_until,
            history_end: history_until,
            conversation: vec![ChatMessage::text(ChatRole::System, system)],
            catalogue,
            mcp_reported: HashSet::new(),
            agent_servers: Vec::new(),
            sandbox: None,
            model: None,
            usage: TokenUsage::default(),
            open_calls: Vec::new(),
            failed_cells: 0,
            cancel,
            fence,
        }
    }

    pub fn stopped(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// Whether a message waits in the inbox (the service asks when a turn has ended).
    pub fn has_mail(&self) -> bool {
        !self.inbox.is_empty()
    }
}
