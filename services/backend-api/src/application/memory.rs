//! Each person's memory across chats (see [`crate::domain::memory`]): what the Memory
//! page does — read it, turn it on or off, edit or delete a note, wipe it — and what the
//! agent does — write notes with its `memory` tool, and give a new chat the notes as they
//! are at its first run, frozen for that chat so its prompt stays the same whatever the
//! agent writes meanwhile. What the person does reaches every chat at its next run:
//! while memory is off no chat gets notes, and an edit, a delete or a wipe on the
//! Memory page makes each chat forget the notes it was given. A note the agent writes
//! after its chat read content from outside waits for the person's approval on the
//! Memory page before any chat gets it.
//!
//! A person's notes are theirs only: every use case takes the owner, and a note id of
//! another person's memory is not found. A change is read, applied and stored over the
//! version read; a writer that lost the race reads again and applies it once more.

use std::sync::Arc;

use chrono::Utc;

use super::agent::untrusted::marked;
use super::error::{AppError, AppResult};
use crate::domain::ids::NoteId;
use crate::domain::memory::{Approval, Memory, NoteText};
use crate::domain::ports::MemoryRepository;
use crate::domain::run_call::{MemoryAction, MemoryArgs};
use crate::domain::session::SessionId;
use crate::domain::user::UserId;
use crate::domain::{DomainError, DomainResult};

/// How often a change is tried again when other writers keep coming first.
const ATTEMPTS: usize = 8;

impl MemoryArgs {
    /// What the call asks of the memory; `Err` says what to fix.
    pub fn write(self) -> Result<NoteWrite, String> {
        let text = || NoteText::parse(&self.text).map_err(|err| err.to_string());
        let old = || {
            self.old
                .clone()
                .filter(|old| !old.trim().is_empty())
                .ok_or_else(|| "old: name the note by a part of its text".to_owned())
        };
        Ok(match self.action {
            MemoryAction::Add => NoteWrite::Add(text()?),
            MemoryAction::Replace => NoteWrite::Replace {
                old: old()?,
                text: text()?,
            },
            MemoryAction::Remove => NoteWrite::Remove { old: old()? },
        })
    }
}

/// What the agent's `memory` tool asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum NoteWrite {
    Add(NoteText),
    /// The note containing `old` gets the new text.
    Replace {
        old: String,
        text: NoteText,
    },
    /// The note containing `old` goes.
    Remove {
        old: String,
    },
}

/// What a new chat gets of its person's memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Recall {
    /// Whether the agent is offered the `memory` tool (memory is on now).
    pub enabled: bool,
    /// The part of the system prompt the chat was given at its first run (empty: none).
    pub prompt: String,
}

pub struct MemoryService {
    store: Arc<dyn MemoryRepository>,
}

impl MemoryService {
    pub fn new(store: Arc<dyn MemoryRepository>) -> Self {
        Self { store }
    }

    /// The person's memory (off and empty until they change it).
    pub async fn get(&self, owner: &UserId) -> AppResult<Memory> {
        let stored = self.store.memory(owner).await?;
        Ok(stored.unwrap_or_else(|| Memory::new(owner.clone())))
    }

    pub async fn set_enabled(&self, owner: &UserId, enabled: bool) -> AppResult<Memory> {
        self.change(owner, |memory| {
            memory.enabled = enabled;
            Ok(())
        })
        .await
    }

    /// Gives one of the person's notes a new text; the person's chats forget what they
    /// were given, so each gets the notes as they are now at its next run.
    pub async fn edit_note(&self, owner: &UserId, id: &NoteId, text: NoteText) -> AppResult<Memory> {
        self.change_for_every_chat(owner, |memory| memory.edit(id, text.clone()))
            .await
    }

    /// Lets the person's chats have a note that waits for approval (in place of the one
    /// it replaces), each at its next run, as [`MemoryService::edit_note`].
    pub async fn approve_note(&self, owner: &UserId, id: &NoteId) -> AppResult<Memory> {
        self.change_for_every_chat(owner, |memory| memory.approve(id))
            .await
    }

    /// Deletes one of the person's notes, and, as [`MemoryService::edit_note`], what the
    /// person's chats were given.
    pub async fn delete_note(&self, owner: &UserId, id: &NoteId) -> AppResult<Memory> {
        self.change_for_every_chat(owner, |memory| memory.delete(id))
            .await
    }

    /// Forgets every note, and what the person's chats were given of them (a chat still
    /// running keeps what it was told until its run ends). Memory stays on or off.
    pub async fn wipe(&self, owner: &UserId) -> AppResult<Memory> {
        self.change_for_every_chat(owner, |memory| {
            memory.notes.clear();
            Ok(())
        })
        .await
    }

    /// Writes a note for the agent of `session`, kept at once or waiting for approval:
    /// the notes the memory holds afterwards; `Err` is for the model to read.
    pub async fn write(
        &self,
        owner: &UserId,
        session: &SessionId,
        write: NoteWrite,
        approval: Approval,
    ) -> Result<usize, String> {
        let outcome = self
            .change(owner, |memory| {
                if !memory.enabled {
                    return Err(DomainError::Invalid(
                        "memory is off: the person turned it off, so nothing is kept".into(),
                    ));
                }
                match write.clone() {
                    NoteWrite::Add(text) => memory.add(text, session.clone(), Utc::now(), approval),
                    NoteWrite::Replace { old, text } => {
                        memory.replace(&memory.find(&old)?, text, session.clone(), Utc::now(), approval)
                    }
                    NoteWrite::Remove { old } => memory.delete(&memory.find(&old)?),
                }
            })
            .await;
        match outcome {
            Ok(memory) => Ok(memory.notes.len()),
            Err(AppError::Internal(err)) => {
                tracing::error!(%err, "writing a memory note");
                Err("memory could not be written right now".into())
            }
            Err(err) => Err(err.to_string()),
        }
    }

    /// What the chat `session` gets of its person's memory: while memory is on, the notes
    /// as they were at its first run (frozen now when this is it); while off, nothing.
    pub async fn recall(&self, owner: &UserId, session: &SessionId) -> AppResult<Recall> {
        let memory = self.get(owner).await?;
        let prompt = if memory.enabled {
            self.store
                .freeze_prompt(owner, session, &memory.prompt(marked))
                .await?
        } else {
            String::new()
        };
        Ok(Recall {
            enabled: memory.enabled,
            prompt,
        })
    }

    /// [`MemoryService::change`], then the person's chats forget what they were given, so
    /// each gets the notes as they are now at its next run.
    async fn change_for_every_chat(
        &self,
        owner: &UserId,
        change: impl Fn(&mut Memory) -> DomainResult<()>,
    ) -> AppResult<Memory> {
        let memory = self.change(owner, change).await?;
        self.store.forget_prompts(owner).await?;
        Ok(memory)
    }

    /// Applies `change` to the person's memory and stores it over the version it was
    /// read at, reading again when another writer came first.
    async fn change(
        &self,
        owner: &UserId,
        change: impl Fn(&mut Memory) -> DomainResult<()>,
    ) -> AppResult<Memory> {
        for _ in 0..ATTEMPTS {
            let mut memory = self.get(owner).await?;
            change(&mut memory)?;
            if self.store.store_memory(&memory).await? {
                memory.version += 1;
                return Ok(memory);
            }
        }
        Err(AppError::Unavailable(
            "memory is being changed from elsewhere; retry shortly".into(),
        ))
    }
}
