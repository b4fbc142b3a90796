//! Images in MongoDB: one document per (session, image key) — the pair is the
//! document's `_id`, so storing the same image twice is a no-op — holding the bytes as
//! binary (well under the 16 MiB document limit) in a field named `jpeg`, from when
//! screenshots were the only images.

use mongodb::bson::spec::BinarySubtype;
use mongodb::bson::{doc, Binary};

use super::{failure, is_duplicate_key, MongoStore};
use crate::domain::image::ImageId;
use crate::domain::ports::ImageStore;
use crate::domain::session::SessionId;
use crate::domain::DomainResult;

fn key(session: &SessionId, id: &ImageId) -> String {
    format!("{}/{}", session.as_str(), id.key())
}

#[async_trait::async_trait]
impl ImageStore for MongoStore {
    async fn put(&self, session: &SessionId, id: &ImageId, bytes: Vec<u8>) -> DomainResult<()> {
        let image = Binary {
            subtype: BinarySubtype::Generic,
            bytes,
        };
        let document = doc! { "_id": key(session, id), "session_id": session.as_str(), "jpeg": image };
        match self.images.insert_one(document).await {
            Err(err) if !is_duplicate_key(&err) => Err(failure(err)),
            _ => Ok(()),
        }
    }

    async fn get(&self, session: &SessionId, id: &ImageId) -> DomainResult<Option<Vec<u8>>> {
        let found = self
            .images
            .find_one(doc! { "_id": key(session, id) })
            .await
            .map_err(failure)?;
        Ok(found.and_then(|document| document.get_binary_generic("jpeg").ok().cloned()))
    }
}
