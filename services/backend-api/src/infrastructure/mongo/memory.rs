//! Each person's memory in MongoDB: one document per person in `memories` (unique by
//! `owner`), written only over the version it was read at, so replicas racing on one
//! person's notes lose no change; and the prompt part each chat was given in
//! `memory_prompts` (unique by owner and chat), set once by an upsert.

use mongodb::bson::{doc, Document};
use mongodb::options::ReturnDocument;

use super::{bson, failure, is_duplicate_key, MongoStore};
use crate::domain::memory::Memory;
use crate::domain::ports::MemoryRepository;
use crate::domain::session::SessionId;
use crate::domain::user::UserId;
use crate::domain::{DomainError, DomainResult};

/// The stored prompt part of a `memory_prompts` document.
fn prompt_of(stored: Option<Document>) -> DomainResult<String> {
    let stored =
        stored.ok_or_else(|| DomainError::Internal(anyhow::anyhow!("the chat's memory prompt vanished")))?;
    stored
        .get_str("prompt")
        .map(str::to_owned)
        .map_err(|err| DomainError::Internal(anyhow::anyhow!("a stored memory prompt: {err}")))
}

#[async_trait::async_trait]
impl MemoryRepository for MongoStore {
    async fn memory(&self, owner: &UserId) -> DomainResult<Option<Memory>> {
        self.memories
            .find_one(doc! { "owner": owner.as_str() })
            .await
            .map_err(failure)
    }

    async fn store_memory(&self, memory: &Memory) -> DomainResult<bool> {
        let next = Memory {
            version: memory.version + 1,
            ..memory.clone()
        };
        if memory.version == 0 {
            // The unique index on `owner` refuses a second first version.
            return match self.memories.insert_one(&next).await {
                Ok(_) => Ok(true),
                Err(err) if is_duplicate_key(&err) => Ok(false),
                Err(err) => Err(failure(err)),
            };
        }
        let filter = doc! { "owner": memory.owner.as_str(), "version": bson(&memory.version)? };
        let replaced = self.memories.replace_one(filter, &next).await.map_err(failure)?;
        Ok(replaced.matched_count == 1)
    }

    async fn freeze_prompt(&self, owner: &UserId, session: &SessionId, prompt: &str) -> DomainResult<String> {
        let filter = doc! { "owner": owner.as_str(), "session_id": session.as_str() };
        let upsert = self
            .memory_prompts
            .find_one_and_update(filter.clone(), doc! { "$setOnInsert": { "prompt": prompt } })
            .upsert(true)
            .return_document(ReturnDocument::After)
            .await;
        match upsert {
            Ok(stored) => prompt_of(stored),
            // Two upserts raced and this one lost: the other's is kept.
            Err(err) if is_duplicate_key(&err) => {
                prompt_of(self.memory_prompts.find_one(filter).await.map_err(failure)?)
            }
            Err(err) => Err(failure(err)),
        }
    }

    async fn forget_prompts(&self, owner: &UserId) -> DomainResult<()> {
        self.memory_prompts
            .delete_many(doc! { "owner": owner.as_str() })
            .await
            .map_err(failure)?;
        Ok(())
    }
}
