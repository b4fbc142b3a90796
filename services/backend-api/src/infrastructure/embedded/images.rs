//! Images in the embedded store: one table keyed by (session, image key); removed with
//! the session.

use redb::{ReadableDatabase, ReadableTable};

use super::{EmbeddedStore, SCREENSHOTS};
use crate::domain::image::ImageId;
use crate::domain::ports::ImageStore;
use crate::domain::session::SessionId;
use crate::domain::DomainResult;

#[async_trait::async_trait]
impl ImageStore for EmbeddedStore {
    async fn put(&self, session: &SessionId, id: &ImageId, bytes: Vec<u8>) -> DomainResult<()> {
        let (session, key) = (session.clone(), id.key());
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            {
                let mut table = txn.open_table(SCREENSHOTS)?;
                let key = (session.as_str(), key.as_str());
                if table.get(key)?.is_none() {
                    table.insert(key, bytes.as_slice())?;
                }
            }
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn get(&self, session: &SessionId, id: &ImageId) -> DomainResult<Option<Vec<u8>>> {
        let (session, key) = (session.clone(), id.key());
        self.blocking(move |db| {
            let table = db.begin_read()?.open_table(SCREENSHOTS)?;
            let found = table.get((session.as_str(), key.as_str()))?;
            Ok(found.map(|bytes| bytes.value().to_vec()))
        })
        .await
    }
}
