//! The run and the session's log: the working memory of earlier turns, read back once;
//! the person's messages, taken from the inbox; the part of the working memory each
//! model request leaves; and every event the run appends (none once its lease is lost).

use super::Run;
use crate::application::agent::{memory, prompt};
use crate::domain::agent::{ChatMessage, ChatRole};
use crate::domain::event::{AgentEvent, MessageRole};
use crate::domain::DomainError;

/// Events read per query when loading the history.
const PAGE: usize = 500;

impl Run {
    /// The turn's tokens, as one event (not one per request: every append is a durable
    /// write). A sub-agent's count for the session too, by the model it used.
    pub(super) async fn record_usage(&mut self) {
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

    /// Records what the request begun at `from` added to the conversation (calls a
    /// stop or failure left unrun answered as such), for the turns after this one.
    pub(super) async fn remember(&mut self, from: usize) {
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
    pub(super) async fn load_history(&mut self) -> Result<(), DomainError> {
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
    pub(super) fn read_inbox(&mut self) {
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

    /// Appends an event. While the store does not answer the run waits for it, so its
    /// log has no hole; another failure is logged (the run goes on, and the next event
    /// or the end of the run tells the person).
    pub(super) async fn emit(&self, event: AgentEvent) {
        if self.fence.is_raised() {
            return;
        }
        let event = self.role.place(event);
        let go_on = || !self.fence.is_raised();
        let stored = self
            .deps
            .events
            .append_through_outage(&self.session.id, event, go_on)
            .await;
        if let Err(err) = stored {
            tracing::error!(session = self.session.id.as_str(), %err, "storing an agent event");
        }
    }

    /// The model's words, as the person reads them.
    pub(super) async fn say(&self, content: String) {
        self.emit(AgentEvent::Message {
            role: MessageRole::Assistant,
            content,
            attachments: Vec::new(),
        })
        .await;
    }
}
