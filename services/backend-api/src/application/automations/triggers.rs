//! An automation's triggers as a client sends them, and how they become checked
//! [`Trigger`]s: each cron, zone, time and filter parsed (naming the field at fault),
//! a webhook kept with its secret or made with a fresh one, and the automation's fires
//! together held to the operator's shortest gap. Also the editor's preview of the
//! next fire times.

use chrono::{DateTime, Utc};
use rand::RngCore;
use serde::Deserialize;
use utoipa::ToSchema;

use super::rules::AutomationRules;
use super::template;
use crate::application::error::{AppError, AppResult};
use crate::domain::automation::{next_runs_of, to_millis, Trigger, TriggerKind, MAX_TRIGGERS};
use crate::domain::automation_schedule::{parse_instant, CronSchedule};
use crate::domain::ids::TriggerId;

/// A trigger as a client sends it. `id`: one of the automation's triggers (of the same
/// type) that this one is, in an edit; it keeps its id (and a webhook its URL and
/// secret), and an `at` sent unchanged is taken even once its time has passed.
#[derive(Deserialize, ToSchema, Clone)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum NewTrigger {
    /// A cron expression: 5 fields (minute hour day month weekday) or 6 (seconds
    /// first), read in `timezone` (IANA, default `UTC`).
    Schedule {
        id: Option<String>,
        cron: String,
        timezone: Option<String>,
    },
    /// Once, at this RFC 3339 time; a new or changed time must be in the future.
    At { id: Option<String>, at: String },
    /// A secret URL, `POST /api/v1/hooks/{id}`, for signed deliveries.
    /// `filter`: an expression over the delivery (`body.action == "opened"`) that must
    /// hold for it to run. `key`: an expression over the delivery giving its
    /// idempotency key when it has no `Idempotency-Key` header (`body.delivery_id`).
    Webhook {
        id: Option<String>,
        filter: Option<String>,
        key: Option<String>,
    },
}

/// `(trigger, secret)` of each webhook trigger just made: shown once.
pub type Secrets = Vec<(TriggerId, String)>;

/// A webhook secret: 32 random bytes, hex.
pub fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    service_kit::hex(&bytes)
}

/// The next `count` fire times of triggers not saved yet (the editor's preview),
/// checked as when saved, except that ids name nothing stored.
pub fn preview(
    triggers: Vec<NewTrigger>,
    count: usize,
    rules: &AutomationRules,
) -> AppResult<Vec<DateTime<Utc>>> {
    let triggers = triggers_of(triggers, None, &mut Vec::new(), rules)?;
    Ok(next_runs_of(&triggers, Utc::now(), count))
}

/// The checked triggers of `new`; `current`: the automation's stored ones (`None` for
/// a preview). The shortest gap between fires is checked only when the fire times
/// change, so an automation saved before the operator raised it can be saved unchanged.
pub(super) fn triggers_of(
    new: Vec<NewTrigger>,
    current: Option<&[Trigger]>,
    secrets: &mut Secrets,
    rules: &AutomationRules,
) -> AppResult<Vec<Trigger>> {
    if new.is_empty() || new.len() > MAX_TRIGGERS {
        return Err(AppError::InvalidField {
            field: "triggers",
            message: format!("1 to {MAX_TRIGGERS} triggers (schedule, at or webhook)"),
        });
    }
    let triggers = new
        .into_iter()
        .map(|trigger| one_trigger(trigger, current, secrets))
        .collect::<AppResult<Vec<Trigger>>>()?;
    let mut ids: Vec<&str> = triggers.iter().map(|t| t.id.as_str()).collect();
    ids.sort_unstable();
    if ids.windows(2).any(|pair| pair[0] == pair[1]) {
        return Err(AppError::InvalidField {
            field: "triggers",
            message: "each trigger's `id` at most once".into(),
        });
    }
    if current.is_none_or(|current| fire_times(current) != fire_times(&triggers)) {
        rules.check_interval(&triggers)?;
    }
    Ok(triggers)
}

fn one_trigger(
    trigger: NewTrigger,
    current: Option<&[Trigger]>,
    secrets: &mut Secrets,
) -> AppResult<Trigger> {
    let (id, kind) = match trigger {
        NewTrigger::Schedule { id, cron, timezone } => {
            let timezone = timezone.unwrap_or_else(|| "UTC".into());
            CronSchedule::parse(&cron, &timezone)?;
            let (id, _) = kept(id, current, "schedule")?;
            (id, TriggerKind::Schedule { cron, timezone })
        }
        NewTrigger::At { id, at } => {
            let at = to_millis(parse_instant(&at)?);
            let sent_with_id = id.is_some();
            let (id, stored) = kept(id, current, "at")?;
            let unchanged =
                matches!(stored.map(|t| &t.kind), Some(TriggerKind::At { at: was }) if *was == at);
            // A preview cannot tell a fired one-shot sent again from a new one: it
            // takes it (it fires no more).
            let taken_as_is = unchanged || (current.is_none() && sent_with_id);
            if at <= Utc::now() && !taken_as_is {
                return Err(AppError::InvalidField {
                    field: "at",
                    message: "the time is in the past; it would never fire".into(),
                });
            }
            (id, TriggerKind::At { at })
        }
        NewTrigger::Webhook { id, filter, key } => {
            let (filter, key) = (checked(filter, "filter")?, checked(key, "key")?);
            let (id, stored) = kept(id, current, "webhook")?;
            let (secret, previous) = match stored.map(|t| &t.kind) {
                Some(TriggerKind::Webhook { secret, previous, .. }) => (secret.clone(), previous.clone()),
                _ => {
                    let secret = new_secret();
                    secrets.push((id.clone(), secret.clone()));
                    (secret, None)
                }
            };
            let kind = TriggerKind::Webhook {
                secret,
                previous,
                filter,
                key,
            };
            (id, kind)
        }
    };
    Ok(Trigger { id, kind })
}

/// The id a sent trigger gets: a new one, or the stored trigger of `kind` its `id`
/// names (any id in a preview, where `current` is `None`).
fn kept<'a>(
    id: Option<String>,
    current: Option<&'a [Trigger]>,
    kind: &str,
) -> AppResult<(TriggerId, Option<&'a Trigger>)> {
    let Some(raw) = id else {
        return Ok((TriggerId::new(), None));
    };
    let id = TriggerId::parse(&raw).map_err(|_| unknown_trigger())?;
    let Some(current) = current else {
        return Ok((id, None));
    };
    match current.iter().find(|t| t.id == id && t.kind_name() == kind) {
        Some(stored) => Ok((id, Some(stored))),
        None => Err(unknown_trigger()),
    }
}

/// What the triggers' fire times depend on, in a comparable order.
fn fire_times(triggers: &[Trigger]) -> Vec<String> {
    let mut times: Vec<String> = triggers
        .iter()
        .filter_map(|trigger| match &trigger.kind {
            TriggerKind::Schedule { cron, timezone } => Some(format!("cron {cron} in {timezone}")),
            TriggerKind::At { at } => Some(format!("at {}", at.timestamp_millis())),
            TriggerKind::Webhook { .. } => None,
        })
        .collect();
    times.sort_unstable();
    times
}

fn unknown_trigger() -> AppError {
    AppError::InvalidField {
        field: "triggers",
        message: "a trigger's `id` must name one of this automation's triggers of its type".into(),
    }
}

/// An expression of a webhook trigger (blank is none), `InvalidField` naming `field`
/// when it does not parse.
fn checked(expression: Option<String>, field: &'static str) -> AppResult<Option<String>> {
    let expression = expression.filter(|e| !e.trim().is_empty());
    if let Some(expression) = &expression {
        template::check_expression(expression, field)?;
    }
    Ok(expression)
}
