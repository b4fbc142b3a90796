//! An automation as a client sends it, unchecked, and how it becomes a checked
//! [`Automation`]: name, prompt template, model, network, time limit, triggers
//! ([`super::triggers`]), webhook and files, held to the operator's rules
//! ([`super::rules`]); and how an edit is stored over the automation it was made of.

use chrono::Utc;
use serde::Deserialize;
use utoipa::ToSchema;

use super::files;
use super::rules::AutomationRules;
use super::template;
use super::triggers::{triggers_of, NewTrigger, Secrets};
use super::UPDATE_ROUNDS;
use crate::application::error::{AppError, AppResult};
use crate::domain::api_key::ApiKeyId;
use crate::domain::automation::{check_name, Automation, MissedRuns, SessionMode};
use crate::domain::job::{Webhook, WebhookUrl};
use crate::domain::job_attachment::{JobAttachment, NewAttachment};
use crate::domain::model::ModelCatalog;
use crate::domain::ports::AutomationRepository;
use crate::domain::run_call::AutomateArgs;
use crate::domain::session::Network;
use crate::domain::user::UserId;

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
    /// Gets each run's job, as `GET /api/v1/jobs/{id}` shows it, when the run starts
    /// waiting and when it ends, signed as a job's webhook is with the automation's one
    /// secret (`webhook_secret`, shown only in the answer that set the URL); a public
    /// address unless the operator allows private ones.
    pub webhook_url: Option<String>,
    /// Files each run gets in its workspace as `uploads/<name>`, as a job's attachments
    /// are: at most 20, together at most the operator's cap (the lesser of a job's and
    /// 8 MiB; 413 past it, saying it).
    #[serde(default)]
    pub attachments: Vec<NewAttachment>,
}

/// Changes to an automation; what is left out stays. `triggers` replaces them all (one
/// given with its `id` stays that trigger: a webhook keeps its URL and secret).
#[derive(Deserialize, ToSchema, Default, Clone)]
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
    /// As when made; the same URL keeps its secret, another gets a new one, `""` removes it.
    pub webhook_url: Option<String>,
    /// Files added to those it has (one of the same name replaced).
    pub attachments: Option<Vec<NewAttachment>>,
    /// Names of its files to remove.
    pub remove_attachments: Option<Vec<String>>,
}

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
    mut new: NewAutomation,
) -> AppResult<(Automation, Secrets)> {
    checks.rules.check_timeout(new.timeout_secs)?;
    let files = checks
        .rules
        .check_files(std::mem::take(&mut new.attachments), &[])?;
    let (mut automation, secrets) = build(new, owner, api_key, checks)?;
    let (attachments, contents) = files::keyed(files);
    automation.attachments = attachments;
    files::store(store, &automation.id, contents).await?;
    if let Err(err) = checks.rules.insert_within_cap(store, &automation).await {
        files::remove(store, &automation.id, files::keys(&automation.attachments)).await;
        return Err(err);
    }
    Ok((automation, secrets))
}

/// Applies `edit` to `current`, the automation as read, and stores it over that reading:
/// the files it sends are stored first, and those it removes go once it is stored
/// ([`files::replace`]). What the system changes meanwhile (a fire's claim, a run's end
/// counting a failure or keeping its session) does not stop it: the edit is applied
/// again to a fresh reading, which keeps that reading's fire time, count and session as
/// it would have `current`'s, never undoing them. The person's own change meanwhile (an
/// edit, a rotation) is `Conflict`; one deleted meanwhile is `NotFound`.
pub(super) async fn save_edit(
    store: &dyn AutomationRepository,
    checks: Checks<'_>,
    current: &Automation,
    mut edit: AutomationEdit,
) -> AppResult<(Automation, Secrets)> {
    let (sent, removed) = (edit.attachments.take(), edit.remove_attachments.take());
    let change = files::change(current, sent, removed, checks.rules)?;
    let save = replace_edited(store, checks, current, edit, change.attachments.clone());
    files::replace(store, &current.id, change, save).await
}

/// Stores `edit` (with `attachments`) applied to `current`, again to a fresh reading
/// while only the system changed it meanwhile.
async fn replace_edited(
    store: &dyn AutomationRepository,
    checks: Checks<'_>,
    current: &Automation,
    mut edit: AutomationEdit,
    attachments: Vec<JobAttachment>,
) -> AppResult<(Automation, Secrets)> {
    // The editor sends every field: `enabled` as the person saw it asks for no change, so
    // a run's end that paused the automation meanwhile is not undone by the same form.
    if edit.enabled == Some(current.enabled) {
        edit.enabled = None;
    }
    let mut read = current.clone();
    for _ in 0..UPDATE_ROUNDS {
        let (expected, revision) = (read.next_fire, read.revision);
        let (mut automation, secrets) = apply(edit.clone(), read, checks)?;
        automation.attachments.clone_from(&attachments);
        automation.revision = revision + 1;
        automation.edits = current.edits + 1;
        if store.replace(&automation, expected).await? {
            return Ok((automation, secrets));
        }
        match store.get(&current.id).await? {
            Some(fresh) if fresh.edits == current.edits => read = fresh,
            Some(_) => {
                return Err(AppError::Conflict(
                    "the automation was changed meanwhile (edited, or a webhook secret \
                     rotated); load it again"
                        .into(),
                ))
            }
            None => return Err(AppError::NotFound("automation")),
        }
    }
    Err(AppError::Conflict(
        "the automation's runs kept changing it while it was saved; try again".into(),
    ))
}

impl From<AutomateArgs> for NewAutomation {
    fn from(args: AutomateArgs) -> Self {
        let mut triggers = Vec::new();
        if let Some(cron) = args.cron {
            triggers.push(NewTrigger::Schedule {
                id: None,
                cron,
                timezone: args.timezone,
            });
        }
        if let Some(at) = args.at {
            triggers.push(NewTrigger::At { id: None, at });
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
            webhook_url: None,
            attachments: Vec::new(),
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
        webhook_url: new.webhook_url,
        ..AutomationEdit::default()
    };
    apply(edit, automation, checks)
}

/// The webhook `raw` sets: none for `""`, the kept one for its URL, else a new one (with
/// a new secret). Whether the backend may call its host is the caller's to check, since
/// that needs the host's addresses.
fn webhook_of(raw: &str, kept: Option<Webhook>) -> AppResult<Option<Webhook>> {
    if raw.is_empty() {
        return Ok(None);
    }
    let url = WebhookUrl::parse(raw)?;
    Ok(Some(match kept {
        Some(kept) if kept.url == url => kept,
        _ => Webhook::new(url),
    }))
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
    if let Some(raw) = edit.webhook_url {
        automation.webhook = webhook_of(raw.trim(), automation.webhook.take())?;
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
        automation.triggers = triggers_of(triggers, Some(&automation.triggers), &mut secrets, checks.rules)?;
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
