//! Automations in the embedded store by id, with indexes by owner, by trigger and by
//! next fire time (`(millis, id)`, the scheduler's query), and their history by
//! `(automation, run)`; the webhook deliveries taken are [`super::automation_deliveries`],
//! the files [`super::automation_files`].
//! A claim, and an insert's count of the owner's automations, is a read-compare-write in
//! one write transaction, which redb serialises.

use chrono::{DateTime, Utc};
use redb::{ReadableDatabase, ReadableTable, Table, TableDefinition, WriteTransaction};

use super::automation_deliveries as deliveries;
use super::automation_files as files;
use super::{decode, EmbeddedStore, ID_MAX};
use crate::domain::automation::{Automation, AutomationRun};
use crate::domain::ids::{AutomationId, RunId, TriggerId};
use crate::domain::ports::AutomationRepository;
use crate::domain::user::UserId;
use crate::domain::DomainResult;

const AUTOMATIONS: TableDefinition<&str, &[u8]> = TableDefinition::new("automations");
const OWNER_AUTOMATIONS: TableDefinition<(&str, &str), ()> = TableDefinition::new("owner_automations");
const TRIGGERS: TableDefinition<&str, &str> = TableDefinition::new("automation_triggers");
const DUE: TableDefinition<(i64, &str), ()> = TableDefinition::new("automation_due");
const RUNS: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("automation_runs");

/// Creates the tables, so reads find them empty rather than missing.
pub(super) fn create_tables(txn: &WriteTransaction) -> anyhow::Result<()> {
    txn.open_table(AUTOMATIONS)?;
    txn.open_table(OWNER_AUTOMATIONS)?;
    txn.open_table(TRIGGERS)?;
    txn.open_table(DUE)?;
    txn.open_table(RUNS)?;
    deliveries::create_tables(txn)?;
    files::create_tables(txn)?;
    Ok(())
}

fn stored(table: &Table<&str, &[u8]>, id: &str) -> anyhow::Result<Option<Automation>> {
    table.get(id)?.map(|value| decode(value.value())).transpose()
}

/// Writes `automation` and its index entries, removing those of `old`.
fn write(txn: &WriteTransaction, automation: &Automation, old: Option<&Automation>) -> anyhow::Result<()> {
    unindex(txn, old)?;
    let id = automation.id.as_str();
    txn.open_table(AUTOMATIONS)?
        .insert(id, serde_json::to_vec(automation)?.as_slice())?;
    txn.open_table(OWNER_AUTOMATIONS)?
        .insert((automation.owner.as_str(), id), ())?;
    let mut triggers = txn.open_table(TRIGGERS)?;
    for trigger in &automation.triggers {
        triggers.insert(trigger.id.as_str(), id)?;
    }
    if let Some(at) = automation.next_fire {
        txn.open_table(DUE)?.insert((at.timestamp_millis(), id), ())?;
    }
    Ok(())
}

fn unindex(txn: &WriteTransaction, old: Option<&Automation>) -> anyhow::Result<()> {
    let Some(old) = old else {
        return Ok(());
    };
    let id = old.id.as_str();
    txn.open_table(OWNER_AUTOMATIONS)?
        .remove((old.owner.as_str(), id))?;
    let mut triggers = txn.open_table(TRIGGERS)?;
    for trigger in &old.triggers {
        triggers.remove(trigger.id.as_str())?;
    }
    if let Some(at) = old.next_fire {
        txn.open_table(DUE)?.remove((at.timestamp_millis(), id))?;
    }
    Ok(())
}

#[async_trait::async_trait]
impl AutomationRepository for EmbeddedStore {
    async fn insert(&self, automation: &Automation, max_per_owner: usize) -> DomainResult<bool> {
        let automation = automation.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let owner = automation.owner.as_str();
            let held = txn
                .open_table(OWNER_AUTOMATIONS)?
                .range((owner, "")..(owner, ID_MAX))?
                .count();
            let room = held < max_per_owner;
            if room {
                write(&txn, &automation, None)?;
            }
            txn.commit()?;
            Ok(room)
        })
        .await
    }

    async fn get(&self, id: &AutomationId) -> DomainResult<Option<Automation>> {
        let id = id.clone();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(AUTOMATIONS)?;
            table
                .get(id.as_str())?
                .map(|value| decode(value.value()))
                .transpose()
        })
        .await
    }

    async fn replace(&self, automation: &Automation, expected: Option<DateTime<Utc>>) -> DomainResult<bool> {
        let automation = automation.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let old = stored(&txn.open_table(AUTOMATIONS)?, automation.id.as_str())?;
            let current = old.as_ref().is_some_and(|old| {
                old.next_fire == expected && old.revision.checked_add(1) == Some(automation.revision)
            });
            if current {
                write(&txn, &automation, old.as_ref())?;
            }
            txn.commit()?;
            Ok(current)
        })
        .await
    }

    async fn delete(&self, id: &AutomationId) -> DomainResult<bool> {
        let id = id.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let old = stored(&txn.open_table(AUTOMATIONS)?, id.as_str())?;
            if let Some(old) = &old {
                unindex(&txn, Some(old))?;
                txn.open_table(AUTOMATIONS)?.remove(id.as_str())?;
                let mut runs = txn.open_table(RUNS)?;
                runs.retain_in((id.as_str(), "")..(id.as_str(), ID_MAX), |_, _| false)?;
                deliveries::forget_triggers(&txn, &old.triggers)?;
                files::forget_all(&txn, id.as_str())?;
            }
            txn.commit()?;
            Ok(old.is_some())
        })
        .await
    }

    async fn list_for(&self, owner: &UserId) -> DomainResult<Vec<Automation>> {
        let owner = owner.clone();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let index = txn.open_table(OWNER_AUTOMATIONS)?;
            let table = txn.open_table(AUTOMATIONS)?;
            let mut list = Vec::new();
            for entry in index.range((owner.as_str(), "")..(owner.as_str(), ID_MAX))? {
                let (key, _) = entry?;
                if let Some(value) = table.get(key.value().1)? {
                    list.push(decode(value.value())?);
                }
            }
            Ok(list)
        })
        .await
    }

    async fn by_trigger(&self, trigger: &TriggerId) -> DomainResult<Option<Automation>> {
        let trigger = trigger.clone();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let Some(id) = txn
                .open_table(TRIGGERS)?
                .get(trigger.as_str())?
                .map(|v| v.value().to_owned())
            else {
                return Ok(None);
            };
            let table = txn.open_table(AUTOMATIONS)?;
            table
                .get(id.as_str())?
                .map(|value| decode(value.value()))
                .transpose()
        })
        .await
    }

    async fn due(&self, now: DateTime<Utc>, limit: usize) -> DomainResult<Vec<Automation>> {
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let index = txn.open_table(DUE)?;
            let table = txn.open_table(AUTOMATIONS)?;
            let mut due = Vec::new();
            for entry in index.range((i64::MIN, "")..=(now.timestamp_millis(), ID_MAX))? {
                if due.len() == limit {
                    break;
                }
                let (key, _) = entry?;
                if let Some(value) = table.get(key.value().1)? {
                    due.push(decode(value.value())?);
                }
            }
            Ok(due)
        })
        .await
    }

    async fn earliest_fire(&self) -> DomainResult<Option<DateTime<Utc>>> {
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let due = txn.open_table(DUE)?;
            let first = due.first()?.map(|(key, _)| key.value().0);
            Ok(first.and_then(DateTime::from_timestamp_millis))
        })
        .await
    }

    async fn claim(
        &self,
        id: &AutomationId,
        due: DateTime<Utc>,
        next: Option<DateTime<Utc>>,
    ) -> DomainResult<bool> {
        let id = id.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let old = stored(&txn.open_table(AUTOMATIONS)?, id.as_str())?;
            let won = match old {
                Some(old) if old.next_fire == Some(due) => {
                    let mut claimed = old.clone();
                    claimed.next_fire = next;
                    write(&txn, &claimed, Some(&old))?;
                    true
                }
                _ => false,
            };
            txn.commit()?;
            Ok(won)
        })
        .await
    }

    async fn put_run(&self, run: &AutomationRun) -> DomainResult<()> {
        let run = run.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(RUNS)?.insert(
                (run.automation.as_str(), run.id.as_str()),
                serde_json::to_vec(&run)?.as_slice(),
            )?;
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn trim_runs(&self, id: &AutomationId, keep: usize) -> DomainResult<()> {
        let id = id.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            {
                let mut runs = txn.open_table(RUNS)?;
                let range = (id.as_str(), "")..(id.as_str(), ID_MAX);
                // Oldest first (the ids are time-ordered): the first `past` go.
                let mut past = runs.range(range.clone())?.count().saturating_sub(keep);
                if past > 0 {
                    runs.retain_in(range, |_, _| {
                        let kept = past == 0;
                        past = past.saturating_sub(1);
                        kept
                    })?;
                }
            }
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn runs(&self, id: &AutomationId, limit: usize) -> DomainResult<Vec<AutomationRun>> {
        let id = id.clone();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let runs = txn.open_table(RUNS)?;
            let mut page = Vec::new();
            for entry in runs
                .range((id.as_str(), "")..(id.as_str(), ID_MAX))?
                .rev()
                .take(limit)
            {
                page.push(decode(entry?.1.value())?);
            }
            Ok(page)
        })
        .await
    }

    async fn first_delivery(
        &self,
        trigger: &TriggerId,
        key: &str,
        run: &RunId,
    ) -> DomainResult<Option<RunId>> {
        let (trigger, key, run) = (trigger.clone(), key.to_owned(), run.clone());
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let earlier = deliveries::take(&txn, &trigger, &key, &run, Utc::now())?;
            txn.commit()?;
            Ok(earlier)
        })
        .await
    }

    async fn forget_delivery(&self, trigger: &TriggerId, key: &str, run: &RunId) -> DomainResult<()> {
        let (trigger, key, run) = (trigger.clone(), key.to_owned(), run.clone());
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            deliveries::release(&txn, &trigger, &key, &run)?;
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn run(&self, id: &AutomationId, run: &RunId) -> DomainResult<Option<AutomationRun>> {
        let (id, run) = (id.clone(), run.clone());
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let runs = txn.open_table(RUNS)?;
            runs.get((id.as_str(), run.as_str()))?
                .map(|value| decode(value.value()))
                .transpose()
        })
        .await
    }
}
