//! Rented sandboxes in the embedded store by id, with an index by owner (their list).
//! Ending one removes it in one write transaction, which redb serialises, so of two
//! callers ending the same sandbox only one is told it removed it, and a change (or the
//! sweep's end) compares the stored state and end time with those it was made from in
//! the same transaction.

use chrono::{DateTime, Utc};
use redb::{ReadableDatabase, ReadableTable};

use super::{decode, EmbeddedStore, E2B_SANDBOXES, OWNER_E2B_SANDBOXES};
use crate::domain::e2b::{E2bSandbox, E2bSandboxId, E2bState};
use crate::domain::ports::{E2bSandboxRepository, Updated};
use crate::domain::user::UserId;
use crate::domain::DomainResult;

#[async_trait::async_trait]
impl E2bSandboxRepository for EmbeddedStore {
    async fn insert(&self, sandbox: &E2bSandbox) -> DomainResult<()> {
        let sandbox = sandbox.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(E2B_SANDBOXES)?
                .insert(sandbox.id.as_str(), serde_json::to_vec(&sandbox)?.as_slice())?;
            txn.open_table(OWNER_E2B_SANDBOXES)?
                .insert((sandbox.owner.as_str(), sandbox.id.as_str()), ())?;
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn get(&self, id: &E2bSandboxId) -> DomainResult<Option<E2bSandbox>> {
        let id = id.clone();
        self.blocking(move |db| {
            let table = db.begin_read()?.open_table(E2B_SANDBOXES)?;
            let found = table.get(id.as_str())?;
            found.map(|value| decode(value.value())).transpose()
        })
        .await
    }

    async fn list(&self, owner: &UserId) -> DomainResult<Vec<E2bSandbox>> {
        let owner = owner.clone();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(E2B_SANDBOXES)?;
            let index = txn.open_table(OWNER_E2B_SANDBOXES)?;
            // Ids are time-ordered, so the index's order is creation order.
            let mut sandboxes = Vec::new();
            for entry in index.range((owner.as_str(), "")..=(owner.as_str(), "\u{7f}"))? {
                if let Some(value) = table.get(entry?.0.value().1)? {
                    sandboxes.push(decode(value.value())?);
                }
            }
            Ok(sandboxes)
        })
        .await
    }

    async fn update(&self, sandbox: &E2bSandbox, as_read: &E2bSandbox) -> DomainResult<Updated> {
        let (sandbox, as_read) = (sandbox.clone(), as_read.clone());
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let outcome = {
                let mut table = txn.open_table(E2B_SANDBOXES)?;
                let outcome = still_as_read(&table, &as_read)?;
                if outcome == Updated::Stored {
                    table.insert(sandbox.id.as_str(), serde_json::to_vec(&sandbox)?.as_slice())?;
                }
                outcome
            };
            txn.commit()?;
            Ok(outcome)
        })
        .await
    }

    async fn remove_as_read(&self, as_read: &E2bSandbox) -> DomainResult<Updated> {
        let as_read = as_read.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let outcome = {
                let mut table = txn.open_table(E2B_SANDBOXES)?;
                let outcome = still_as_read(&table, &as_read)?;
                if outcome == Updated::Stored {
                    table.remove(as_read.id.as_str())?;
                }
                outcome
            };
            if outcome == Updated::Stored {
                txn.open_table(OWNER_E2B_SANDBOXES)?
                    .remove((as_read.owner.as_str(), as_read.id.as_str()))?;
            }
            txn.commit()?;
            Ok(outcome)
        })
        .await
    }

    async fn remove(&self, id: &E2bSandboxId) -> DomainResult<bool> {
        let id = id.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let removed: Option<E2bSandbox> = {
                let mut table = txn.open_table(E2B_SANDBOXES)?;
                let removed = table.remove(id.as_str())?;
                removed.map(|value| decode(value.value())).transpose()?
            };
            if let Some(sandbox) = &removed {
                txn.open_table(OWNER_E2B_SANDBOXES)?
                    .remove((sandbox.owner.as_str(), sandbox.id.as_str()))?;
            }
            txn.commit()?;
            Ok(removed.is_some())
        })
        .await
    }

    async fn ended_by(&self, now: DateTime<Utc>) -> DomainResult<Vec<E2bSandbox>> {
        self.blocking(move |db| {
            let table = db.begin_read()?.open_table(E2B_SANDBOXES)?;
            let mut ended = Vec::new();
            for entry in table.iter()? {
                let sandbox: E2bSandbox = decode(entry?.1.value())?;
                if sandbox.end_at <= now {
                    ended.push(sandbox);
                }
            }
            Ok(ended)
        })
        .await
    }

    async fn running(&self) -> DomainResult<Vec<E2bSandboxId>> {
        self.blocking(move |db| {
            let table = db.begin_read()?.open_table(E2B_SANDBOXES)?;
            let mut running = Vec::new();
            for entry in table.iter()? {
                let sandbox: E2bSandbox = decode(entry?.1.value())?;
                if sandbox.state == E2bState::Running {
                    running.push(sandbox.id);
                }
            }
            Ok(running)
        })
        .await
    }
}

/// `Stored` while the stored sandbox is `as_read` (its state and end time), so a change
/// made from that reading may land; else why not.
fn still_as_read(
    table: &impl ReadableTable<&'static str, &'static [u8]>,
    as_read: &E2bSandbox,
) -> anyhow::Result<Updated> {
    let stored: Option<E2bSandbox> = table
        .get(as_read.id.as_str())?
        .map(|value| decode(value.value()))
        .transpose()?;
    Ok(match stored {
        None => Updated::Removed,
        Some(stored) if (stored.state, stored.end_at) != (as_read.state, as_read.end_at) => {
            Updated::ChangedMeanwhile
        }
        Some(_) => Updated::Stored,
    })
}
