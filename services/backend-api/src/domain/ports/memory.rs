//! The port of each person's memory across chats: their notes and whether memory is on
//! (one record per person, written over the version it was read at), and the part of it
//! each chat's system prompt was given at its first run (frozen for that chat).

use crate::domain::error::DomainResult;
use crate::domain::memory::Memory;
use crate::domain::session::SessionId;
use crate::domain::user::UserId;

#[async_trait::async_trait]
pub trait MemoryRepository: Send + Sync {
    /// The person's memory; `None` when nothing was ever stored for them.
    async fn memory(&self, owner: &UserId) -> DomainResult<Option<Memory>>;
    /// Stores `memory` as version `memory.version + 1` if the stored one is still
    /// `memory.version` (0: none stored); `false`, storing nothing, when another writer
    /// came first.
    async fn store_memory(&self, memory: &Memory) -> DomainResult<bool>;
    /// The prompt part the chat `session` of `owner` was given, or, when it has none yet,
    /// `prompt`, kept as its own: whichever is kept is returned.
    async fn freeze_prompt(&self, owner: &UserId, session: &SessionId, prompt: &str) -> DomainResult<String>;
    /// Forgets the prompt parts of every chat of `owner`.
    async fn forget_prompts(&self, owner: &UserId) -> DomainResult<()>;
}
