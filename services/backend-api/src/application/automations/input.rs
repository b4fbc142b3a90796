//! An automation as a client sends it, unchecked, and how it becomes a checked
//! [`Automation`]: name, prompt template, model, network, time limit, triggers (each
//! cron, zone, time and filter parsed, naming the field at fault), and a fresh secret
//! for each new webhook trigger.

use chrono::{DateTime, Utc};
use rand::RngCore;
use serde::Deserialize;
use utoipa::ToSchema;

use super::rules::AutomationRules;
use super::template;
use crate::application::error::{AppError, AppResult};
use crate::domain::api_key::ApiKeyId;
use crate::domain::automation::{
    check_name, next_runs_of, to_millis, Automation, MissedRuns, SessionMode, Trigger, TriggerKind,
    MAX_TRIGGERS,
};
use crate::domain::automation_schedule::{parse_instant, CronSchedule};
use crate::domain::ids::TriggerId;
use crate::domain::model::ModelCatalog;
use crate::domain::ports::AutomationRepository;
use crate::domain::session::Network;
use crate::domain::user::UserId;

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

/// An automation as a client sends it.
#[derive(Deserialize, ToSchema)]
pub struct NewAutomation {
    pub name: String,
    /// What to do, as a chat message; a template that may name the fire's payload:
    /// `{{ body.repository.name }}`, `{{ fired_at }}`, `{{ trigger }}`.
    pub prompt: String,
    /// One of `GET /api/v1/models`' names (default: the default model).
    pub model: Option<String>,
    /// `internet` or `offline`; default: the sandbox-manager's.
    pub network: Option<String>,
    /// Each run's time limit, as a job's (default: a job's).
    pub timeout_secs: Option<u64>,
    /// `fresh` (default): a new session per run; `persistent`: one session every run
    /// continues, so each sees what the earlier ones did and their files.
    pub session: Option<SessionMode>,
    /// Default true.
    pub enabled: Option<bool>,
    /// A fire time missed while no replica ran: `run_once` (default) or `skip`.
    pub missed_runs: Option<MissedRuns>,
    pub triggers: Vec<NewTrigger>,
}

/// Changes to an automation; what is left out stays. `triggers` replaces them all
/// (a webhook trigger given with its `id` keeps its URL and secret).
#[derive(Deserialize, ToSchema, Default)]
pub struct AutomationEdit {
    pub name: Option<String>,
    pub prompt: Option<String>,
    pub model: Option<String>,
    pub network: Option<String>,
    pub timeout_secs: Option<u64>,
    pub session: Option<SessionMode>,
    /// Enabling clears a pause after failures, and the failure count.
    pub enabled: Option<bool>,
    pub missed_runs: Option<MissedRuns>,
    pub triggers: Option<Vec<NewTrigger>>,
}

/// A webhook secret: 32 random bytes, hex.
pub fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    service_kit::hex(&bytes)
}

/// `(trigger, secret)` of each webhook trigger just made: shown once.
pub type Secrets = Vec<(TriggerId, String)>;

/// What an automation is checked against when saved: the models offered and the
/// operator's rules.
#[derive(Clone, Copy)]
pub struct Checks<'a> {
    pub models: &'a ModelCatalog,
    pub rules: &'a AutomationRules,
}

/// Checks `new` and stores it as the owner's; the one way an automation is made (by the
/// API and by the agent's tool).
pub async fn save_new(
    store: &dyn AutomationRepository,
    checks: Checks<'_>,
    owner: &UserId,
    api_key: Option<ApiKeyId>,
    new: NewAutomation,
) -> AppResult<(Automation, Secrets)> {
    checks.rules.check_timeout(new.timeout_secs)?;
    checks.rules.check_room(store, owner).await?;
    let (automation, secrets) = build(new, owner, api_key, checks)?;
    store.insert(&automation).await?;
    Ok((automation, secrets))
}

/// What the agent's `automation_create` tool takes: a time-triggered automation for its
/// person (webhooks are made in the app).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AutomateArgs {
    /// A few words naming it.
    pub name: String,
    /// What to do at each run, as the person would ask it; each run starts a new chat
    /// that sees only this.
    pub prompt: String,
    /// A cron expression: 5 fields (minute hour day month weekday), e.g. `0 9 * * MON`.
    #[serde(default)]
    pub cron: Option<String>,
    /// The IANA time zone the cron is read in (the person's, if known); default UTC.
    #[serde(default)]
    pub timezone: Option<String>,
    /// Instead of (or besides) `cron`: once, at this RFC 3339 time.
    #[serde(default)]
    pub at: Option<String>,
}

impl From<AutomateArgs> for NewAutomation {
    fn from(args: AutomateArgs) -> Self {
        let mut triggers = Vec::new();
        if let Some(cron) = args.cron {
            triggers.push(NewTrigger::Schedule {
                cron,
                timezone: args.timezone,
            });
        }
        if let Some(at) = args.at {
            triggers.push(NewTrigger::At { at });
        }
        Self {
            name: args.name,
            prompt: args.prompt,
            model: None,
            network: None,
            timeout_secs: None,
            session: None,
            enabled: None,
            missed_runs: None,
            triggers,
        }
    }
}

fn build(
    new: NewAutomation,
    owner: &UserId,
    api_key: Option<ApiKeyId>,
    checks: Checks<'_>,
) -> AppResult<(Automation, Secrets)> {
    let automation = Automation {
        timeout_secs: new.timeout_secs,
        session: new.session.unwrap_or(SessionMode::Fresh),
        enabled: new.enabled.unwrap_or(true),
        missed: new.missed_runs.unwrap_or_default(),
        api_key,
        ..Automation::blank(owner.clone(), Utc::now())
    };
    let edit = AutomationEdit {
        name: Some(new.name),
        prompt: Some(new.prompt),
        model: new.model,
        network: new.network,
        triggers: Some(new.triggers),
        ..AutomationEdit::default()
    };
    apply(edit, automation, checks)
}

pub fn apply(
    edit: AutomationEdit,
    mut automation: Automation,
    checks: Checks<'_>,
) -> AppResult<(Automation, Secrets)> {
    checks.rules.check_timeout(edit.timeout_secs)?;
    if let Some(name) = edit.name {
        automation.name = check_name(&name)?;
    }
    if let Some(prompt) = edit.prompt {
        template::check_prompt(&prompt)?;
        automation.prompt = prompt;
    }
    // A session keeps the model and network it was made with: a persistent
    // automation given others continues in a new session.
    if let Some(model) = edit.model {
        checks.models.pick(Some(&model))?;
        if automation.model.as_ref() != Some(&model) {
            automation.session_id = None;
        }
        automation.model = Some(model);
    }
    if let Some(network) = edit.network {
        let network = Network::parse(&network)?;
        if automation.network != Some(network) {
            automation.session_id = None;
        }
        automation.network = Some(network);
    }
    if let Some(secs) = edit.timeout_secs {
        automation.timeout_secs = Some(secs);
    }
    if let Some(session) = edit.session {
        if session != automation.session {
            automation.session_id = None;
        }
        automation.session = session;
    }
    if let Some(missed) = edit.missed_runs {
        automation.missed = missed;
    }
    let schedule_changed = edit.triggers.is_some() || edit.enabled.is_some_and(|on| on != automation.enabled);
    if let Some(enabled) = edit.enabled {
        if enabled && !automation.enabled {
            automation.failures = 0;
            automation.paused_reason = None;
        }
        automation.enabled = enabled;
    }
    let mut secrets = Vec::new();
    if let Some(triggers) = edit.triggers {
        automation.triggers = triggers_of(triggers, &automation.triggers, &mut secrets, checks.rules)?;
    }
    // Only a change of when it fires moves its next fire: a rename must not drop a
    // time that is due but not yet claimed.
    if schedule_changed {
        let now = Utc::now();
        // A due time not claimed yet that the triggers still fire at (the editor sends
        // them with every save) stays due.
        let due = automation.next_fire.filter(|due| *due <= now);
        automation.next_fire = match due {
            Some(due) if automation.enabled && automation.trigger_due_at(due).is_some() => Some(due),
            _ => automation.next_fire_after(now),
        };
    }
    Ok((automation, secrets))
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

fn triggers_of(
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
