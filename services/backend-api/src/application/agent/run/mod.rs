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

mod delegation;
mod hand_back;
pub(super) mod own_tools;

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::catalogue::{Catalogue, ToolCall};
use super::context::compact;
use super::guard::{Guard, Interrupted};
use super::replicas::Fence;
use super::untrusted::ToolReply;
use super::{mcp, memory, prompt, Dependencies, Incoming};
use crate::domain::agent::{ChatMessage, ChatRole, SandboxAccess, TokenUsage, ToolCallRequest};
use crate::domain::backend_call::BackendCall;
use crate::domain::event::{AgentEvent, MessageRole, ToolStatus};
use crate::domain::image::{ImageId, Picture};
use crate::domain::mcp::McpSite;
use crate::domain::model::{ModelInfo, ModelName};
use crate::domain::sandbox_call::SandboxCall;
use crate::domain::session::{Session, SessionId, SessionStatus};
use crate::domain::tool::{ImageRef, ToolView};
use crate::domain::DomainError;
use delegation::{Role, StepBudget, SubAgents};
use own_tools::RunCall;

/// Events read per query when loading the history.
const PAGE: usize = 500;

/// Characters a token stands for, roughly, when a model's context window (in tokens)
/// bounds the conversation (in characters).
const CHARS_PER_TOKEN: usize = 3;

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
    args: Value,
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
        let catalogue = Catalogue::new(deps.web_search.is_some(), true);
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

    /// Runs one turn and records how it ended.
    pub async fn execute(&mut self) {
        let end = self.turn().await;
        // Whatever ended the turn ends its sub-agents, which close their calls before the
        // turn's status is told.
        self.sub_agents.end_all().await;
        let (error, status) = match end {
            TurnEnd::Answered(_) => (None, Some(SessionStatus::Completed)),
            TurnEnd::Waiting => (None, Some(SessionStatus::Waiting)),
            TurnEnd::Failed(message) => (Some(message), Some(SessionStatus::Failed)),
            // Recorded here, before the lease goes: a stopped run left `running` for a
            // moment without a lease would look dead to the other replicas.
            TurnEnd::Stopped => (None, Some(SessionStatus::Completed)),
        };
        self.record_usage().await;
        if let Some(message) = error {
            self.emit(AgentEvent::Error { message }).await;
        }
        if let Some(status) = status {
            self.emit(AgentEvent::Status { status }).await;
        }
    }

    /// The turn's tokens, as one event (not one per request: every append is a durable
    /// write). A sub-agent's count for the session too, by the model it used.
    async fn record_usage(&mut self) {
        let usage = std::mem::take(&mut self.usage);
        if let Some(model) = self.model.take().filter(|_| !usage.is_empty()) {
            self.emit(AgentEvent::Usage {
                prompt_tokens: usage.prompt_tokens,
                completion_tokens: usage.completion_tokens,
                model: Some(model.name.as_str().to_owned()),
                cost: model.prices.map(|prices| prices.cost(usage)),
            })
            .await;
        }
    }

    async fn turn(&mut self) -> TurnEnd {
        if let Err(err) = self.load_history().await {
            return TurnEnd::Failed(format!("Could not read the conversation: {err}"));
        }
        // Taken before anything can end the turn: a turn that fails answers them with
        // its error, and a message left in the inbox would start the next turn at once.
        self.read_inbox();
        // Asked for again on the first sandbox call: the sandbox may have ended (removed,
        // expired, killed) since the last turn, and the manager then makes a new one.
        self.sandbox = None;
        self.failed_cells = 0;
        self.steps = Arc::new(StepBudget::new(self.deps.budgets.max_steps));
        self.sub_agents = SubAgents::new(self.cancel.child_token());
        // The session as this turn begins: a model picked since the last turn applies.
        match self.deps.sessions.get(&self.session.id).await {
            Ok(Some(session)) => self.session = session,
            Ok(None) => return TurnEnd::Failed("The session was deleted.".into()),
            Err(err) => return TurnEnd::Failed(format!("Could not read the session: {err}")),
        }
        let model = match self.turn_model() {
            Ok(model) => model,
            Err(message) => return TurnEnd::Failed(message),
        };
        self.model = Some(model.clone());
        self.emit(AgentEvent::Status {
            status: SessionStatus::Running,
        })
        .await;
        self.offer_mcp_tools().await;
        let mut guard = self.guard();
        self.work(&model, &mut guard).await
    }

    /// The turn's time budget and stop, and the person's hold on the desktop; a
    /// sub-agent's guard also stops when the delegating turn ends.
    fn guard(&self) -> Guard {
        Guard::new(
            self.cancel.clone(),
            self.deps.take_over.clone(),
            self.session.id.clone(),
            self.deps.budgets.max_run,
        )
    }

    /// Model requests and tool calls until the model answers or something ends the turn.
    async fn work(&mut self, model: &ModelInfo, guard: &mut Guard) -> TurnEnd {
        // About 3 characters a token: the conversation stays within the model's window.
        let context_chars = self
            .deps
            .budgets
            .context_chars
            .min((model.context_tokens as usize).saturating_mul(CHARS_PER_TOKEN));
        while self.steps.take() {
            match self.deps.daily_tokens.check(&self.session.owner).await {
                Ok(Ok(())) => {}
                Ok(Err(used_up)) => return TurnEnd::Failed(used_up),
                Err(err) => return TurnEnd::Failed(format!("Could not read your token budget: {err}")),
            }
            self.read_inbox();
            compact(&mut self.conversation, context_chars);
            let request = self
                .deps
                .llm
                .complete(&model.name, &self.conversation, self.catalogue.specs());
            let completion = match guard.run(request).await {
                Err(interrupted) => return self.ended_by(interrupted),
                Ok(Err(err)) => return TurnEnd::Failed(model_failure(&model.name, &err)),
                Ok(Ok(completion)) => completion,
            };
            // Labelled by model: the names are the operator's list, so the series are few.
            let name = model.name.as_str().to_owned();
            metrics::counter!("llm_prompt_tokens", "model" => name.clone())
                .increment(completion.usage.prompt_tokens);
            metrics::counter!("llm_completion_tokens", "model" => name)
                .increment(completion.usage.completion_tokens);
            if let Err(err) = self
                .deps
                .daily_tokens
                .record(&self.session.owner, &completion.usage)
                .await
            {
                tracing::warn!(%err, "recording the day's tokens");
            }
            self.usage.add(completion.usage);
            let step_start = self.conversation.len();
            self.conversation.push(ChatMessage {
                role: ChatRole::Assistant,
                content: completion.content.clone(),
                tool_calls: completion.tool_calls.clone(),
                tool_call_id: None,
            });
            if let Some(text) = &completion.content {
                self.say(text.clone()).await;
            }
            let answered = completion.tool_calls.is_empty();
            let ended = self.act(completion.tool_calls, guard).await;
            self.remember(step_start).await;
            if let Some(end) = ended {
                return end;
            }
            if answered && !self.has_mail() {
                if self.role.is_lead() {
                    self.emit(AgentEvent::Done {}).await;
                }
                return TurnEnd::Answered(completion.content);
            }
        }
        TurnEnd::Failed(format!(
            "The run reached its step budget ({} model requests, its sub-agents' included) and \
             stopped; send a message to continue.",
            self.deps.budgets.max_steps
        ))
    }

    /// The model this turn asks: the session's, or the default one. A model that cannot
    /// call tools, or is no longer offered, is a message telling the person what to do.
    fn turn_model(&self) -> Result<ModelInfo, String> {
        let models = &self.deps.models;
        let model = match &self.session.model {
            Some(name) => models.get(name).ok_or_else(|| {
                format!(
                    "The model `{}` this session uses is no longer offered; pick another model \
                     and send your message again.",
                    name.as_str()
                )
            })?,
            None => models.default_model().ok_or_else(|| {
                "No model is configured. Set LLM_BASE_URL and LLM_MODEL (and LLM_API_KEY if the \
                 provider needs one), or list models in the configuration, then restart the backend."
                    .to_owned()
            })?,
        };
        if !model.supports_tools {
            return Err(format!(
                "The model `{}` cannot call tools, which the agent needs to work; pick another \
                 model for this session and send your message again.",
                model.name.as_str()
            ));
        }
        Ok(model.clone())
    }

    /// Runs the tool calls of one model answer in order (its `delegate` calls side by
    /// side), then waits for the sub-agents; how the turn ends, if one of them ends it.
    async fn act(&mut self, calls: Vec<ToolCallRequest>, guard: &mut Guard) -> Option<TurnEnd> {
        for call in calls {
            let done = guard.run(self.handle(&call)).await;
            if let Some(end) = self.settle(done).await {
                return Some(end);
            }
        }
        let done = guard.run(self.sub_agents_answer()).await;
        self.settle(done).await
    }

    /// How the turn ends after a guarded call, if it does; an interrupted turn ends its
    /// sub-agents and closes every open call, saying why.
    async fn settle(&mut self, done: Result<Result<Next, String>, Interrupted>) -> Option<TurnEnd> {
        match done {
            Err(interrupted) => {
                self.interrupt_shell().await;
                self.sub_agents.end_all().await;
                let why = match interrupted {
                    Interrupted::Stopped => "stopped",
                    Interrupted::OutOfTime => "the run's time budget ended",
                };
                self.close_open_calls(why).await;
                Some(self.ended_by(interrupted))
            }
            Ok(Err(message)) => Some(TurnEnd::Failed(message)),
            Ok(Ok(Next::WaitForPerson)) => Some(TurnEnd::Waiting),
            Ok(Ok(Next::Continue)) => None,
        }
    }

    fn ended_by(&self, interrupted: Interrupted) -> TurnEnd {
        match interrupted {
            Interrupted::Stopped => TurnEnd::Stopped,
            Interrupted::OutOfTime => {
                let secs = self.deps.budgets.max_run.as_secs();
                let budget = if secs < 120 {
                    format!("{secs} s")
                } else {
                    format!("{} min", secs / 60)
                };
                TurnEnd::Failed(format!(
                    "The run reached its time budget ({budget}) and stopped; send a message to continue."
                ))
            }
        }
    }

    /// Records what the request begun at `from` added to the conversation (calls a
    /// stop or failure left unrun answered as such), for the turns after this one.
    async fn remember(&mut self, from: usize) {
        let mut messages = self.conversation.split_off(from);
        memory::answer_unanswered(&mut messages);
        self.conversation.extend(messages.iter().cloned());
        // A sub-agent's conversation lives as long as its task: the delegating agent
        // remembers the answer.
        if !self.role.is_lead() {
            return;
        }
        self.emit(AgentEvent::Memory {
            after: self.read_up_to,
            messages,
        })
        .await;
    }

    /// The working memory of earlier turns, read from the log once, when the run's
    /// first turn starts.
    async fn load_history(&mut self) -> Result<(), DomainError> {
        let Some(until) = self.history_until else {
            return Ok(());
        };
        let mut earlier = Vec::new();
        let mut after = 0;
        while after < until {
            let page = self
                .deps
                .events
                .page(&self.session.id, after, PAGE)
                .await
                .map_err(|err| DomainError::Internal(anyhow::anyhow!("{err}")))?;
            let Some(last) = page.last() else { break };
            after = last.seq;
            earlier.extend(page.into_iter().filter(|e| e.seq <= until));
        }
        self.conversation.extend(memory::rebuild(&earlier));
        self.history_until = None;
        Ok(())
    }

    /// Adds the person's messages that arrived since the last model request.
    fn read_inbox(&mut self) {
        while let Ok(message) = self.inbox.try_recv() {
            if message.seq <= self.history_end {
                continue;
            }
            self.read_up_to = self.read_up_to.max(message.seq);
            self.conversation.push(ChatMessage::text(
                ChatRole::User,
                prompt::with_attachments(message.content, &message.attachments),
            ));
        }
    }

    /// Appends an event; a failure to store is logged (the run goes on, and the next
    /// event or the end of the run tells the person).
    async fn emit(&self, event: AgentEvent) {
        if self.fence.is_raised() {
            return;
        }
        let event = self.role.place(event);
        if let Err(err) = self.deps.events.append(&self.session.id, event).await {
            tracing::error!(session = self.session.id.as_str(), %err, "storing an agent event");
        }
    }

    async fn say(&self, content: String) {
        self.emit(AgentEvent::Message {
            role: MessageRole::Assistant,
            content,
            attachments: Vec::new(),
        })
        .await;
    }

    /// Runs one tool call; `Err` ends the turn with that message.
    async fn handle(&mut self, call: &ToolCallRequest) -> Result<Next, String> {
        let Some((args, parsed)) = self.parse(call).await else {
            return Ok(Next::Continue);
        };
        // Delegations of one answer start together; any other call waits for their
        // answers, which it may need.
        if !matches!(parsed, ToolCall::Delegate(_)) {
            self.sub_agents_answer().await?;
        }
        match parsed {
            ToolCall::Delegate(task) => self.delegate(call, args, task).await,
            ToolCall::Run(run_call) => return Ok(self.run_tool(call, run_call).await),
            ToolCall::Backend(request) => self.backend_tool(call, args, &request).await,
            ToolCall::Sandbox(request) => self.sandbox_tool(call, args, &request).await?,
            ToolCall::Mcp {
                server,
                tool,
                arguments,
            } => self.mcp_tool(call, args, &server, &tool, arguments).await,
        }
        Ok(Next::Continue)
    }

    /// The call's arguments and what they ask for; `None` when they do not parse, and the
    /// call is then logged as failed with the problem for the model to fix.
    async fn parse(&mut self, call: &ToolCallRequest) -> Option<(Value, ToolCall)> {
        let raw = if call.arguments.trim().is_empty() {
            "{}"
        } else {
            &call.arguments
        };
        let args: Value = match serde_json::from_str(raw) {
            Ok(args) => args,
            Err(err) => {
                let problem = format!(
                    "the arguments of {} are not valid JSON ({err}); call it again with a JSON object",
                    call.name
                );
                self.fail_call(call, Value::Object(Default::default()), problem)
                    .await;
                return None;
            }
        };
        match self.catalogue.parse(&call.name, args.clone()) {
            Ok(parsed) => Some((args, parsed)),
            Err(problem) => {
                self.fail_call(call, args, problem).await;
                None
            }
        }
    }

    /// The run's own tools leave their own events (plan, step, title, message, wait).
    async fn run_tool(&mut self, call: &ToolCallRequest, run_call: RunCall) -> Next {
        let (event, answer) = match run_call {
            RunCall::Plan(plan) => {
                let steps = plan.steps.into_iter().map(Into::into).collect();
                (AgentEvent::Plan { steps }, "plan recorded")
            }
            RunCall::Step(step) => (
                AgentEvent::Step {
                    step_id: step.step_id,
                    status: step.status,
                    description: step.description,
                },
                "step updated",
            ),
            RunCall::Title(title) => (AgentEvent::Title { title: title.title }, "title set"),
            RunCall::Notify(notify) => (
                AgentEvent::Message {
                    role: MessageRole::Assistant,
                    content: notify.text,
                    attachments: Vec::new(),
                },
                "delivered",
            ),
            RunCall::Ask(ask) => {
                self.answer(
                    call,
                    ToolReply::own("asked; the person's reply comes as their next message"),
                );
                self.emit(AgentEvent::Wait {
                    prompt: Some(ask.question),
                    take_over: ask.take_over,
                })
                .await;
                return Next::WaitForPerson;
            }
        };
        self.emit(event).await;
        self.answer(call, ToolReply::own(answer));
        Next::Continue
    }

    /// Offers the MCP servers' tools for this turn. A server that has none (it failed to
    /// start or answer) is told to the person once per run, and the run goes on.
    async fn offer_mcp_tools(&mut self) {
        self.catalogue.clear_mcp();
        // stdio servers list their tools in this run's own sandbox, for it alone; without
        // one, each of them is unavailable for the reason there is none.
        let (site, no_site) = if self.deps.mcp.needs_site().await {
            match self.mcp_site().await {
                Ok(site) => (Some(site), None),
                Err(message) => (None, Some(message)),
            }
        } else {
            (None, None)
        };
        for server in self.deps.mcp.status(site.as_ref()).await {
            let error = match (server.error, &no_site) {
                (Some(error), _) => Some(error),
                (None, Some(no_site)) if server.not_started => Some(no_site.clone()),
                (None, _) => None,
            };
            match error {
                None => self.catalogue.offer_mcp(&server.name, server.tools),
                Some(error) if self.mcp_reported.insert(server.name.clone()) => {
                    let message = format!(
                        "The MCP server {:?} is unavailable ({error}); the agent works without its tools.",
                        server.name
                    );
                    self.emit(AgentEvent::Error { message }).await;
                }
                Some(_) => {}
            }
        }
    }

    /// Calls a tool of an MCP server. A server that fails gives the model an error to
    /// work with; the turn goes on.
    async fn mcp_tool(
        &mut self,
        call: &ToolCallRequest,
        args: Value,
        server: &str,
        tool: &str,
        arguments: serde_json::Map<String, Value>,
    ) {
        self.open(call, args).await;
        let site = if self.deps.mcp.runs_in_sandbox(server) {
            match self.mcp_site().await {
                Ok(site) => Some(site),
                Err(message) => {
                    let reply = ToolReply::own(message.clone());
                    self.close(&call.id, ToolView::error(message), reply).await;
                    return;
                }
            }
        } else {
            None
        };
        match self.deps.mcp.call(server, tool, arguments, site.as_ref()).await {
            Ok(result) => {
                let (view, text) = mcp::present(server, tool, &result);
                self.close(&call.id, view, ToolReply::outside(text)).await;
            }
            Err(reason) => {
                let view = ToolView::error(format!("The MCP server {server:?} gave no result: {reason}"));
                let about = format!("The MCP server {server:?} gave no result; the reason:");
                self.close(&call.id, view, ToolReply::outside_about(about, reason))
                    .await;
            }
        }
    }

    /// Runs one of the backend's own tools, here and without a sandbox. Its failure is the
    /// model's to read; the turn goes on.
    async fn backend_tool(&mut self, call: &ToolCallRequest, args: Value, request: &BackendCall) {
        let BackendCall::WebSearch(search) = request;
        // The catalogue offers web_search only with a provider; a model that names it
        // anyway is told why it cannot run.
        let Some(web) = self.deps.web_search.clone() else {
            let problem = "web search is not configured on this server".to_owned();
            return self.fail_call(call, args, problem).await;
        };
        self.open(call, args).await;
        let outcome = web.search(search).await;
        self.close(&call.id, outcome.view, ToolReply::outside(outcome.text))
            .await;
    }

    async fn sandbox_tool(
        &mut self,
        call: &ToolCallRequest,
        args: Value,
        request: &SandboxCall,
    ) -> Result<(), String> {
        self.open(call, args).await;
        let sandbox = match self.sandbox().await {
            Ok(sandbox) => sandbox,
            Err(message) => {
                let reply = ToolReply::own(message.clone());
                self.close(&call.id, ToolView::error(message.clone()), reply)
                    .await;
                return Err(message);
            }
        };
        match self.deps.tools.call(&sandbox, request).await {
            Ok(outcome) => {
                let mut view = outcome.view;
                for (slot, picture) in view.image_slots().into_iter().zip(outcome.images) {
                    *slot = self.keep_image(picture).await;
                }
                let failed_cell = view.code_failed();
                self.close(&call.id, view, ToolReply::outside(outcome.text)).await;
                self.count_failed_cells(failed_cell)
            }
            Err(err) => {
                // The sandbox is gone (removed, OOM-killed): the next turn asks for a new one.
                self.sandbox = None;
                let message =
                    format!("The sandbox stopped answering ({err}); a new one is made on your next message.");
                let reply = ToolReply::own(message.clone());
                self.close(&call.id, ToolView::error(message.clone()), reply)
                    .await;
                Err(message)
            }
        }
    }

    /// Where the run's MCP stdio servers run.
    async fn mcp_site(&mut self) -> Result<McpSite, String> {
        // By the sandbox's key: a sub-agent with a sandbox of its own starts its own.
        Ok(McpSite {
            session: self.sandbox_key.clone(),
            sandbox: self.sandbox().await?,
        })
    }

    /// The run's sandbox (the session's, or a sub-agent's own), asked for on the turn's
    /// first sandbox call.
    async fn sandbox(&mut self) -> Result<SandboxAccess, String> {
        if let Some(sandbox) = &self.sandbox {
            return Ok(sandbox.clone());
        }
        let acquired = self
            .deps
            .sandboxes
            .acquire(&self.sandbox_key, &self.session.owner, self.session.network)
            .await
            .map_err(|err| format!("Could not get a sandbox to work in: {err}"))?
            .in_shell(self.shell.clone());
        self.sandbox = Some(acquired.clone());
        Ok(acquired)
    }

    /// Stores an image once and returns how the view refers to it (`None` when it could
    /// not be stored: the step goes on without its picture).
    async fn keep_image(&self, picture: Picture) -> Option<ImageRef> {
        let id = ImageId::of(&picture.bytes, picture.format);
        match self.deps.images.put(&self.session.id, &id, picture.bytes).await {
            Ok(()) => Some(ImageRef {
                url: format!(
                    "/api/v1/sessions/{}/screenshots/{}",
                    self.session.id.as_str(),
                    id.file_name()
                ),
                id: id.key(),
            }),
            Err(err) => {
                tracing::warn!(session = self.session.id.as_str(), %err, "storing an image");
                None
            }
        }
    }

    /// Generate, run, fix: a failed cell goes back to the model to fix, but only so many
    /// in a row before the turn ends, rather than burning tokens on a loop.
    fn count_failed_cells(&mut self, failed_cell: Option<bool>) -> Result<(), String> {
        match failed_cell {
            Some(true) => self.failed_cells += 1,
            Some(false) => self.failed_cells = 0,
            None => {}
        }
        let budget = self.deps.budgets.failed_cells;
        if self.failed_cells >= budget {
            return Err(format!(
                "The code failed {budget} times in a row, so the run stopped here instead of \
                 trying again; look at the last error, then send a message to go on."
            ));
        }
        Ok(())
    }

    /// A call that failed before it could run: opened and closed with the problem, which
    /// both the person and the model see.
    async fn fail_call(&mut self, call: &ToolCallRequest, args: Value, problem: String) {
        self.open(call, args).await;
        let reply = ToolReply::own(problem.clone());
        self.close(&call.id, ToolView::error(problem), reply).await;
    }

    /// Logs the call's `calling` event; it stays open until [`Run::close`].
    async fn open(&mut self, call: &ToolCallRequest, args: Value) {
        self.emit(AgentEvent::Tool {
            call_id: call.id.clone(),
            name: call.name.clone(),
            status: ToolStatus::Calling,
            args: args.clone(),
            view: None,
        })
        .await;
        self.open_calls.push(OpenCall {
            call: call.clone(),
            args,
        });
    }

    /// Logs the open call's `called` event with what the person sees, and gives the
    /// model its reply.
    async fn close(&mut self, call_id: &str, view: ToolView, reply: ToolReply) {
        let Some(at) = self.open_calls.iter().position(|open| open.call.id == call_id) else {
            tracing::error!(
                session = self.session.id.as_str(),
                "closing a tool call that is not open"
            );
            return;
        };
        let OpenCall { call, args } = self.open_calls.remove(at);
        self.emit(AgentEvent::Tool {
            call_id: call.id.clone(),
            name: call.name.clone(),
            status: ToolStatus::Called,
            args,
            view: Some(view),
        })
        .await;
        self.answer(&call, reply);
    }

    /// Ends the open call, if any (it was stopped or ran out of time), saying why.
    async fn close_open_calls(&mut self, why: &str) {
        while let Some(open) = self.open_calls.last() {
            let call_id = open.call.id.clone();
            self.close(&call_id, ToolView::error(why), ToolReply::own(format!("[{why}]")))
                .await;
        }
    }

    /// The tool message answering `call`, which every call needs before the next request:
    /// the one place a tool's reply becomes what the model reads, outside content marked
    /// untrusted and cut to the budget.
    fn answer(&mut self, call: &ToolCallRequest, reply: ToolReply) {
        let text = reply.for_model(self.deps.budgets.tool_output_chars);
        self.conversation.push(ChatMessage::tool_result(&call.id, text));
    }

    async fn interrupt_shell(&self) {
        if let Some(sandbox) = &self.sandbox {
            if let Err(err) = self.deps.tools.interrupt(sandbox).await {
                tracing::warn!(%err, "killing the agent's command on stop");
            }
        }
    }
}

/// What the person reads when the model request failed.
fn model_failure(model: &ModelName, err: &DomainError) -> String {
    let model = model.as_str();
    match err {
        DomainError::Unavailable { detail, .. } => {
            format!("The provider of the model `{model}` is not answering ({detail}). Check its base URL and the provider's status, then send a message to retry.")
        }
        DomainError::Invalid(detail) => {
            format!("The model `{model}` refused the request: {detail}. Check its model id and API key, or pick another model.")
        }
        other => format!("The request to the model `{model}` failed: {other}"),
    }
}
