//! One session's run: the loop of model requests and tool calls, and every event it
//! leaves in the log. A turn ends when the model answers without calling a tool, asks
//! the person, fails, runs out of budget, or is cancelled; the run then waits to be
//! woken by the next message (see the service). Each model request leaves its part of
//! the working memory in the log (see [`memory`]), from which later turns start.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::FutureExt;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::context::{compact, truncate_for_model};
use super::prompt::{self, AskArgs, NotifyArgs, PlanArgs, StepArgs, TitleArgs};
use super::Dependencies;
use super::{mcp, memory};
use crate::domain::agent::{ChatMessage, ChatRole, SandboxAccess, TokenUsage, ToolCallRequest, ToolSpec};
use crate::domain::event::{AgentEvent, MessageRole, ToolStatus};
use crate::domain::mcp::{qualified_name, split_qualified};
use crate::domain::screenshot::ScreenshotId;
use crate::domain::session::{Session, SessionStatus};
use crate::domain::DomainError;

/// Events read per query when catching up on the log.
const PAGE: usize = 500;

/// How a turn ended.
enum TurnEnd {
    Answered,
    Waiting,
    Failed(String),
    Cancelled,
}

/// Why a tool call did not finish.
enum Interrupted {
    OutOfTime,
    Failed(String),
}

/// What handling one tool call decided.
enum Next {
    Continue,
    WaitForPerson,
}

pub struct Run {
    deps: Arc<Dependencies>,
    session: Session,
    /// The log is read up to here.
    seen: u64,
    /// Events up to here are earlier turns (the working memory is rebuilt from them);
    /// later ones are this run's own, of which only the person's messages are new.
    history_until: u64,
    conversation: Vec<ChatMessage>,
    /// The run's own and the sandbox's tools, then the MCP servers' (listed per turn).
    tools: Vec<ToolSpec>,
    built_in_tools: usize,
    /// MCP servers whose failure the person has been told of in this run.
    mcp_reported: HashSet<String>,
    sandbox: Option<SandboxAccess>,
    /// The model's tokens in this turn, recorded when it ends.
    usage: TokenUsage,
    /// A sandbox tool whose `calling` event has no `called` yet.
    open_call: Option<(ToolCallRequest, Value)>,
    cancel: CancellationToken,
    /// Rung by a message sent while the run goes; see [`Run::catch_up`].
    wake: Arc<Notify>,
}

impl Run {
    pub fn new(
        deps: Arc<Dependencies>,
        session: Session,
        seen_before: u64,
        cancel: CancellationToken,
        wake: Arc<Notify>,
    ) -> Self {
        let mut tools = prompt::own_tools();
        tools.extend(deps.tools.specs());
        let built_in_tools = tools.len();
        Self {
            deps,
            session,
            seen: 0,
            history_until: seen_before,
            conversation: vec![ChatMessage::text(ChatRole::System, prompt::SYSTEM_PROMPT)],
            tools,
            built_in_tools,
            mcp_reported: HashSet::new(),
            sandbox: None,
            usage: TokenUsage::default(),
            open_call: None,
            cancel,
            wake,
        }
    }

    pub fn cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// Runs one turn and records how it ended.
    pub async fn execute(&mut self) {
        let end = self.turn().await;
        let (error, status) = match end {
            TurnEnd::Answered => (None, Some(SessionStatus::Completed)),
            TurnEnd::Waiting => (None, Some(SessionStatus::Waiting)),
            TurnEnd::Failed(message) => (Some(message), Some(SessionStatus::Failed)),
            // Stop records the status itself once the run has ended.
            TurnEnd::Cancelled => (None, None),
        };
        // One event per turn (not per request): every append is a durable write.
        let usage = std::mem::take(&mut self.usage);
        if !usage.is_empty() {
            self.emit(AgentEvent::Usage {
                prompt_tokens: usage.prompt_tokens,
                completion_tokens: usage.completion_tokens,
            })
            .await;
        }
        if let Some(message) = error {
            self.emit(AgentEvent::Error { message }).await;
        }
        if let Some(status) = status {
            self.emit(AgentEvent::Status { status }).await;
        }
    }

    async fn turn(&mut self) -> TurnEnd {
        let Some(llm) = self.deps.llm.clone() else {
            return TurnEnd::Failed(
                "No model is configured. Set LLM_BASE_URL and LLM_MODEL (and LLM_API_KEY if the \
                 provider needs one), then restart the backend."
                    .into(),
            );
        };
        if let Err(err) = self.catch_up().await {
            return TurnEnd::Failed(format!("Could not read the conversation: {err}"));
        }
        // Asked for again on the first tool call: the sandbox may have ended (removed,
        // expired, killed) since the last turn, and the manager then makes a new one.
        self.sandbox = None;
        self.emit(AgentEvent::Status {
            status: SessionStatus::Running,
        })
        .await;
        self.offer_mcp_tools().await;
        // Moved on by the time a person holds the desktop: that is not the run's time.
        let mut started = Instant::now();
        let budgets = self.deps.budgets.clone();
        for _ in 0..budgets.max_steps {
            if started.elapsed() > budgets.max_run {
                return self.out_of_time();
            }
            if let Err(err) = self.catch_up().await {
                return TurnEnd::Failed(format!("Could not read the conversation: {err}"));
            }
            compact(&mut self.conversation, budgets.context_chars);
            match self.wait_for_desktop().await {
                Some(paused) => started += paused,
                None => return TurnEnd::Cancelled,
            }
            let deadline = tokio::time::Instant::from_std(started + budgets.max_run);
            let read_up_to = self.seen;
            let completion = tokio::select! {
                _ = self.cancel.cancelled() => return TurnEnd::Cancelled,
                _ = tokio::time::sleep_until(deadline) => return self.out_of_time(),
                answer = llm.complete(&self.conversation, &self.tools) => answer,
            };
            let completion = match completion {
                Ok(completion) => completion,
                Err(err) => return TurnEnd::Failed(model_failure(&err)),
            };
            metrics::counter!("llm_prompt_tokens").increment(completion.usage.prompt_tokens);
            metrics::counter!("llm_completion_tokens").increment(completion.usage.completion_tokens);
            self.usage.add(completion.usage);
            let step_start = self.conversation.len();
            self.conversation.push(ChatMessage {
                role: ChatRole::Assistant,
                content: completion.content.clone(),
                tool_calls: completion.tool_calls.clone(),
                tool_call_id: None,
            });
            if let Some(text) = completion.content {
                self.say(text).await;
            }
            let answered = completion.tool_calls.is_empty();
            let ended = self.act(completion.tool_calls, &mut started).await;
            self.remember(step_start, read_up_to).await;
            if let Some(end) = ended {
                return end;
            }
            if answered && !self.has_unseen_messages().await {
                self.emit(AgentEvent::Done {}).await;
                return TurnEnd::Answered;
            }
        }
        TurnEnd::Failed(format!(
            "The run reached its step budget ({} model requests) and stopped; send a message to continue.",
            budgets.max_steps
        ))
    }
}

impl Run {
    /// Runs the tool calls of one model answer in order; how the turn ends, if one of
    /// them ends it.
    async fn act(&mut self, calls: Vec<ToolCallRequest>, started: &mut Instant) -> Option<TurnEnd> {
        let max_run = self.deps.budgets.max_run;
        let cancel = self.cancel.clone();
        for call in calls {
            match self.wait_for_desktop().await {
                Some(paused) => *started += paused,
                None => return Some(TurnEnd::Cancelled),
            }
            let deadline = tokio::time::Instant::from_std(*started + max_run);
            let next = tokio::select! {
                _ = cancel.cancelled() => None,
                _ = tokio::time::sleep_until(deadline) => Some(Err(Interrupted::OutOfTime)),
                next = self.handle(&call) => Some(next.map_err(Interrupted::Failed)),
            };
            match next {
                None => {
                    self.interrupt_shell().await;
                    self.close_open_call("stopped").await;
                    return Some(TurnEnd::Cancelled);
                }
                Some(Err(Interrupted::OutOfTime)) => {
                    self.interrupt_shell().await;
                    self.close_open_call("the run's time budget ended").await;
                    return Some(self.out_of_time());
                }
                Some(Err(Interrupted::Failed(message))) => return Some(TurnEnd::Failed(message)),
                Some(Ok(Next::WaitForPerson)) => return Some(TurnEnd::Waiting),
                Some(Ok(Next::Continue)) => {}
            }
        }
        None
    }

    fn out_of_time(&self) -> TurnEnd {
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

    /// Records what the request begun at `from` added to the conversation (calls a
    /// stop or failure left unrun answered as such), for the turns after this one.
    async fn remember(&mut self, from: usize, read_up_to: u64) {
        let mut messages = self.conversation.split_off(from);
        memory::answer_unanswered(&mut messages);
        self.conversation.extend(messages.iter().cloned());
        self.emit(AgentEvent::Memory {
            after: read_up_to,
            messages,
        })
        .await;
    }

    /// Adds what the log holds beyond `seen` to the conversation: the working memory of
    /// earlier turns, then the person's new messages. A wake-up rung before this read is
    /// spent here, since the read sees its message: one still pending when the turn ends
    /// means a message came after the last read.
    async fn catch_up(&mut self) -> Result<(), DomainError> {
        let _ = self.wake.notified().now_or_never();
        let mut new = Vec::new();
        loop {
            let page = self
                .deps
                .events
                .page(&self.session.id, self.seen, PAGE)
                .await
                .map_err(|err| DomainError::Internal(anyhow::anyhow!("{err}")))?;
            let full = page.len() == PAGE;
            if let Some(last) = page.last() {
                self.seen = last.seq;
            }
            new.extend(page);
            if !full {
                break;
            }
        }
        let history_until = self.history_until;
        let (earlier, later): (Vec<_>, Vec<_>) = new.into_iter().partition(|e| e.seq <= history_until);
        self.conversation.extend(memory::rebuild(&earlier));
        for stored in later {
            if let AgentEvent::Message {
                role: MessageRole::User,
                content,
                attachments,
            } = stored.event
            {
                self.conversation.push(ChatMessage::text(
                    ChatRole::User,
                    prompt::with_attachments(content, &attachments),
                ));
            }
        }
        Ok(())
    }

    /// Waits while the person has taken over the desktop; how long it waited, or `None`
    /// when the run was cancelled meanwhile.
    async fn wait_for_desktop(&self) -> Option<Duration> {
        let take_over = &self.deps.take_over;
        if !take_over.is_held(&self.session.id) {
            return Some(Duration::ZERO);
        }
        tracing::info!(
            session = self.session.id.as_str(),
            "paused: the person has the desktop"
        );
        let paused = Instant::now();
        tokio::select! {
            _ = self.cancel.cancelled() => None,
            _ = take_over.released(&self.session.id) => Some(paused.elapsed()),
        }
    }

    async fn has_unseen_messages(&mut self) -> bool {
        let before = self.conversation.len();
        if self.catch_up().await.is_err() {
            return false;
        }
        self.conversation[before..]
            .iter()
            .any(|m| m.role == ChatRole::User)
    }

    /// Appends an event; a failure to store is logged (the run goes on, and the next
    /// event or the end of the run tells the person).
    async fn emit(&mut self, event: AgentEvent) {
        match self.deps.events.append(&self.session.id, event).await {
            Ok((stored, _)) => {
                if stored.seq == self.seen + 1 {
                    self.seen = stored.seq;
                }
            }
            Err(err) => tracing::error!(session = self.session.id.as_str(), %err, "storing an agent event"),
        }
    }

    async fn say(&mut self, content: String) {
        self.emit(AgentEvent::Message {
            role: MessageRole::Assistant,
            content,
            attachments: Vec::new(),
        })
        .await;
    }

    /// Runs one tool call; `Err` ends the turn with that message.
    async fn handle(&mut self, call: &ToolCallRequest) -> Result<Next, String> {
        let args: Value = match serde_json::from_str(if call.arguments.trim().is_empty() {
            "{}"
        } else {
            &call.arguments
        }) {
            Ok(args) => args,
            Err(err) => {
                let problem = format!(
                    "the arguments of {} are not valid JSON ({err}); call it again with a JSON object",
                    call.name
                );
                self.fail_call(call, json!({}), problem).await;
                return Ok(Next::Continue);
            }
        };
        match call.name.as_str() {
            prompt::PLAN_UPDATE => {
                let Some(plan) = self.parse::<PlanArgs>(call, &args) else {
                    return Ok(Next::Continue);
                };
                let steps = plan.steps.into_iter().map(Into::into).collect();
                self.emit(AgentEvent::Plan { steps }).await;
                self.answer(call, "plan recorded".into());
            }
            prompt::STEP_UPDATE => {
                let Some(step) = self.parse::<StepArgs>(call, &args) else {
                    return Ok(Next::Continue);
                };
                self.emit(AgentEvent::Step {
                    step_id: step.step_id,
                    status: step.status,
                    description: step.description,
                })
                .await;
                self.answer(call, "step updated".into());
            }
            prompt::SET_TITLE => {
                let Some(title) = self.parse::<TitleArgs>(call, &args) else {
                    return Ok(Next::Continue);
                };
                self.emit(AgentEvent::Title { title: title.title }).await;
                self.answer(call, "title set".into());
            }
            prompt::NOTIFY_USER => {
                let Some(notify) = self.parse::<NotifyArgs>(call, &args) else {
                    return Ok(Next::Continue);
                };
                self.say(notify.text).await;
                self.answer(call, "delivered".into());
            }
            prompt::ASK_USER => {
                let Some(ask) = self.parse::<AskArgs>(call, &args) else {
                    return Ok(Next::Continue);
                };
                self.answer(
                    call,
                    "asked; the person's reply comes as their next message".into(),
                );
                self.emit(AgentEvent::Wait {
                    prompt: Some(ask.question),
                    take_over: ask.take_over,
                })
                .await;
                return Ok(Next::WaitForPerson);
            }
            name => match split_qualified(name) {
                Some((server, tool)) if self.offers(name) => {
                    let (server, tool) = (server.to_owned(), tool.to_owned());
                    self.mcp_tool(call, &server, &tool, args).await;
                }
                _ => self.sandbox_tool(call, args).await?,
            },
        }
        Ok(Next::Continue)
    }

    fn offers(&self, name: &str) -> bool {
        self.tools[self.built_in_tools..].iter().any(|t| t.name == name)
    }

    /// Offers the MCP servers' tools for this turn. A server that has none (it failed to
    /// start or answer) is told to the person once per run, and the run goes on.
    async fn offer_mcp_tools(&mut self) {
        self.tools.truncate(self.built_in_tools);
        for server in self.deps.mcp.status().await {
            if let Some(error) = server.error {
                if self.mcp_reported.insert(server.name.clone()) {
                    let message = format!(
                        "The MCP server {:?} is unavailable ({error}); the agent works without its tools.",
                        server.name
                    );
                    self.emit(AgentEvent::Error { message }).await;
                }
                continue;
            }
            for tool in server.tools {
                match qualified_name(&server.name, &tool.name) {
                    Some(name) => self.tools.push(ToolSpec {
                        name,
                        description: tool.description,
                        parameters: tool.input_schema,
                    }),
                    None => tracing::warn!(
                        server = server.name,
                        tool = tool.name,
                        "an MCP tool name models refuse; left out"
                    ),
                }
            }
        }
    }

    /// Calls a tool of an MCP server. A server that fails gives the model an error to
    /// work with; the turn goes on.
    async fn mcp_tool(&mut self, call: &ToolCallRequest, server: &str, tool: &str, args: Value) {
        self.tool_event(call, ToolStatus::Calling, args.clone(), None)
            .await;
        let arguments = match &args {
            Value::Object(fields) => fields.clone(),
            Value::Null => serde_json::Map::new(),
            _ => {
                let problem = format!("the arguments of {} must be a JSON object", call.name);
                self.fail_call(call, args, problem).await;
                return;
            }
        };
        match self.deps.mcp.call(server, tool, arguments).await {
            Ok(result) => {
                let (view, text) = mcp::present(server, tool, &result);
                self.tool_event(call, ToolStatus::Called, args, Some(view)).await;
                let text = truncate_for_model(&text, self.deps.budgets.tool_output_chars);
                self.answer(call, text);
            }
            Err(reason) => {
                let problem = format!("The MCP server {server:?} gave no result: {reason}");
                self.fail_call(call, args, problem).await;
            }
        }
    }

    /// Ends an open call with an error both the person and the model see.
    async fn fail_call(&mut self, call: &ToolCallRequest, args: Value, problem: String) {
        let view = json!({ "kind": "error", "message": problem });
        self.tool_event(call, ToolStatus::Called, args, Some(view)).await;
        self.answer(call, problem);
    }

    /// Arguments of one of the run's own tools; wrong ones are told to the model, which
    /// may try again.
    fn parse<T: DeserializeOwned>(&mut self, call: &ToolCallRequest, args: &Value) -> Option<T> {
        match serde_json::from_value(args.clone()) {
            Ok(parsed) => Some(parsed),
            Err(err) => {
                self.answer(call, format!("the arguments do not fit {}: {err}", call.name));
                None
            }
        }
    }

    async fn sandbox_tool(&mut self, call: &ToolCallRequest, args: Value) -> Result<(), String> {
        self.tool_event(call, ToolStatus::Calling, args.clone(), None)
            .await;
        let sandbox = match self.sandbox.clone() {
            Some(sandbox) => sandbox,
            None => {
                let acquired = self
                    .deps
                    .sandboxes
                    .acquire(&self.session.id, &self.session.owner)
                    .await;
                match acquired {
                    Ok(sandbox) => {
                        self.sandbox = Some(sandbox.clone());
                        sandbox
                    }
                    Err(err) => {
                        let message = format!("Could not get a sandbox to work in: {err}");
                        self.close_open_call(&message).await;
                        return Err(message);
                    }
                }
            }
        };
        match self.deps.tools.call(&sandbox, &call.name, &args).await {
            Ok(outcome) => {
                let mut view = outcome.view;
                if let Some(jpeg) = outcome.screenshot {
                    let screenshot = self.keep_screenshot(jpeg).await;
                    if let Some(fields) = view.as_object_mut() {
                        fields.insert("screenshot".into(), screenshot);
                    }
                }
                self.tool_event(call, ToolStatus::Called, args, Some(view)).await;
                let text = truncate_for_model(&outcome.text, self.deps.budgets.tool_output_chars);
                self.answer(call, text);
                Ok(())
            }
            Err(err) => {
                // The sandbox is gone (removed, OOM-killed): the next turn asks for a new one.
                self.sandbox = None;
                let message =
                    format!("The sandbox stopped answering ({err}); a new one is made on your next message.");
                self.fail_call(call, args, message.clone()).await;
                Err(message)
            }
        }
    }

    /// Stores a screenshot once and returns how the view refers to it (`null` when it
    /// could not be stored: the step goes on without its picture).
    async fn keep_screenshot(&self, jpeg: Vec<u8>) -> Value {
        let id = ScreenshotId::of(&jpeg);
        match self.deps.screenshots.put(&self.session.id, &id, jpeg).await {
            Ok(()) => json!({
                "id": id.as_str(),
                "url": format!("/api/v1/sessions/{}/screenshots/{}.jpg", self.session.id.as_str(), id.as_str()),
            }),
            Err(err) => {
                tracing::warn!(session = self.session.id.as_str(), %err, "storing a screenshot");
                Value::Null
            }
        }
    }

    /// A `tool` event; a `calling` one stays open (see [`Run::close_open_call`]) until
    /// its `called` one.
    async fn tool_event(
        &mut self,
        call: &ToolCallRequest,
        status: ToolStatus,
        args: Value,
        view: Option<Value>,
    ) {
        self.open_call = match status {
            ToolStatus::Calling => Some((call.clone(), args.clone())),
            ToolStatus::Called => None,
        };
        self.emit(AgentEvent::Tool {
            call_id: call.id.clone(),
            name: call.name.clone(),
            status,
            args,
            view,
        })
        .await;
    }

    /// Ends the log's open tool call, if any (its call was stopped, ran out of time, or
    /// found no sandbox), so every `calling` has its `called` and the model learns why.
    async fn close_open_call(&mut self, why: &str) {
        if let Some((call, args)) = self.open_call.take() {
            let view = json!({ "kind": "error", "message": why });
            self.tool_event(&call, ToolStatus::Called, args, Some(view)).await;
            self.answer(&call, format!("[{why}]"));
        }
    }

    /// The tool message answering `call`, which every call needs before the next request.
    fn answer(&mut self, call: &ToolCallRequest, text: String) {
        self.conversation.push(ChatMessage::tool_result(&call.id, text));
    }

    async fn interrupt_shell(&mut self) {
        if let Some(sandbox) = &self.sandbox {
            if let Err(err) = self.deps.tools.interrupt(sandbox).await {
                tracing::warn!(%err, "killing the agent's command on stop");
            }
        }
    }
}

/// What the person reads when the model request failed.
fn model_failure(err: &DomainError) -> String {
    match err {
        DomainError::Unavailable { detail, .. } => {
            format!("The model provider is not answering ({detail}). Check LLM_BASE_URL and the provider's status, then send a message to retry.")
        }
        DomainError::Invalid(detail) => {
            format!("The model provider refused the request ({detail}). Check LLM_MODEL and LLM_API_KEY.")
        }
        other => format!("The model request failed: {other}"),
    }
}
