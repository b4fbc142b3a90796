//! Automations' file contents in MongoDB: one document per content,
//! `{automation, key, bytes}` (unique on automation and key), each at most
//! [`MAX_FILES_BYTES`](crate::domain::automation::MAX_FILES_BYTES), so within a
//! document's 16 MiB; removed with their automation.

use mongodb::bson::spec::BinarySubtype;
use mongodb::bson::{doc, Binary, Document};
use mongodb::options::IndexOptions;
use mongodb::{Collection, Database, IndexModel};

use super::{failure, MongoStore};
use crate::domain::ids::AutomationId;
use crate::domain::ports::AutomationFiles;
use crate::domain::{DomainError, DomainResult};

pub(super) async fn create_indexes(db: &Database) -> mongodb::error::Result<()> {
    let unique = IndexOptions::builder().unique(true).build();
    files(db)
        .create_index(
            IndexModel::builder()
                .keys(doc! { "automation": 1, "key": 1 })
                .options(unique)
                .build(),
        )
        .await?;
    Ok(())
}

pub(super) fn files(db: &Database) -> Collection<Document> {
    db.collection("automation_files")
}

#[async_trait::async_trait]
impl AutomationFiles for MongoStore {
    async fn put_file(&self, id: &AutomationId, key: &str, content: Vec<u8>) -> DomainResult<()> {
        let bytes = Binary {
            subtype: BinarySubtype::Generic,
            bytes: content,
        };
        let key = doc! { "automation": id.as_str(), "key": key };
        let mut file = key.clone();
        file.insert("bytes", bytes);
        files(&self.db)
            .replace_one(key, file)
            .upsert(true)
            .await
            .map_err(failure)?;
        Ok(())
    }

    async fn file(&self, id: &AutomationId, key: &str) -> DomainResult<Option<Vec<u8>>> {
        let found = files(&self.db)
            .find_one(doc! { "automation": id.as_str(), "key": key })
            .await
            .map_err(failure)?;
        found
            .map(|file| {
                file.get_binary_generic("bytes")
                    .cloned()
                    .map_err(|err| DomainError::Internal(anyhow::anyhow!("a stored automation file: {err}")))
            })
            .transpose()
    }

    async fn remove_file(&self, id: &AutomationId, key: &str) -> DomainResult<()> {
        files(&self.db)
            .delete_one(doc! { "automation": id.as_str(), "key": key })
            .await
            .map_err(failure)?;
        Ok(())
    }
}
