//! The manager's records in memory, written through to the [`RecordStore`] before any
//! change is visible. One async lock orders every change, so the store never holds an
//! older version of a record than memory does, and quota checks see every insert.

use std::collections::HashMap;

use sandbox_manager_contract::SandboxState;
use tokio::sync::Mutex;

use crate::error::{ManagerError, ManagerResult};
use crate::record::{SandboxRecord, SessionId};
use crate::store::RecordStore;

pub struct Registry {
    records: Mutex<HashMap<String, SandboxRecord>>,
    store: RecordStore,
}

impl Registry {
    pub async fn load(store: RecordStore) -> anyhow::Result<Self> {
        let records = store.load_all().await?;
        Ok(Self {
            records: Mutex::new(records.into_iter().map(|r| (r.id.clone(), r)).collect()),
            store,
        })
    }

    pub async fn get(&self, id: &str) -> Option<SandboxRecord> {
        self.records.lock().await.get(id).cloned()
    }

    /// The session's record; a live one before an ended one, which stays beside its
    /// successor until that one runs (so its volume is not taken for an orphan's).
    pub async fn by_session(&self, session: &SessionId) -> Option<SandboxRecord> {
        let records = self.records.lock().await;
        let mut of_session = records.values().filter(|r| &r.session_id == session);
        of_session
            .clone()
            .find(|r| r.state.is_live())
            .or_else(|| of_session.next())
            .cloned()
    }

    pub async fn all(&self) -> Vec<SandboxRecord> {
        let mut records: Vec<_> = self.records.lock().await.values().cloned().collect();
        records.sort_by(|a, b| a.created_at.cmp(&b.created_at).then_with(|| a.id.cmp(&b.id)));
        records
    }

    /// Inserts a new record after `admit` accepted it against every live record.
    pub async fn insert(
        &self,
        record: &SandboxRecord,
        admit: impl FnOnce(&[&SandboxRecord]) -> ManagerResult<()>,
    ) -> ManagerResult<()> {
        let mut records = self.records.lock().await;
        let live: Vec<&SandboxRecord> = records.values().filter(|r| r.state.is_live()).collect();
        admit(&live)?;
        self.store.put(record).await?;
        records.insert(record.id.clone(), record.clone());
        Ok(())
    }

    /// Applies `change` to the record and stores it; `None` when there is no such record.
    pub async fn update(
        &self,
        id: &str,
        change: impl FnOnce(&mut SandboxRecord),
    ) -> ManagerResult<Option<SandboxRecord>> {
        let mut records = self.records.lock().await;
        let Some(current) = records.get(id) else {
            return Ok(None);
        };
        let mut next = current.clone();
        change(&mut next);
        self.store.put(&next).await?;
        records.insert(id.to_owned(), next.clone());
        Ok(Some(next))
    }

    /// Sets the state, unless the record is gone.
    pub async fn set_state(&self, id: &str, state: SandboxState) -> ManagerResult<Option<SandboxRecord>> {
        self.update(id, |r| r.state = state).await
    }

    pub async fn remove(&self, id: &str) -> ManagerResult<()> {
        let mut records = self.records.lock().await;
        self.store.delete(id).await.map_err(ManagerError::Internal)?;
        records.remove(id);
        Ok(())
    }
}
