//! The webhook deliveries taken, in the embedded store: each `(trigger, key)` with the
//! run that took it, and the same by run id, whose time order is the order they were
//! taken in, so keys past [`DELIVERY_KEY_KEPT`](crate::domain::automation::DELIVERY_KEY_KEPT)
//! are dropped oldest first, a few with each delivery. Every function works inside the
//! caller's write transaction.

use chrono::{DateTime, Utc};
use redb::{ReadableTable, TableDefinition, WriteTransaction};

use super::ID_MAX;
use crate::domain::automation::{delivery_key_expired, Trigger};
use crate::domain::ids::{RunId, TriggerId};

const DELIVERIES: TableDefinition<(&str, &str), &str> = TableDefinition::new("automation_deliveries");
/// The deliveries taken, by their run's id, so the oldest come first.
const DELIVERY_ORDER: TableDefinition<&str, (&str, &str)> = TableDefinition::new("automation_delivery_order");
/// Expired delivery keys dropped per delivery at most, so one write stays short.
const DROPPED_PER_DELIVERY: usize = 100;

pub(super) fn create_tables(txn: &WriteTransaction) -> anyhow::Result<()> {
    txn.open_table(DELIVERIES)?;
    txn.open_table(DELIVERY_ORDER)?;
    Ok(())
}

/// Takes `key` of `trigger` for `run` unless a run took it within the time keys are
/// kept: then that run, and nothing changes.
pub(super) fn take(
    txn: &WriteTransaction,
    trigger: &TriggerId,
    key: &str,
    run: &RunId,
    now: DateTime<Utc>,
) -> anyhow::Result<Option<RunId>> {
    drop_expired(txn, now)?;
    let mut deliveries = txn.open_table(DELIVERIES)?;
    let earlier = deliveries
        .get((trigger.as_str(), key))?
        .map(|value| RunId::parse(value.value()))
        .transpose()?
        // One the drop has not reached yet (or kept from before keys expired) is
        // taken over as well.
        .filter(|earlier| !delivery_key_expired(earlier, now));
    if earlier.is_none() {
        deliveries.insert((trigger.as_str(), key), run.as_str())?;
        txn.open_table(DELIVERY_ORDER)?
            .insert(run.as_str(), (trigger.as_str(), key))?;
    }
    Ok(earlier)
}

/// Gives `key` of `trigger` back if `run` still holds it.
pub(super) fn release(
    txn: &WriteTransaction,
    trigger: &TriggerId,
    key: &str,
    run: &RunId,
) -> anyhow::Result<()> {
    let mut deliveries = txn.open_table(DELIVERIES)?;
    let ours = deliveries
        .get((trigger.as_str(), key))?
        .is_some_and(|value| value.value() == run.as_str());
    if ours {
        deliveries.remove((trigger.as_str(), key))?;
        txn.open_table(DELIVERY_ORDER)?.remove(run.as_str())?;
    }
    Ok(())
}

/// Forgets every key of these triggers (their automation is deleted); their order
/// entries go as they expire.
pub(super) fn forget_triggers(txn: &WriteTransaction, triggers: &[Trigger]) -> anyhow::Result<()> {
    let mut deliveries = txn.open_table(DELIVERIES)?;
    for trigger in triggers {
        let id = trigger.id.as_str();
        deliveries.retain_in((id, "")..(id, ID_MAX), |_, _| false)?;
    }
    Ok(())
}

/// Drops the oldest delivery keys that have expired by `now` (a few per call).
fn drop_expired(txn: &WriteTransaction, now: DateTime<Utc>) -> anyhow::Result<()> {
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
