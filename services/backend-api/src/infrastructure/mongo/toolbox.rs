//! Each person's tool box in MongoDB: `kept_tools`, one document per kept tool, written
//! whole (unique indexes on `id` and `(owner, name)`, one on the published ones). A new
//! one is inserted (a name kept meanwhile is the unique index's refusal), then its
//! owner's are counted and it is removed again when past the cap, so keeps racing for
//! the last place cannot both stay.

use mongodb::bson::doc;
use mongodb::options::IndexOptions;
use mongodb::{Collection, Database, IndexModel};

use super::{all, failure, is_duplicate_key, MongoStore};
use crate::domain::ids::KeptToolId;
use crate::domain::ports::ToolboxRepository;
use crate::domain::toolbox::{KeptInsert, KeptTool};
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
            index(doc! { "owner": 1, "name": 1 }, true),
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

    async fn insert_kept_tool(&self, tool: &KeptTool, max_per_owner: usize) -> DomainResult<KeptInsert> {
        match self.kept().insert_one(tool).await {
            Err(err) if is_duplicate_key(&err) => return Ok(KeptInsert::NameTaken),
            inserted => inserted.map_err(failure)?,
        };
        // Inserted, then counted: the last of any kept ones counted them all.
        let held = self
            .kept()
            .count_documents(doc! { "owner": tool.owner.as_str() })
            .await
            .map_err(failure)?;
        if usize::try_from(held).is_ok_and(|held| held <= max_per_owner) {
            return Ok(KeptInsert::Kept);
        }
        self.kept()
            .delete_one(doc! { "id": tool.id.as_str() })
            .await
            .map_err(failure)?;
        Ok(KeptInsert::Full)
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
