//! Where the manager keeps its sandbox records so a restart knows them: one `redb` file
//! in the data directory, a record per sandbox id stored as JSON. Every change is a
//! durable transaction before the manager acts on it, which is what lets reconciliation
//! after a crash tell a half-made sandbox from a live one. The same file keeps the recent
//! lifecycle events by sequence number, so numbering goes on after a restart and a
//! client resuming with `Last-Event-ID` still gets what it missed.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition};

use sandbox_manager_contract::LifecycleEvent;

use crate::record::SandboxRecord;

const RECORDS: TableDefinition<&str, &[u8]> = TableDefinition::new("sandboxes");
const EVENTS: TableDefinition<u64, &[u8]> = TableDefinition::new("lifecycle_events");

#[derive(Clone)]
pub struct RecordStore {
    db: Arc<Database>,
}

impl RecordStore {
    /// Opens (or creates) `records.redb` in `dir`. The directory is made private: the
    /// records hold every sandbox's secrets.
    pub fn open(dir: &Path) -> anyhow::Result<Self> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                .with_context(|| format!("making {} private", dir.display()))?;
        }
        let path = dir.join("records.redb");
        let db = Database::create(&path).with_context(|| {
            format!(
                "opening {} (is another manager using this data directory?)",
                path.display()
            )
        })?;
        let txn = db.begin_write()?;
        txn.open_table(RECORDS)?;
        txn.open_table(EVENTS)?;
        txn.commit()?;
        Ok(Self { db: Arc::new(db) })
    }

    pub async fn load_all(&self) -> anyhow::Result<Vec<SandboxRecord>> {
        let db = self.db.clone();
        tokio::task::spawn_blocking(move || {
            let txn = db.begin_read()?;
            let table = txn.open_table(RECORDS)?;
            let mut records = Vec::new();
            for entry in table.iter()? {
                let (key, value) = entry?;
                match serde_json::from_slice(value.value()) {
                    Ok(record) => records.push(record),
                    // An unreadable record must not stop the manager; its container (if
                    // any) is then an orphan and gets removed.
                    Err(err) => tracing::error!(id = key.value(), %err, "skipping an unreadable record"),
                }
            }
            Ok(records)
        })
        .await?
    }

    pub async fn put(&self, record: &SandboxRecord) -> anyhow::Result<()> {
        let db = self.db.clone();
        let id = record.id.clone();
        let bytes = serde_json::to_vec(record)?;
        tokio::task::spawn_blocking(move || {
            let txn = db.begin_write()?;
            txn.open_table(RECORDS)?.insert(id.as_str(), bytes.as_slice())?;
            txn.commit()?;
            Ok(())
        })
        .await?
    }

    /// The last `keep` lifecycle events, oldest first.
    pub fn recent_events(&self, keep: usize) -> anyhow::Result<Vec<LifecycleEvent>> {
        let txn = self.db.begin_read()?;
        let table = txn.open_table(EVENTS)?;
        let mut events = Vec::new();
        for entry in table.iter()?.rev().take(keep) {
            let (seq, value) = entry?;
            match serde_json::from_slice(value.value()) {
                Ok(event) => events.push(event),
                Err(err) => tracing::error!(seq = seq.value(), %err, "skipping an unreadable event"),
            }
        }
        events.reverse();
        Ok(events)
    }

    /// Stores an event and forgets those `keep` or more numbers before it. Synchronous:
    /// the bus numbers and keeps events under one lock, and a restart must not number
    /// one again, so it is on disk before anyone hears of it.
    pub fn append_event(&self, event: &LifecycleEvent, keep: usize) -> anyhow::Result<()> {
        let bytes = serde_json::to_vec(event)?;
        let txn = self.db.begin_write()?;
        {
            let mut table = txn.open_table(EVENTS)?;
            table.insert(event.seq, bytes.as_slice())?;
            if let Some(forget) = event.seq.checked_sub(keep as u64) {
                table.retain_in(..=forget, |_, _| false)?;
            }
        }
        txn.commit()?;
        Ok(())
    }

    pub async fn delete(&self, id: &str) -> anyhow::Result<()> {
        let db = self.db.clone();
        let id = id.to_owned();
        tokio::task::spawn_blocking(move || {
            let txn = db.begin_write()?;
            txn.open_table(RECORDS)?.remove(id.as_str())?;
            txn.commit()?;
            Ok(())
        })
        .await?
    }
}
