//! Screenshots in the embedded store: one table keyed by (session, image hash); removed
//! with the session.

use redb::{ReadableDatabase, ReadableTable};

use super::{EmbeddedStore, SCREENSHOTS};
use crate::domain::ports::ScreenshotStore;
use crate::domain::screenshot::ScreenshotId;
use crate::domain::session::SessionId;
use crate::domain::DomainResult;

#[async_trait::async_trait]
impl ScreenshotStore for EmbeddedStore {
    async fn put(&self, session: &SessionId, id: &ScreenshotId, jpeg: Vec<u8>) -> DomainResult<()> {
        let (session, id) = (session.clone(), id.clone());
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            {
                let mut table = txn.open_table(SCREENSHOTS)?;
                let key = (session.as_str(), id.as_str());
                if table.get(key)?.is_none() {
                    table.insert(key, jpeg.as_slice())?;
                }
            }
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn get(&self, session: &SessionId, id: &ScreenshotId) -> DomainResult<Option<Vec<u8>>> {
        let (session, id) = (session.clone(), id.clone());
        self.blocking(move |db| {
            let table = db.begin_read()?.open_table(SCREENSHOTS)?;
            let found = table.get((session.as_str(), id.as_str()))?;
            Ok(found.map(|jpeg| jpeg.value().to_vec()))
        })
        .await
    }
}
