//! The person's memory across chats in the session's run: the notes a chat's system
//! prompt was given at its first run (the same in every later run of the chat), and the
//! `memory` tool, with which the agent keeps, rewrites or drops a short note (offered
//! only while the person has memory on). The call is a tool line the person sees; what
//! is refused (a secret, a note too long, memory full) is the model's to read, and the
//! turn goes on. A note added or replaced once the chat has read content from outside
//! waits for the person's approval (the card and the model both say so). A sub-agent
//! gets neither, nor does a job's session (see
//! [`crate::domain::session::Session::headless`]): only chats a person opened do.

use super::Run;
use crate::application::agent::untrusted::{read_outside, ToolReply};
use crate::application::memory::NoteWrite;
use crate::domain::agent::{ChatRole, ToolCallRequest};
use crate::domain::logged_call::LoggedCall;
use crate::domain::memory::{Approval, MEMORY_TOOL};
use crate::domain::run_call::{MemoryAction, MemoryArgs};
use crate::domain::tool::{MemoryChange, ToolView};

impl Run {
    /// As a turn starts: the `memory` tool offered while memory is on, and, in a run's
    /// first turn, the chat's notes added to its system prompt. A store that fails costs
    /// the turn its memory, not the turn.
    pub(super) async fn recall_memory(&mut self) {
        let owner = &self.session.owner;
        if self.session.headless {
            self.catalogue.offer_optional(MEMORY_TOOL, false);
            return;
        }
        if self.history_until.is_none() {
            let enabled = self.deps.memory.get(owner).await.map(|memory| memory.enabled);
            self.catalogue
                .offer_optional(MEMORY_TOOL, enabled.unwrap_or(false));
            return;
        }
        match self.deps.memory.recall(owner, &self.session.id).await {
            Ok(recall) => {
                self.catalogue.offer_optional(MEMORY_TOOL, recall.enabled);
                let system = self
                    .conversation
                    .first_mut()
                    .filter(|m| m.role == ChatRole::System);
                if let Some(content) = system.and_then(|system| system.content.as_mut()) {
                    content.push_str(&recall.prompt);
                }
            }
            Err(err) => {
                tracing::warn!(session = self.session.id.as_str(), %err, "reading the person's memory");
                self.catalogue.offer_optional(MEMORY_TOOL, false);
            }
        }
    }

    /// Writes the note, between the call's `calling` and `called` events.
    pub(super) async fn memory_tool(&mut self, call: &ToolCallRequest, logged: LoggedCall, args: MemoryArgs) {
        self.open(call, logged).await;
        let (action, old) = (args.action, args.old.clone());
        let approval = if read_outside(&self.conversation) && action != MemoryAction::Remove {
            Approval::Pending
        } else {
            Approval::Kept
        };
        let written = match args.write() {
            Ok(write) => {
                let text = match &write {
                    NoteWrite::Add(text) | NoteWrite::Replace { text, .. } => text.as_str().to_owned(),
                    NoteWrite::Remove { .. } => String::new(),
                };
                self.deps
                    .memory
                    .write(&self.session.owner, &self.session.id, write, approval)
                    .await
                    .map(|notes| (text, notes))
            }
            Err(problem) => Err(problem),
        };
        let (view, reply) = match written {
            Ok((text, notes)) => {
                let done = match action {
                    MemoryAction::Add => "added",
                    MemoryAction::Replace => "replaced",
                    MemoryAction::Remove => "removed",
                };
                let pending = approval == Approval::Pending;
                let reply = if pending {
                    format!(
                        "note kept, waiting for the person's approval: this chat read content from outside, \
                         so no chat gets the note until the person approves it; memory holds {notes} notes"
                    )
                } else {
                    format!(
                        "note {done}; memory holds {notes} notes (new chats get them; this chat's prompt stays as it began)"
                    )
                };
                let change = MemoryChange {
                    action,
                    text,
                    old,
                    notes,
                    pending,
                };
                (ToolView::Memory(change), reply)
            }
            Err(problem) => (ToolView::error(problem.clone()), problem),
        };
        self.close(&call.id, view, ToolReply::own(reply)).await;
    }
}
