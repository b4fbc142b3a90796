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

/// A trigger as a client sends it.
#[derive(Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum NewTrigger {
    /// A cron expression: 5 fields (minute hour day month weekday) or 6 (seconds
    /// first), read in `timezone` (IANA, default `UTC`).
    Schedule { cron: String, timezone: Option<String> },
    /// Once, at this RFC 3339 time.
    At { at: String },
    /// A secret URL, `POST /api/v1/hooks/{id}`, for signed deliveries. `id`: an
    /// existing webhook trigger to keep (with its URL and secret) in an edit.
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
/// checked as when saved.
pub fn preview(
    triggers: Vec<NewTrigger>,
    count: usize,
    rules: &AutomationRules,
) -> AppResult<Vec<DateTime<Utc>>> {
    let triggers = triggers_of(triggers, &[], &mut Vec::new(), rules)?;
    Ok(next_runs_of(&triggers, Utc::now(), count))
}

pub(super) fn triggers_of(
    new: Vec<NewTrigger>,
    current: &[Trigger],
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
        .map(|trigger| {
            let kind = match trigger {
                NewTrigger::Schedule { cron, timezone } => {
                    let timezone = timezone.unwrap_or_else(|| "UTC".into());
                    CronSchedule::parse(&cron, &timezone)?;
                    TriggerKind::Schedule { cron, timezone }
                }
                NewTrigger::At { at } => {
                    let at = to_millis(parse_instant(&at)?);
                    if at <= Utc::now() {
                        return Err(AppError::InvalidField {
                            field: "at",
                            message: "the time is in the past; it would never fire".into(),
                        });
                    }
                    TriggerKind::At { at }
                }
                NewTrigger::Webhook {
                    id: Some(id),
                    filter,
                    key,
                } => {
                    return kept_webhook(&id, filter, key, current);
                }
                NewTrigger::Webhook {
                    id: None,
                    filter,
                    key,
                } => {
                    let (filter, key) = (checked(filter, "filter")?, checked(key, "key")?);
                    let secret = new_secret();
                    let id = TriggerId::new();
                    secrets.push((id.clone(), secret.clone()));
                    return Ok(Trigger {
                        id,
                        kind: TriggerKind::Webhook { secret, filter, key },
                    });
                }
            };
            Ok(Trigger {
                id: TriggerId::new(),
                kind,
            })
        })
        .collect::<AppResult<Vec<Trigger>>>()?;
    rules.check_interval(&triggers)?;
    Ok(triggers)
}

fn kept_webhook(
    id: &str,
    filter: Option<String>,
    key: Option<String>,
    current: &[Trigger],
) -> AppResult<Trigger> {
    let id = TriggerId::parse(id).map_err(|_| unknown_trigger())?;
    match current.iter().find(|t| t.id == id).map(|t| &t.kind) {
        Some(TriggerKind::Webhook { secret, .. }) => Ok(Trigger {
            id,
            kind: TriggerKind::Webhook {
                secret: secret.clone(),
                filter: checked(filter, "filter")?,
                key: checked(key, "key")?,
            },
        }),
        _ => Err(unknown_trigger()),
    }
}

fn unknown_trigger() -> AppError {
    AppError::InvalidField {
        field: "triggers",
        message: "a webhook trigger's `id` must name one of this automation's".into(),
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
