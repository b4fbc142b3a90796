//! Each person's memory in the embedded store: one record per person by their id, and
//! the prompt part each chat was given by (person, chat). A change is written in one
//! write transaction that first compares the stored version, which redb serialises.
//!
//! A chat's prompt part is written as a new chat's first run starts, before its first
//! model request, so it is committed without waiting for the disk (redb's `Durability::None`
//! — the next durable commit, the run's `status` event right after, takes it along):
//! a crash in between loses only the freeze, and the chat's next run freezes the notes
//! as they are then.

use redb::{ReadableDatabase, ReadableTable};

use super::{decode, EmbeddedStore, ID_MAX, MEMORIES, MEMORY_PROMPTS};
use crate::domain::memory::Memory;
use crate::domain::ports::MemoryRepository;
use crate::domain::session::SessionId;
use crate::domain::user::UserId;
use crate::domain::DomainResult;

#[async_trait::async_trait]
impl MemoryRepository for EmbeddedStore {
    async fn memory(&self, owner: &UserId) -> DomainResult<Option<Memory>> {
        let owner = owner.clone();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(MEMORIES)?;
            let stored = table.get(owner.as_str())?;
            stored.map(|value| decode(value.value())).transpose()
        })
        .await
    }

    async fn store_memory(&self, memory: &Memory) -> DomainResult<bool> {
        let memory = memory.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            {
                let mut table = txn.open_table(MEMORIES)?;
                let stored_version = match table.get(memory.owner.as_str())? {
                    Some(value) => decode::<Memory>(value.value())?.version,
                    None => 0,
                };
                if stored_version != memory.version {
                    return Ok(false);
                }
                let next = Memory {
                    version: memory.version + 1,
                    ..memory
                };
                table.insert(next.owner.as_str(), serde_json::to_vec(&next)?.as_slice())?;
            }
            txn.commit()?;
            Ok(true)
        })
        .await
    }

    async fn freeze_prompt(&self, owner: &UserId, session: &SessionId, prompt: &str) -> DomainResult<String> {
        let (owner, session, prompt) = (owner.clone(), session.clone(), prompt.to_owned());
        self.blocking(move |db| {
            let mut txn = db.begin_write()?;
            txn.set_durability(redb::Durability::None)?;
            let kept = {
                let mut table = txn.open_table(MEMORY_PROMPTS)?;
                let key = (owner.as_str(), session.as_str());
                let stored = table.get(key)?.map(|value| value.value().to_owned());
                match stored {
                    Some(kept) => kept,
                    None => {
                        table.insert(key, prompt.as_str())?;
                        prompt
                    }
                }
            };
            txn.commit()?;
            Ok(kept)
        })
        .await
    }

    async fn forget_prompts(&self, owner: &UserId) -> DomainResult<()> {
        let owner = owner.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(MEMORY_PROMPTS)?
                .retain_in((owner.as_str(), "")..=(owner.as_str(), ID_MAX), |_, _| false)?;
            txn.commit()?;
            Ok(())
        })
        .await
    }
}
