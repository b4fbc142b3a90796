//! The files of jobs not yet started, in MongoDB: each file in pieces of at most
//! [`PIECE_BYTES`] (a document may not pass 16 MiB, and an operator may allow larger
//! attachments), one document per piece, `_id` `<job>/<name>/<n>`, found by `job_id`
//! and `name` and read back in `n` order.

use futures::TryStreamExt;
use mongodb::bson::spec::BinarySubtype;
use mongodb::bson::{doc, Binary};

use super::{failure, MongoStore};
use crate::domain::files::FileName;
use crate::domain::job::JobId;
use crate::domain::ports::JobAttachmentStore;
use crate::domain::DomainResult;

/// The largest piece of a file one document holds.
const PIECE_BYTES: usize = 4 * 1024 * 1024;

#[async_trait::async_trait]
impl JobAttachmentStore for MongoStore {
    async fn put(&self, job: &JobId, name: &FileName, content: Vec<u8>) -> DomainResult<()> {
        let (job, name) = (job.as_str(), name.as_str());
        self.job_attachments
            .delete_many(doc! { "job_id": job, "name": name })
            .await
            .map_err(failure)?;
        // One piece per insert: a batch of them could pass the server's 48 MiB message
        // limit. An empty file has no piece, so is not found.
        for (n, piece) in content.chunks(PIECE_BYTES).enumerate() {
            let bytes = Binary {
                subtype: BinarySubtype::Generic,
                bytes: piece.to_vec(),
            };
            let id = format!("{job}/{name}/{n}");
            let piece = doc! { "_id": id, "job_id": job, "name": name, "n": n as i64, "bytes": bytes };
            self.job_attachments.insert_one(piece).await.map_err(failure)?;
        }
        Ok(())
    }

    async fn get(&self, job: &JobId, name: &FileName) -> DomainResult<Option<Vec<u8>>> {
        let mut pieces = self
            .job_attachments
            .find(doc! { "job_id": job.as_str(), "name": name.as_str() })
            .sort(doc! { "n": 1 })
            .await
            .map_err(failure)?;
        let mut content: Option<Vec<u8>> = None;
        while let Some(piece) = pieces.try_next().await.map_err(failure)? {
            let bytes = piece.get_binary_generic("bytes").map_err(|err| {
                crate::domain::DomainError::Internal(anyhow::anyhow!("a stored attachment piece: {err}"))
            })?;
            content.get_or_insert_with(Vec::new).extend_from_slice(bytes);
        }
        Ok(content)
    }

    async fn delete(&self, job: &JobId) -> DomainResult<()> {
        self.job_attachments
            .delete_many(doc! { "job_id": job.as_str() })
            .await
            .map_err(failure)?;
        Ok(())
    }
}
