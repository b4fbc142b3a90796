//! The scheduler every replica runs. It sleeps until the earliest `next_fire` in the
//! store (one indexed read), or [`super::AutomationSettings::poll`] at most, or until a
//! change on this replica wakes it; then it reads the due automations (indexed) and, for
//! each, claims its fire time by moving `next_fire` on in one conditional update. Only
//! the replica whose claim succeeds fires, so each due time fires once however many
//! replicas race, and since the fire time is in the store a restart loses none (but a
//! replica killed between its claim and the fire loses that one time): a time
//! found later than [`super::AutomationSettings::missed_after`] was missed, and is run
//! once or skipped as the automation says, recorded either way. No timer per automation:
//! at idle the cost is one read per wake.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};

use super::runs::Fire;
use super::AutomationService;
use crate::application::error::AppResult;
use crate::domain::automation::{Automation, FiredBy, MissedRuns, TriggerKind};

/// Due automations read per round.
const BATCH: usize = 100;
/// Later fire times counted at most, when a due time is fired late.
const PASSED_COUNTED: usize = 1000;
/// The pause after the store failed to answer.
const RETRY: Duration = Duration::from_secs(5);

impl AutomationService {
    /// Runs the scheduler until shutdown.
    pub fn start_scheduler(self: &Arc<Self>) {
        let service = self.clone();
        let scheduling = async move {
            loop {
                let pause = match service.round().await {
                    Ok(pause) => pause,
                    Err(err) => {
                        tracing::warn!(%err, "the automation scheduler could not read the store");
                        RETRY
                    }
                };
                tokio::select! {
                    () = tokio::time::sleep(pause) => {}
                    () = service.wake.notified() => {}
                }
            }
        };
        tokio::spawn(self.stopping.clone().run_until_cancelled_owned(scheduling));
    }

    /// Fires what is due; how long to sleep before the next round.
    async fn round(self: &Arc<Self>) -> AppResult<Duration> {
        loop {
            let now = Utc::now();
            let due = self.store.due(now, BATCH).await?;
            let full = due.len() == BATCH;
            for automation in due {
                self.fire_due(automation, now).await?;
            }
            if !full {
                break;
            }
        }
        let poll = self.settings.poll;
        let pause = match self.store.earliest_fire().await? {
            Some(at) => (at - Utc::now()).to_std().unwrap_or_default().min(poll),
            None => poll,
        };
        Ok(pause)
    }

    /// Claims the automation's due time and, when this replica won it, fires it.
    async fn fire_due(self: &Arc<Self>, automation: Automation, now: DateTime<Utc>) -> AppResult<()> {
        let Some(due) = automation.next_fire else {
            return Ok(());
        };
        let next = automation.next_fire_after(now.max(due));
        if !self.store.claim(&automation.id, due, next).await? {
            return Ok(());
        }
        let trigger = automation.trigger_due_at(due);
        let by = match trigger.map(|t| &t.kind) {
            Some(TriggerKind::At { .. }) => FiredBy::At,
            _ => FiredBy::Schedule,
        };
        let trigger = trigger.map(|t| t.id.clone());
        let late = (now - due).to_std().unwrap_or_default() > self.settings.missed_after;
        let mut fire = Fire::new(by, trigger, due);
        // Times that came due while this one waited are not run: one run stands for all.
        let passed = match passed_meanwhile(&automation, due, now) {
            0 => String::new(),
            PASSED_COUNTED => format!(" ({PASSED_COUNTED} or more later times passed too, not run)"),
            n => format!(" ({n} later times passed too, not run)"),
        };
        if late {
            let missed = format!("missed at {due} while no replica was running{passed}");
            if automation.missed == MissedRuns::Skip {
                fire.note = Some(format!("skipped: {missed}"));
                self.record(&fire.entry(&automation.id)).await?;
                return Ok(());
            }
            fire.note = Some(format!("{missed}; run once on recovery"));
        } else if !passed.is_empty() {
            fire.note = Some(format!("run late{passed}"));
        }
        self.fire(&automation, fire).await?;
        Ok(())
    }
}

/// How many of the automation's fire times after `due`, up to `now`, passed while `due`
/// waited (at most [`PASSED_COUNTED`]).
fn passed_meanwhile(automation: &Automation, due: DateTime<Utc>, now: DateTime<Utc>) -> usize {
    let mut passed = 0;
    let mut at = due;
    while passed < PASSED_COUNTED {
        match automation.next_fire_after(at) {
            Some(next) if next <= now => {
                passed += 1;
                at = next;
            }
            _ => break,
        }
    }
    passed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::automation::{to_millis, Trigger};
    use crate::domain::ids::TriggerId;
    use crate::domain::user::UserId;

    fn every_minute() -> Automation {
        let mut automation = Automation::blank(UserId::new(), Utc::now());
        automation.triggers = vec![Trigger {
            id: TriggerId::new(),
            kind: TriggerKind::Schedule {
                cron: "* * * * *".into(),
                timezone: "UTC".into(),
            },
        }];
        automation
    }

    #[test]
    fn the_times_that_passed_while_a_due_one_waited_are_counted() {
        let automation = every_minute();
        let due = to_millis(
            DateTime::parse_from_rfc3339("2026-01-01T09:00:00Z")
                .unwrap()
                .into(),
        );
        let minutes = |m| due + chrono::Duration::minutes(m);
        assert_eq!(passed_meanwhile(&automation, due, due), 0);
        assert_eq!(
            passed_meanwhile(&automation, due, minutes(1) - chrono::Duration::seconds(1)),
            0
        );
        assert_eq!(passed_meanwhile(&automation, due, minutes(1)), 1);
        assert_eq!(
            passed_meanwhile(&automation, due, minutes(5) + chrono::Duration::seconds(30)),
            5
        );
        assert_eq!(
            passed_meanwhile(&automation, due, minutes(100_000)),
            PASSED_COUNTED
        );
    }
}
