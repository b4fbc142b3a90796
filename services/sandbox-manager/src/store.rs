//! Where the manager keeps its sandbox records so a restart knows them: one `redb` file
//! in the data directory, a record per sandbox id stored as JSON. Every change is a
//! durable transaction before the manager acts on it, which is what lets reconciliation
//! after a crash tell a half-made sandbox from a live one.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition};

use crate::record::SandboxRecord;

const RECORDS: TableDefinition<&str, &[u8]> = TableDefinition::new("sandboxes");

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
