//! Automations' file contents in the embedded store, by `(automation, key)`; removed with their
//! automation in the same write transaction ([`forget_all`]).

use redb::{ReadableDatabase, TableDefinition, WriteTransaction};

use super::{EmbeddedStore, ID_MAX};
use crate::domain::ids::AutomationId;
use crate::domain::ports::AutomationFiles;
use crate::domain::DomainResult;

const FILES: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("automation_files");

pub(super) fn create_tables(txn: &WriteTransaction) -> anyhow::Result<()> {
    txn.open_table(FILES)?;
    Ok(())
}

/// Removes every file of the automation `id`.
pub(super) fn forget_all(txn: &WriteTransaction, id: &str) -> anyhow::Result<()> {
    txn.open_table(FILES)?
        .retain_in((id, "")..(id, ID_MAX), |_, _| false)?;
    Ok(())
}

#[async_trait::async_trait]
impl AutomationFiles for EmbeddedStore {
    async fn put_file(&self, id: &AutomationId, key: &str, content: Vec<u8>) -> DomainResult<()> {
        let (id, key) = (id.clone(), key.to_owned());
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(FILES)?
                .insert((id.as_str(), key.as_str()), content.as_slice())?;
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn file(&self, id: &AutomationId, key: &str) -> DomainResult<Option<Vec<u8>>> {
        let (id, key) = (id.clone(), key.to_owned());
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let files = txn.open_table(FILES)?;
            let content = files.get((id.as_str(), key.as_str()))?;
            Ok(content.map(|content| content.value().to_vec()))
        })
        .await
    }

    async fn remove_file(&self, id: &AutomationId, key: &str) -> DomainResult<()> {
        let (id, key) = (id.clone(), key.to_owned());
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(FILES)?.remove((id.as_str(), key.as_str()))?;
            txn.commit()?;
            Ok(())
        })
        .await
    }
}
