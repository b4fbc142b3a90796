//! Rented sandboxes in MongoDB, one document per sandbox, with a unique index on `id`,
//! one on `end_at` for the sweep that ends them and one on `state` for the running ones.
//! Ending one is a single delete, so of replicas racing to end the same sandbox only one
//! is told it removed it; a change, and the sweep's end, is one replace or delete that
//! matches only while the state and end time are as they were read.

use chrono::{DateTime, SubsecRound, Utc};
use mongodb::bson::{doc, Document};

use super::{all, bson, failure, MongoStore};
use crate::domain::e2b::{E2bSandbox, E2bSandboxId, E2bState};
use crate::domain::ports::{E2bSandboxRepository, Updated};
use crate::domain::user::UserId;
use crate::domain::DomainResult;

#[async_trait::async_trait]
impl E2bSandboxRepository for MongoStore {
    async fn insert(&self, sandbox: &E2bSandbox) -> DomainResult<()> {
        self.e2b_sandboxes.insert_one(sandbox).await.map_err(failure)?;
        Ok(())
    }

    async fn get(&self, id: &E2bSandboxId) -> DomainResult<Option<E2bSandbox>> {
        self.e2b_sandboxes
            .find_one(doc! { "id": id.as_str() })
            .await
            .map_err(failure)
    }

    async fn list(&self, owner: &UserId) -> DomainResult<Vec<E2bSandbox>> {
        // Ids are time-ordered, so id order is creation order.
        all(self
            .e2b_sandboxes
            .find(doc! { "owner": owner.as_str() })
            .sort(doc! { "id": 1 }))
        .await
    }

    async fn update(&self, sandbox: &E2bSandbox, as_read: &E2bSandbox) -> DomainResult<Updated> {
        let replaced = self
            .e2b_sandboxes
            .replace_one(unchanged_since(as_read)?, sandbox)
            .await
            .map_err(failure)?;
        self.outcome(replaced.matched_count == 1, as_read).await
    }

    async fn remove_as_read(&self, as_read: &E2bSandbox) -> DomainResult<Updated> {
        let removed = self
            .e2b_sandboxes
            .delete_one(unchanged_since(as_read)?)
            .await
            .map_err(failure)?;
        self.outcome(removed.deleted_count == 1, as_read).await
    }

    async fn remove(&self, id: &E2bSandboxId) -> DomainResult<bool> {
        let removed = self
            .e2b_sandboxes
            .delete_one(doc! { "id": id.as_str() })
            .await
            .map_err(failure)?;
        Ok(removed.deleted_count == 1)
    }

    async fn ended_by(&self, now: DateTime<Utc>) -> DomainResult<Vec<E2bSandbox>> {
        // End times are whole seconds (`E2bTimeout::end_from`), stored as RFC 3339
        // strings, which order as the times while they have the same form.
        let now = now.trunc_subsecs(0);
        all(self
            .e2b_sandboxes
            .find(doc! { "end_at": { "$lte": bson(&now)? } }))
        .await
    }

    async fn running(&self) -> DomainResult<Vec<E2bSandboxId>> {
        // A record stored before sandboxes could pause has no `state`: it runs.
        let running = bson(&[Some(E2bState::Running), None])?;
        let ids: Vec<Document> = all(self
            .e2b_sandboxes
            .clone_with_type::<Document>()
            .find(doc! { "state": { "$in": running } })
            .projection(doc! { "_id": 0, "id": 1 }))
        .await?;
        Ok(ids
            .iter()
            .filter_map(|found| E2bSandboxId::parse(found.get_str("id").ok()?).ok())
            .collect())
    }
}

impl MongoStore {
    /// What a change conditional on `as_read` found: `Stored` when it `landed`, else
    /// whether the sandbox changed meanwhile or is gone.
    async fn outcome(&self, landed: bool, as_read: &E2bSandbox) -> DomainResult<Updated> {
        if landed {
            return Ok(Updated::Stored);
        }
        Ok(match self.get(&as_read.id).await? {
            Some(_) => Updated::ChangedMeanwhile,
            None => Updated::Removed,
        })
    }
}

/// The filter matching the sandbox only while its state and end time are `as_read`'s.
fn unchanged_since(as_read: &E2bSandbox) -> DomainResult<Document> {
    // A record stored before sandboxes could pause has no `state`: it runs.
    let state = match as_read.state {
        E2bState::Running => bson(&[Some(E2bState::Running), None])?,
        E2bState::Paused => bson(&[E2bState::Paused])?,
    };
    Ok(doc! {
        "id": as_read.id.as_str(),
        "state": { "$in": state },
        "end_at": bson(&as_read.end_at)?,
    })
}
