//! Automations in the embedded store by id, with indexes by owner, by trigger and by
//! next fire time (`(millis, id)`, the scheduler's query), their history by
//! `(automation, run)` and the
//! webhook deliveries taken by `(trigger, key)`, with their order by run id (time-ordered),
//! from which keys past
//! [`DELIVERY_KEY_KEPT`](crate::domain::automation::DELIVERY_KEY_KEPT) are dropped as deliveries come. A claim is
//! a read-compare-write in one write transaction, which redb serialises.

use chrono::{DateTime, Utc};
use redb::{ReadableDatabase, ReadableTable, Table, TableDefinition, WriteTransaction};

use super::{decode, EmbeddedStore, ID_MAX};
use crate::domain::automation::{delivery_key_expired, Automation, AutomationRun};
use crate::domain::ids::{AutomationId, RunId, TriggerId};
use crate::domain::ports::AutomationRepository;
use crate::domain::user::UserId;
use crate::domain::DomainResult;

const AUTOMATIONS: TableDefinition<&str, &[u8]> = TableDefinition::new("automations");
const OWNER_AUTOMATIONS: TableDefinition<(&str, &str), ()> = TableDefinition::new("owner_automations");
const TRIGGERS: TableDefinition<&str, &str> = TableDefinition::new("automation_triggers");
const DUE: TableDefinition<(i64, &str), ()> = TableDefinition::new("automation_due");
const RUNS: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("automation_runs");
const DELIVERIES: TableDefinition<(&str, &str), &str> = TableDefinition::new("automation_deliveries");
/// The deliveries taken, by their run's id, so the oldest come first.
const DELIVERY_ORDER: TableDefinition<&str, (&str, &str)> = TableDefinition::new("automation_delivery_order");
/// Expired delivery keys dropped per delivery at most, so one write stays short.
const DROPPED_PER_DELIVERY: usize = 100;

/// Creates the tables, so reads find them empty rather than missing.
pub(super) fn create_tables(txn: &WriteTransaction) -> anyhow::Result<()> {
    txn.open_table(AUTOMATIONS)?;
    txn.open_table(OWNER_AUTOMATIONS)?;
    txn.open_table(TRIGGERS)?;
    txn.open_table(DUE)?;
    txn.open_table(RUNS)?;
    txn.open_table(DELIVERIES)?;
    txn.open_table(DELIVERY_ORDER)?;
    Ok(())
}

/// Drops the oldest delivery keys that have expired by `now` (a few per call).
fn drop_expired_deliveries(txn: &WriteTransaction, now: DateTime<Utc>) -> anyhow::Result<()> {
    let mut order = txn.open_table(DELIVERY_ORDER)?;
    let mut deliveries = txn.open_table(DELIVERIES)?;
    for _ in 0..DROPPED_PER_DELIVERY {
        let Some((run, trigger, key)) = order.first()?.map(|(run, taken)| {
            let (trigger, key) = taken.value();
            (run.value().to_owned(), trigger.to_owned(), key.to_owned())
        }) else {
            break;
        };
        let expired = RunId::parse(&run).map_or(true, |id| delivery_key_expired(&id, now));
        if !expired {
            break;
        }
        order.remove(run.as_str())?;
        let still_that_run = deliveries
            .get((trigger.as_str(), key.as_str()))?
            .is_some_and(|value| value.value() == run);
        if still_that_run {
            deliveries.remove((trigger.as_str(), key.as_str()))?;
        }
    }
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
    async fn insert(&self, automation: &Automation) -> DomainResult<()> {
        let automation = automation.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            write(&txn, &automation, None)?;
            txn.commit()?;
            Ok(())
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
                let mut deliveries = txn.open_table(DELIVERIES)?;
                for trigger in &old.triggers {
                    let t = trigger.id.as_str();
                    deliveries.retain_in((t, "")..(t, ID_MAX), |_, _| false)?;
                }
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
            let now = Utc::now();
            drop_expired_deliveries(&txn, now)?;
            let earlier = {
                let mut deliveries = txn.open_table(DELIVERIES)?;
                let earlier = deliveries
                    .get((trigger.as_str(), key.as_str()))?
                    .map(|value| RunId::parse(value.value()))
                    .transpose()?
                    // One the drop has not reached yet (or kept from before keys
                    // expired) is taken over as well.
                    .filter(|earlier| !delivery_key_expired(earlier, now));
                if earlier.is_none() {
                    deliveries.insert((trigger.as_str(), key.as_str()), run.as_str())?;
                    txn.open_table(DELIVERY_ORDER)?
                        .insert(run.as_str(), (trigger.as_str(), key.as_str()))?;
                }
                earlier
            };
            txn.commit()?;
            Ok(earlier)
        })
        .await
    }

    async fn forget_delivery(&self, trigger: &TriggerId, key: &str, run: &RunId) -> DomainResult<()> {
        let (trigger, key, run) = (trigger.clone(), key.to_owned(), run.clone());
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            {
                let mut deliveries = txn.open_table(DELIVERIES)?;
                let ours = deliveries
                    .get((trigger.as_str(), key.as_str()))?
                    .is_some_and(|value| value.value() == run.as_str());
                if ours {
                    deliveries.remove((trigger.as_str(), key.as_str()))?;
                    txn.open_table(DELIVERY_ORDER)?.remove(run.as_str())?;
                }
            }
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
