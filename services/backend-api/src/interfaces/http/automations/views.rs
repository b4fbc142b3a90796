//! Automations as clients see them: the record with its triggers (a webhook's URL; its
//! secret only in the answer that made it), the next fire times, and the history.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::application::automations::{Listed, RunReport, Saved};
use crate::domain::automation::{Automation, FiredBy, MissedRuns, SessionMode, Trigger, TriggerKind};
use crate::domain::ids::TriggerId;
use crate::domain::session::Network;

/// Fire times shown ahead.
pub const NEXT_RUNS: usize = 5;

#[derive(Serialize, ToSchema)]
pub struct TriggerView {
    pub id: String,
    /// `schedule`, `at` or `webhook`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub cron: Option<String>,
    pub timezone: Option<String>,
    pub at: Option<DateTime<Utc>>,
    pub filter: Option<String>,
    /// A webhook's expression over the body giving a delivery's deduplication key (without
    /// one, the delivery's signature is its key).
    pub key: Option<String>,
    /// A webhook's address: `<BACKEND_PUBLIC_URL>/api/v1/hooks/{id}` when the deployment
    /// knows its public URL, else relative to this API's origin (`/api/v1/hooks/{id}`).
    pub url: Option<String>,
    /// A webhook's signing secret: only in the answer that made it (or rotated it).
    pub secret: Option<String>,
}

impl TriggerView {
    fn of(trigger: &Trigger, secrets: &[(TriggerId, String)], base: Option<&str>) -> Self {
        let mut view = Self {
            id: trigger.id.as_str().to_owned(),
            kind: trigger.kind_name(),
            cron: None,
            timezone: None,
            at: None,
            filter: None,
            key: None,
            url: None,
            secret: None,
        };
        match &trigger.kind {
            TriggerKind::Schedule { cron, timezone } => {
                view.cron = Some(cron.clone());
                view.timezone = Some(timezone.clone());
            }
            TriggerKind::At { at } => view.at = Some(*at),
            TriggerKind::Webhook { filter, key, .. } => {
                view.filter.clone_from(filter);
                view.key.clone_from(key);
                view.url = Some(hook_url(base, &trigger.id));
                view.secret = secrets
                    .iter()
                    .find(|(id, _)| id == &trigger.id)
                    .map(|(_, secret)| secret.clone());
            }
        }
        view
    }
}

/// A webhook trigger's URL, under the deployment's public base URL when it has one.
pub fn hook_url(base: Option<&str>, trigger: &TriggerId) -> String {
    format!("{}/api/v1/hooks/{}", base.unwrap_or_default(), trigger.as_str())
}

/// A file each run gets as `uploads/<name>`.
#[derive(Serialize, ToSchema)]
pub struct FileView {
    pub name: String,
    /// Bytes.
    pub size: u64,
}

/// One entry of the history.
#[derive(Serialize, ToSchema)]
pub struct RunView {
    /// The run's job (`GET /api/v1/jobs/{id}`); absent when nothing ran.
    pub job_id: Option<String>,
    /// The job's session, to open its chat.
    pub session_id: Option<String>,
    /// The job's status (`queued`, `running`, `waiting`, `succeeded`, `failed`,
    /// `cancelled`); `skipped` when nothing ran; `paused` for the entry saying the
    /// automation paused itself.
    pub status: String,
    pub trigger: FiredBy,
    pub trigger_id: Option<String>,
    pub fired_at: DateTime<Utc>,
    /// Why nothing ran, or what else happened (a missed time run on recovery).
    pub note: Option<String>,
    /// Why the run's job failed.
    pub error: Option<String>,
}

impl From<&RunReport> for RunView {
    fn from(report: &RunReport) -> Self {
        let run = &report.run;
        let status = match (&report.job, run.fired_by) {
            (Some(job), _) => job.status.as_str(),
            (None, FiredBy::Paused) => "paused",
            (None, _) => "skipped",
        };
        Self {
            job_id: run.job_id.as_ref().map(|id| id.as_str().to_owned()),
            session_id: report.job.as_ref().map(|job| job.session_id.as_str().to_owned()),
            status: status.to_owned(),
            trigger: run.fired_by,
            trigger_id: run.trigger.as_ref().map(|id| id.as_str().to_owned()),
            fired_at: run.fired_at,
            note: run.note.clone(),
            error: report.job.as_ref().and_then(|job| job.error.clone()),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct AutomationView {
    pub id: String,
    pub name: String,
    pub prompt: String,
    pub model: Option<String>,
    pub network: Option<Network>,
    pub timeout_secs: Option<u64>,
    pub session: SessionMode,
    /// The session a persistent automation's runs continue, once the first made it.
    pub session_id: Option<String>,
    pub enabled: bool,
    pub missed_runs: MissedRuns,
    /// Runs failed in a row.
    pub failures: u32,
    /// Why it paused itself, until enabled again.
    pub paused_reason: Option<String>,
    pub triggers: Vec<TriggerView>,
    /// When it fires next (absent when disabled or no time trigger fires again).
    pub next_fire: Option<DateTime<Utc>>,
    /// Its time triggers' next 5 fire times, enabled or not.
    pub next_runs: Vec<DateTime<Utc>>,
    /// Where each run's job is sent when it waits and when it ends.
    pub webhook_url: Option<String>,
    /// The key those bodies are signed with: only in the answer that set the URL.
    pub webhook_secret: Option<String>,
    /// The files each run gets in its workspace's `uploads/`.
    pub attachments: Vec<FileView>,
    /// The newest history entry (in listings).
    pub last_run: Option<RunView>,
    pub created_at: DateTime<Utc>,
}

impl AutomationView {
    /// `base`: the deployment's public base URL, when known.
    pub fn of(automation: &Automation, secrets: &[(TriggerId, String)], base: Option<&str>) -> Self {
        Self {
            id: automation.id.as_str().to_owned(),
            name: automation.name.clone(),
            prompt: automation.prompt.clone(),
            model: automation.model.clone(),
            network: automation.network,
            timeout_secs: automation.timeout_secs,
            session: automation.session,
            session_id: automation.session_id.as_ref().map(|id| id.as_str().to_owned()),
            enabled: automation.enabled,
            missed_runs: automation.missed,
            failures: automation.failures,
            paused_reason: automation.paused_reason.clone(),
            triggers: automation
                .triggers
                .iter()
                .map(|t| TriggerView::of(t, secrets, base))
                .collect(),
            next_fire: automation.next_fire,
            next_runs: automation.next_runs(Utc::now(), NEXT_RUNS),
            webhook_url: automation
                .webhook
                .as_ref()
                .map(|hook| hook.url.as_str().to_owned()),
            webhook_secret: None,
            attachments: automation
                .attachments
                .iter()
                .map(|file| FileView {
                    name: file.name.as_str().to_owned(),
                    size: file.size,
                })
                .collect(),
            last_run: None,
            created_at: automation.created_at,
        }
    }

    /// An automation just saved, with the secrets shown once.
    pub fn saved(saved: &Saved, base: Option<&str>) -> Self {
        let mut view = Self::of(&saved.automation, &saved.secrets, base);
        view.webhook_secret.clone_from(&saved.webhook_secret);
        view
    }

    /// An automation in a listing, with its last run.
    pub fn listed(listed: &Listed, base: Option<&str>) -> Self {
        let mut view = Self::of(&listed.automation, &[], base);
        view.last_run = listed.last_run.as_ref().map(RunView::from);
        view
    }
}
