//! Each person's tool box in MongoDB: `kept_tools`, one document per kept tool, written
//! whole (indexes on `id`, the owner's list and the published ones).

use mongodb::bson::doc;
use mongodb::options::IndexOptions;
use mongodb::{Collection, Database, IndexModel};

use super::{all, failure, MongoStore};
use crate::domain::ids::KeptToolId;
use crate::domain::ports::ToolboxRepository;
use crate::domain::toolbox::KeptTool;
use crate::domain::user::UserId;
use crate::domain::DomainResult;

/// Creates the indexes the queries below rely on.
pub(super) async fn create_indexes(db: &Database) -> mongodb::error::Result<()> {
    let index = |keys, unique| {
        IndexModel::builder()
            .keys(keys)
            .options(IndexOptions::builder().unique(unique).build())
            .build()
    };
    db.collection::<KeptTool>("kept_tools")
        .create_indexes([
            index(doc! { "id": 1 }, true),
            index(doc! { "owner": 1, "name": 1 }, false),
            index(doc! { "published": 1 }, false),
        ])
        .await?;
    Ok(())
}

impl MongoStore {
    fn kept(&self) -> Collection<KeptTool> {
        self.db.collection("kept_tools")
    }
}

#[async_trait::async_trait]
impl ToolboxRepository for MongoStore {
    async fn kept_tools(&self, owner: Option<&UserId>) -> DomainResult<Vec<KeptTool>> {
        let filter = match owner {
            Some(owner) => doc! { "owner": owner.as_str() },
            None => doc! {},
        };
        all(self.kept().find(filter).sort(doc! { "name": 1 })).await
    }

    async fn published_tools(&self) -> DomainResult<Vec<KeptTool>> {
        all(self
            .kept()
            .find(doc! { "published": true })
            .sort(doc! { "name": 1 }))
        .await
    }

    async fn kept_tool(&self, id: &KeptToolId) -> DomainResult<Option<KeptTool>> {
        self.kept()
            .find_one(doc! { "id": id.as_str() })
            .await
            .map_err(failure)
    }

    async fn put_kept_tool(&self, tool: &KeptTool) -> DomainResult<()> {
        self.kept()
            .replace_one(doc! { "id": tool.id.as_str() }, tool)
            .upsert(true)
            .await
            .map_err(failure)?;
        Ok(())
    }

    async fn remove_kept_tool(&self, id: &KeptToolId) -> DomainResult<()> {
        self.kept()
            .delete_one(doc! { "id": id.as_str() })
            .await
            .map_err(failure)?;
        Ok(())
    }
}
