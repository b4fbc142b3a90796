//! Screenshots in MongoDB: one document per (session, image hash) — the pair is the
//! document's `_id`, so storing the same image twice is a no-op — holding the JPEG as
//! binary (well under the 16 MiB document limit).

use mongodb::bson::spec::BinarySubtype;
use mongodb::bson::{doc, Binary};

use super::{failure, is_duplicate_key, MongoStore};
use crate::domain::ports::ScreenshotStore;
use crate::domain::screenshot::ScreenshotId;
use crate::domain::session::SessionId;
use crate::domain::DomainResult;

fn key(session: &SessionId, id: &ScreenshotId) -> String {
    format!("{}/{}", session.as_str(), id.as_str())
}

#[async_trait::async_trait]
impl ScreenshotStore for MongoStore {
    async fn put(&self, session: &SessionId, id: &ScreenshotId, jpeg: Vec<u8>) -> DomainResult<()> {
        let image = Binary {
            subtype: BinarySubtype::Generic,
            bytes: jpeg,
        };
        let document = doc! { "_id": key(session, id), "session_id": session.as_str(), "jpeg": image };
        match self.screenshots.insert_one(document).await {
            Err(err) if !is_duplicate_key(&err) => Err(failure(err)),
            _ => Ok(()),
        }
    }

    async fn get(&self, session: &SessionId, id: &ScreenshotId) -> DomainResult<Option<Vec<u8>>> {
        let found = self
            .screenshots
            .find_one(doc! { "_id": key(session, id) })
            .await
            .map_err(failure)?;
        Ok(found.and_then(|document| document.get_binary_generic("jpeg").ok().cloned()))
    }
}
