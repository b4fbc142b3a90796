//! Each person's tool box in the embedded store: kept tools by id, with an index of
//! each owner's; the published ones are found by reading them all (a deployment keeps
//! few, each person at most [`crate::domain::toolbox::MAX_KEPT_TOOLS`]). A new one's
//! checks (its owner's count, its name free) and insert are one write transaction,
//! which redb serialises.

use redb::{ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction};

use super::{decode, EmbeddedStore, ID_MAX};
use crate::domain::ids::KeptToolId;
use crate::domain::ports::ToolboxRepository;
use crate::domain::toolbox::{KeptInsert, KeptTool};
use crate::domain::user::UserId;
use crate::domain::DomainResult;

const KEPT_TOOLS: TableDefinition<&str, &[u8]> = TableDefinition::new("kept_tools");
const OWNER_KEPT_TOOLS: TableDefinition<(&str, &str), ()> = TableDefinition::new("owner_kept_tools");

/// Creates the tables, so reads find them empty rather than missing.
pub(super) fn create_tables(txn: &WriteTransaction) -> anyhow::Result<()> {
    txn.open_table(KEPT_TOOLS)?;
    txn.open_table(OWNER_KEPT_TOOLS)?;
    Ok(())
}

fn by_name(mut tools: Vec<KeptTool>) -> Vec<KeptTool> {
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    tools
}

#[async_trait::async_trait]
impl ToolboxRepository for EmbeddedStore {
    async fn kept_tools(&self, owner: Option<&UserId>) -> DomainResult<Vec<KeptTool>> {
        let owner = owner.cloned();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let tools = txn.open_table(KEPT_TOOLS)?;
            let mut kept = Vec::new();
            match owner {
                Some(owner) => {
                    let owner = owner.as_str();
                    for entry in txn
                        .open_table(OWNER_KEPT_TOOLS)?
                        .range((owner, "")..=(owner, ID_MAX))?
                    {
                        if let Some(tool) = tools.get(entry?.0.value().1)? {
                            kept.push(decode(tool.value())?);
                        }
                    }
                }
                None => {
                    for entry in tools.iter()? {
                        kept.push(decode(entry?.1.value())?);
                    }
                }
            }
            Ok(by_name(kept))
        })
        .await
    }

    async fn published_tools(&self) -> DomainResult<Vec<KeptTool>> {
        let all = self.kept_tools(None).await?;
        Ok(all.into_iter().filter(|tool| tool.published).collect())
    }

    async fn kept_tool(&self, id: &KeptToolId) -> DomainResult<Option<KeptTool>> {
        let id = id.clone();
        self.blocking(move |db| {
            let table = db.begin_read()?.open_table(KEPT_TOOLS)?;
            let stored = table.get(id.as_str())?;
            stored.map(|tool| decode(tool.value())).transpose()
        })
        .await
    }

    async fn insert_kept_tool(&self, tool: &KeptTool, max_per_owner: usize) -> DomainResult<KeptInsert> {
        let tool = tool.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let outcome = {
                let owner = tool.owner.as_str();
                let mut tools = txn.open_table(KEPT_TOOLS)?;
                let mut index = txn.open_table(OWNER_KEPT_TOOLS)?;
                let mut held = 0;
                let mut taken = false;
                for entry in index.range((owner, "")..=(owner, ID_MAX))? {
                    held += 1;
                    if let Some(kept) = tools.get(entry?.0.value().1)? {
                        taken |= decode::<KeptTool>(kept.value())?.name == tool.name;
                    }
                }
                if taken {
                    KeptInsert::NameTaken
                } else if held >= max_per_owner {
                    KeptInsert::Full
                } else {
                    let id = tool.id.as_str();
                    tools.insert(id, serde_json::to_vec(&tool)?.as_slice())?;
                    index.insert((owner, id), ())?;
                    KeptInsert::Kept
                }
            };
            txn.commit()?;
            Ok(outcome)
        })
        .await
    }

    async fn put_kept_tool(&self, tool: &KeptTool) -> DomainResult<()> {
        let tool = tool.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            {
                let id = tool.id.as_str();
                txn.open_table(KEPT_TOOLS)?
                    .insert(id, serde_json::to_vec(&tool)?.as_slice())?;
                txn.open_table(OWNER_KEPT_TOOLS)?
                    .insert((tool.owner.as_str(), id), ())?;
            }
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn remove_kept_tool(&self, id: &KeptToolId) -> DomainResult<()> {
        let id = id.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            {
                let mut tools = txn.open_table(KEPT_TOOLS)?;
                let removed = tools.remove(id.as_str())?;
                if let Some(removed) = removed {
                    let tool: KeptTool = decode(removed.value())?;
                    txn.open_table(OWNER_KEPT_TOOLS)?
                        .remove((tool.owner.as_str(), id.as_str()))?;
                }
            }
            txn.commit()?;
            Ok(())
        })
        .await
    }
}
