//! An automation: a prompt a person's agent runs on its own, when one of its triggers
//! fires (a cron schedule, a one-shot time, a signed webhook, or a "run now"). Each run
//! is a job; the record keeps what the scheduler needs (the next fire time, claimed
//! atomically by one replica) and its run history ([`AutomationRun`]).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::api_key::ApiKeyId;
use super::automation_schedule::{CronSchedule, FireTimes};
use super::error::{DomainError, DomainResult};
use super::ids::{AutomationId, RunId, TriggerId};
use super::job::{JobId, Webhook};
use super::job_attachment::JobAttachment;
use super::session::{Network, SessionId};
use super::user::UserId;

/// Most triggers one automation has.
pub const MAX_TRIGGERS: usize = 10;
/// History entries kept per automation: each new one drops the oldest past this.
pub const HISTORY_KEPT: usize = 1_000;
/// How long a webhook delivery's key is remembered: the same key again within this
/// runs nothing, after it runs again (senders retry for hours, not weeks).
pub const DELIVERY_KEY_KEPT: chrono::Duration = chrono::Duration::days(7);

/// Whether the delivery key taken by `run` is past [`DELIVERY_KEY_KEPT`] at `now`.
pub fn delivery_key_expired(run: &RunId, now: DateTime<Utc>) -> bool {
    run.made_at().is_none_or(|taken| now - taken > DELIVERY_KEY_KEPT)
}
/// The most an automation's files may hold together, whatever a job may: each is kept
/// whole in one stored record (MongoDB's documents end at 16 MiB).
pub const MAX_FILES_BYTES: u64 = 8 * 1024 * 1024;
/// Longest name, in characters.
const MAX_NAME_CHARS: usize = 100;

/// Where the runs work: a new session each, or one session every run continues.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SessionMode {
    Fresh,
    Persistent,
}

/// What happens to a fire time that passed while no replica ran: one run on recovery
/// (however many were missed), or none; either is recorded in the history.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MissedRuns {
    #[default]
    RunOnce,
    Skip,
}

/// What a trigger is, as stored.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TriggerKind {
    Schedule {
        cron: String,
        timezone: String,
    },
    At {
        at: DateTime<Utc>,
    },
    /// `secret`: the HMAC key its deliveries are signed with (it must be kept to check
    /// them); `previous`: the one it replaced, still taken for a while after a rotation;
    /// `filter`: an expression over the delivery that must hold for a run; `key`: an
    /// expression over the delivery giving its deduplication key (else the signature).
    Webhook {
        secret: String,
        #[serde(default)]
        previous: Option<RotatedSecret>,
        filter: Option<String>,
        #[serde(default)]
        key: Option<String>,
    },
}

/// A webhook secret replaced by a rotation, taken beside the new one until `until`, so
/// senders can move to the new one without losing deliveries (as Stripe's rotation does).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RotatedSecret {
    pub secret: String,
    #[serde(with = "chrono::serde::ts_milliseconds")]
    pub until: DateTime<Utc>,
}

impl TriggerKind {
    /// A webhook's secrets taken at `now`: its own, and the one it replaced while that
    /// one's grace lasts. None for a time trigger.
    pub fn webhook_secrets(&self, now: DateTime<Utc>) -> Vec<&str> {
        match self {
            TriggerKind::Webhook { secret, previous, .. } => std::iter::once(secret.as_str())
                .chain(
                    previous
                        .iter()
                        .filter(|previous| previous.until > now)
                        .map(|previous| previous.secret.as_str()),
                )
                .collect(),
            TriggerKind::Schedule { .. } | TriggerKind::At { .. } => Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Trigger {
    pub id: TriggerId,
    #[serde(flatten)]
    pub kind: TriggerKind,
}

impl Trigger {
    /// Its fire times, for a time trigger (a stored cron parsed when it was saved).
    pub fn fire_times(&self) -> Option<FireTimes> {
        match &self.kind {
            TriggerKind::Schedule { cron, timezone } => CronSchedule::parse(cron, timezone)
                .ok()
                .map(|schedule| FireTimes::Cron(Box::new(schedule))),
            TriggerKind::At { at } => Some(FireTimes::Once(*at)),
            TriggerKind::Webhook { .. } => None,
        }
    }

    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            TriggerKind::Schedule { .. } => "schedule",
            TriggerKind::At { .. } => "at",
            TriggerKind::Webhook { .. } => "webhook",
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Automation {
    pub id: AutomationId,
    pub owner: UserId,
    pub name: String,
    /// A template over the trigger's payload (`{{ body.… }}`, `{{ fired_at }}`).
    pub prompt: String,
    pub model: Option<String>,
    pub network: Option<Network>,
    pub timeout_secs: Option<u64>,
    pub session: SessionMode,
    /// The session a persistent automation's runs continue, once its first run made it.
    pub session_id: Option<SessionId>,
    pub enabled: bool,
    pub missed: MissedRuns,
    /// Runs that failed in a row; at the limit the automation disables itself.
    pub failures: u32,
    /// Why it disabled itself, until it is enabled again.
    pub paused_reason: Option<String>,
    pub triggers: Vec<Trigger>,
    /// Where each run's job is sent when it starts waiting and when it ends, signed with
    /// this one secret (shown once, when the URL was set), so a receiver checks every run
    /// alike.
    #[serde(default)]
    pub webhook: Option<Webhook>,
    /// The files each run gets in its workspace's `uploads/`, as a job's attachments;
    /// their contents are kept apart ([`AutomationFiles`](super::ports::AutomationFiles)).
    #[serde(default)]
    pub attachments: Vec<JobAttachment>,
    /// The earliest time one of its time triggers fires next, while enabled: what the
    /// scheduler queries (by index) and claims. Milliseconds, so it compares exactly.
    #[serde(with = "chrono::serde::ts_milliseconds_option")]
    pub next_fire: Option<DateTime<Utc>>,
    /// The API key it was made with, whose count its runs' tokens join.
    pub api_key: Option<ApiKeyId>,
    pub created_at: DateTime<Utc>,
    /// Counts the changes stored: a change carries the revision it was read at plus one
    /// and is stored only over that one, so two changes made from the same reading (an
    /// edit, a rotation, a run's count) never undo each other.
    #[serde(default)]
    pub revision: u64,
    /// Counts the person's own changes (edits, rotations) among those: an edit that meets
    /// only the system's meanwhile (a fire's claim, a run's end) is applied again to the
    /// fresh reading; one that meets another of the person's loses.
    #[serde(default)]
    pub edits: u64,
}

impl Automation {
    /// A new automation of `owner`'s with nothing to do yet: enabled, a fresh session
    /// per run, no name, prompt or triggers (the caller sets them, checked).
    pub fn blank(owner: UserId, now: DateTime<Utc>) -> Self {
        Self {
            id: AutomationId::new(),
            owner,
            name: String::new(),
            prompt: String::new(),
            model: None,
            network: None,
            timeout_secs: None,
            session: SessionMode::Fresh,
            session_id: None,
            enabled: true,
            missed: MissedRuns::default(),
            failures: 0,
            paused_reason: None,
            triggers: Vec::new(),
            webhook: None,
            attachments: Vec::new(),
            next_fire: None,
            api_key: None,
            created_at: now,
            revision: 0,
            edits: 0,
        }
    }

    /// Paused for `why` (failed runs, its owner deactivated, its key revoked): it fires
    /// no more until its person enables it again.
    pub fn pause(&mut self, why: String) {
        self.enabled = false;
        self.next_fire = None;
        self.paused_reason = Some(why);
    }

    /// The earliest fire time of its time triggers strictly after `after` (to the
    /// millisecond), or `None` when disabled or none fires again.
    pub fn next_fire_after(&self, after: DateTime<Utc>) -> Option<DateTime<Utc>> {
        if !self.enabled {
            return None;
        }
        self.triggers
            .iter()
            .filter_map(Trigger::fire_times)
            .filter_map(|times| times.next_after(after))
            .min()
            .map(to_millis)
    }

    /// The next `count` fire times after `after`, enabled or not (the editor's preview).
    pub fn next_runs(&self, after: DateTime<Utc>, count: usize) -> Vec<DateTime<Utc>> {
        next_runs_of(&self.triggers, after, count)
    }

    /// The time trigger that fires at `at`, if one does.
    pub fn trigger_due_at(&self, at: DateTime<Utc>) -> Option<&Trigger> {
        let before = at - chrono::Duration::milliseconds(1);
        self.triggers.iter().find(|trigger| {
            trigger
                .fire_times()
                .and_then(|times| times.next_after(before))
                .is_some_and(|next| to_millis(next) == at)
        })
    }

    pub fn webhook(&self, id: &TriggerId) -> Option<&Trigger> {
        self.triggers
            .iter()
            .find(|trigger| &trigger.id == id && matches!(trigger.kind, TriggerKind::Webhook { .. }))
    }
}

/// The next `count` fire times of `triggers` after `after`, merged in order.
pub fn next_runs_of(triggers: &[Trigger], after: DateTime<Utc>, count: usize) -> Vec<DateTime<Utc>> {
    let times: Vec<FireTimes> = triggers.iter().filter_map(Trigger::fire_times).collect();
    let mut runs = Vec::with_capacity(count);
    let mut from = after;
    while runs.len() < count {
        let Some(next) = times.iter().filter_map(|t| t.next_after(from)).min() else {
            break;
        };
        runs.push(to_millis(next));
        from = next;
    }
    runs
}

/// A name: 1–100 characters, not blank.
pub fn check_name(name: &str) -> DomainResult<String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(DomainError::InvalidField {
            field: "name",
            message: format!("1 to {MAX_NAME_CHARS} characters"),
        });
    }
    Ok(name.to_owned())
}

/// `at` to the millisecond, as the stores keep times.
pub fn to_millis(at: DateTime<Utc>) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(at.timestamp_millis()).unwrap_or(at)
}

/// What fired a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FiredBy {
    Schedule,
    At,
    Webhook,
    /// "Run now", from the UI or the API.
    Manual,
    /// No fire: the automation paused itself after failures (`note` says why).
    Paused,
}

/// One entry of an automation's history: a run (its job), or a fire that did not run
/// and why.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AutomationRun {
    pub id: RunId,
    pub automation: AutomationId,
    pub fired_by: FiredBy,
    pub trigger: Option<TriggerId>,
    pub fired_at: DateTime<Utc>,
    pub job_id: Option<JobId>,
    /// Why nothing ran (a missed time skipped, the previous run still going, a job that
    /// could not be made), or what else happened (the automation paused itself).
    pub note: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::automation_schedule::parse_instant;

    fn automation(triggers: Vec<TriggerKind>) -> Automation {
        let mut automation = Automation::blank(UserId("someone".into()), Utc::now());
        automation.triggers = triggers
            .into_iter()
            .map(|kind| Trigger {
                id: TriggerId::new(),
                kind,
            })
            .collect();
        automation
    }

    #[test]
    fn next_runs_merge_the_triggers_in_order() {
        let at = parse_instant("2026-11-27T12:00:30Z").unwrap();
        let a = automation(vec![
            TriggerKind::Schedule {
                cron: "0 * * * * *".into(),
                timezone: "UTC".into(),
            },
            TriggerKind::At { at },
        ]);
        let start = parse_instant("2026-11-27T12:00:00Z").unwrap();
        let runs = a.next_runs(start, 3);
        let seconds: Vec<i64> = runs.iter().map(|t| (*t - start).num_seconds()).collect();
        assert_eq!(seconds, vec![30, 60, 120]);
        assert_eq!(a.next_fire_after(start), Some(at));
        assert_eq!(a.trigger_due_at(at).map(Trigger::kind_name), Some("at"));
    }

    #[test]
    fn a_disabled_automation_has_no_next_fire() {
        let mut a = automation(vec![TriggerKind::Schedule {
            cron: "* * * * *".into(),
            timezone: "UTC".into(),
        }]);
        a.enabled = false;
        assert_eq!(a.next_fire_after(Utc::now()), None);
        assert_eq!(a.next_runs(Utc::now(), 5).len(), 5);
    }
}
