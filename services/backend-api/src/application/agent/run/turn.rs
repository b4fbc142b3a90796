//! The loop: one turn from its start (the session read again, its model picked, the MCP
//! tools listed) through model requests and their tool calls to how it ended, within the
//! turn's step budget and, through its [`Guard`], its time budget and stop.

use std::sync::Arc;

use super::messages;
use super::sub_agents::{StepBudget, SubAgents};
use super::{Next, Run, TurnEnd};
use crate::application::agent::context::compact;
use crate::application::agent::guard::{Guard, Interrupted};
use crate::domain::agent::{ChatMessage, ChatRole, ToolCallRequest};
use crate::domain::event::AgentEvent;
use crate::domain::model::ModelInfo;
use crate::domain::run_call::AUTOMATE_TOOL;
use crate::domain::session::SessionStatus;

/// Characters a token stands for, roughly, when a model's context window (in tokens)
/// bounds the conversation (in characters).
const CHARS_PER_TOKEN: usize = 3;

impl Run {
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

    async fn turn(&mut self) -> TurnEnd {
        if self.role.is_lead() {
            self.recall_memory().await;
        }
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
        // What outlives the run is made only where its person is.
        self.catalogue.offer_optional(AUTOMATE_TOOL, self.registers());
        let mut guard = self.guard();
        self.work(&model, &mut guard).await
    }

    /// The turn's time budget and stop, and the person's hold on the desktop; a
    /// sub-agent's guard also stops when the delegating turn ends.
    pub(super) fn guard(&self) -> Guard {
        Guard::new(
            self.cancel.clone(),
            self.deps.take_over.clone(),
            self.session.id.clone(),
            self.deps.budgets.max_run,
        )
    }

    /// Model requests and tool calls until the model answers or something ends the turn.
    pub(super) async fn work(&mut self, model: &ModelInfo, guard: &mut Guard) -> TurnEnd {
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
                Ok(Err(err)) => return TurnEnd::Failed(messages::model_failure(&model.name, &err)),
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
        TurnEnd::Failed(messages::out_of_steps(self.deps.budgets.max_steps))
    }

    /// The model this turn asks: the session's, or the default one. A model that cannot
    /// call tools, or is no longer offered, is a message telling the person what to do.
    fn turn_model(&self) -> Result<ModelInfo, String> {
        let models = &self.deps.models;
        let model = match &self.session.model {
            Some(name) => models.get(name).ok_or_else(|| messages::model_gone(name))?,
            None => models.default_model().ok_or_else(|| self.deps.no_model.clone())?,
        };
        if !model.supports_tools {
            return Err(messages::model_without_tools(&model.name));
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
            Interrupted::OutOfTime => TurnEnd::Failed(messages::out_of_time(self.deps.budgets.max_run)),
        }
    }
}
