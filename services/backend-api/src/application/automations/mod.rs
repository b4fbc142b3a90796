//! Automations: a person's prompt the agent runs on its own when a trigger fires — a
//! cron schedule in a time zone, a one-shot time, a signed webhook ([`hooks`]), or "run
//! now". Each run is a job ([`super::jobs`]: status, events, result, webhooks out, the
//! person's queue and quotas) in a fresh session, or in the one session a persistent
//! automation's runs continue ([`runs`]). An automation that fails
//! [`AutomationSettings::max_failures`] times in a row disables itself and says so in its
//! history.
//!
//! Every replica runs the [`scheduler`]: it sleeps until the earliest fire time in the
//! store (or a coarse poll), and fires a due time only after claiming it with one
//! conditional update, so exactly one replica fires each; a time missed while none ran
//! is run once or skipped, as the automation says, and recorded.

mod files;
pub mod hooks;
pub mod input;
mod pauses;
pub mod rules;
mod runs;
mod scheduler;
mod template;
pub mod triggers;

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::error::{AppError, AppResult};
use super::jobs::JobService;
use super::sessions::SessionService;
use super::turns::{TurnSettings, Turns};
use crate::domain::api_key::ApiKeyId;
use crate::domain::automation::{Automation, AutomationRun, FiredBy, RotatedSecret, TriggerKind};
use crate::domain::ids::{AutomationId, TriggerId};
use crate::domain::job::{Job, JobId, WebhookUrl};
use crate::domain::ports::{AutomationRepository, UserRepository};
use crate::domain::user::UserId;
use input::{AutomationEdit, Checks, NewAutomation};
use rules::AutomationRules;

/// Times an update or an edit is tried when a claim moved the automation in between.
const UPDATE_ROUNDS: usize = 5;

/// History entries a listing shows at most.
pub const MAX_RUNS_LISTED: usize = 100;

#[derive(Debug, Clone)]
pub struct AutomationSettings {
    /// Failed runs in a row after which an automation disables itself.
    pub max_failures: u32,
    /// How late a fire may be and still count as on time (not missed).
    pub missed_after: Duration,
    /// How often the scheduler looks at the store even when nothing is due sooner (it
    /// is woken at once by changes made on this replica).
    pub poll: Duration,
    /// The largest webhook body taken.
    pub max_webhook_bytes: usize,
    /// How far a delivery's signed time may be from the clock, either way.
    pub signature_tolerance: chrono::Duration,
    /// How long a rotated webhook secret is still taken beside the new one.
    pub rotation_grace: chrono::Duration,
    /// Webhook deliveries read and checked at once (each holds its body until it has
    /// fired), those waiting for a turn (holding nothing yet), and how long they wait.
    pub deliveries: TurnSettings,
    /// What every saved automation is held to.
    pub rules: AutomationRules,
    /// The deployment's public base URL, which webhook URLs are given under when known.
    pub public_url: Option<String>,
}

pub struct AutomationService {
    store: Arc<dyn AutomationRepository>,
    /// Whose automations may run: an owner's deactivated account stops them.
    users: Arc<dyn UserRepository>,
    jobs: Arc<JobService>,
    sessions: Arc<SessionService>,
    settings: AutomationSettings,
    /// Wakes the scheduler when a fire time changed on this replica.
    wake: Notify,
    /// Webhook deliveries take turns here before their bodies are read.
    deliveries: Turns,
    stopping: CancellationToken,
}

/// An automation just saved, with the secrets of the webhook triggers made with it.
pub struct Saved {
    pub automation: Automation,
    /// `(trigger, secret)`: shown once.
    pub secrets: Vec<(TriggerId, String)>,
    /// The secret of its outgoing webhook when this save set a new one: shown once.
    pub webhook_secret: Option<String>,
}

impl Saved {
    /// `automation` as saved over `before` (`None` when new).
    fn over(before: Option<&Automation>, automation: Automation, secrets: Vec<(TriggerId, String)>) -> Self {
        let was = before.and_then(|before| before.webhook.as_ref());
        let webhook_secret = automation
            .webhook
            .as_ref()
            .filter(|now| was.is_none_or(|was| was.secret != now.secret))
            .map(|now| now.secret.clone());
        Self {
            automation,
            secrets,
            webhook_secret,
        }
    }
}

/// An automation with what its history says last.
pub struct Listed {
    pub automation: Automation,
    pub last_run: Option<RunReport>,
}

/// A history entry with its job's status.
pub struct RunReport {
    pub run: AutomationRun,
    pub job: Option<Job>,
}

impl AutomationService {
    pub fn new(
        store: Arc<dyn AutomationRepository>,
        users: Arc<dyn UserRepository>,
        jobs: Arc<JobService>,
        sessions: Arc<SessionService>,
        settings: AutomationSettings,
        stopping: CancellationToken,
    ) -> Self {
        Self {
            store,
            users,
            jobs,
            sessions,
            deliveries: Turns::new(settings.deliveries.clone(), "taking many webhook deliveries"),
            settings,
            wake: Notify::new(),
            stopping,
        }
    }

    /// Whether the owner's account is active (a deactivated one's automations do not run).
    async fn owner_active(&self, owner: &UserId) -> AppResult<bool> {
        Ok(self.users.by_id(owner).await?.is_some_and(|user| user.active))
    }

    pub fn max_webhook_bytes(&self) -> usize {
        self.settings.max_webhook_bytes
    }

    pub fn public_url(&self) -> Option<&str> {
        self.settings.public_url.as_deref()
    }

    pub fn rules(&self) -> &AutomationRules {
        &self.settings.rules
    }

    fn checks(&self) -> Checks<'_> {
        Checks {
            models: self.sessions.models(),
            rules: &self.settings.rules,
        }
    }

    pub async fn create(
        &self,
        owner: &UserId,
        api_key: Option<ApiKeyId>,
        new: NewAutomation,
    ) -> AppResult<Saved> {
        self.check_webhook(None, new.webhook_url.as_deref()).await?;
        let (automation, secrets) = input::save_new(&*self.store, self.checks(), owner, api_key, new).await?;
        self.wake.notify_one();
        Ok(Saved::over(None, automation, secrets))
    }

    /// Whether the backend may call the host of `raw`, a webhook URL being set (not
    /// asked again of the one `current` already has).
    async fn check_webhook(&self, current: Option<&Automation>, raw: Option<&str>) -> AppResult<()> {
        let Some(raw) = raw.map(str::trim).filter(|raw| !raw.is_empty()) else {
            return Ok(());
        };
        let url = WebhookUrl::parse(raw)?;
        let kept = current.and_then(|current| current.webhook.as_ref());
        if kept.is_none_or(|kept| kept.url != url) {
            self.jobs.check_webhook(&url).await?;
        }
        Ok(())
    }

    /// The owner's automation; `NotFound` for anyone else's.
    pub async fn get(&self, owner: &UserId, id: &str) -> AppResult<Automation> {
        let id = AutomationId::parse(id)?;
        match self.store.get(&id).await? {
            Some(automation) if &automation.owner == owner => Ok(automation),
            _ => Err(AppError::NotFound("automation")),
        }
    }

    pub async fn list(&self, owner: &UserId) -> AppResult<Vec<Listed>> {
        let mut listed = Vec::new();
        for automation in self.store.list_for(owner).await? {
            let last_run = self.reports(&automation, 1).await?.pop();
            listed.push(Listed { automation, last_run });
        }
        Ok(listed)
    }

    pub async fn edit(&self, owner: &UserId, id: &str, edit: AutomationEdit) -> AppResult<Saved> {
        let current = self.get(owner, id).await?;
        self.check_webhook(Some(&current), edit.webhook_url.as_deref())
            .await?;
        let (automation, secrets) = input::save_edit(&*self.store, self.checks(), &current, edit).await?;
        self.wake.notify_one();
        Ok(Saved::over(Some(&current), automation, secrets))
    }

    pub async fn delete(&self, owner: &UserId, id: &str) -> AppResult<()> {
        let automation = self.get(owner, id).await?;
        self.store.delete(&automation.id).await?;
        Ok(())
    }

    /// A new secret for a webhook trigger, shown once; the one it replaces is still
    /// taken for the rotation's grace ([`AutomationSettings::rotation_grace`]), then no
    /// more. When is the old one's last moment.
    pub async fn rotate(
        &self,
        owner: &UserId,
        id: &str,
        trigger: &str,
    ) -> AppResult<(TriggerId, String, DateTime<Utc>)> {
        let automation = self.get(owner, id).await?;
        let trigger = TriggerId::parse(trigger)?;
        if automation.webhook(&trigger).is_none() {
            return Err(AppError::NotFound("webhook trigger"));
        }
        let secret = triggers::new_secret();
        let until = Utc::now() + self.settings.rotation_grace;
        self.update(&automation.id, |automation| {
            // The person's change: an edit read before it loses rather than undo it.
            automation.edits += 1;
            for stored in &mut automation.triggers {
                if let (
                    true,
                    TriggerKind::Webhook {
                        secret: old,
                        previous,
                        ..
                    },
                ) = (stored.id == trigger, &mut stored.kind)
                {
                    *previous = Some(RotatedSecret {
                        secret: std::mem::replace(old, secret.clone()),
                        until,
                    });
                }
            }
        })
        .await?;
        Ok((trigger, secret, until))
    }

    /// Changes the stored automation with `change`, again on a fresh read while a fire's
    /// claim moves it meanwhile (never undoing the claim). `None` when it is gone.
    async fn update(
        &self,
        id: &AutomationId,
        change: impl Fn(&mut Automation),
    ) -> AppResult<Option<Automation>> {
        for _ in 0..UPDATE_ROUNDS {
            let Some(mut automation) = self.store.get(id).await? else {
                return Ok(None);
            };
            let expected = automation.next_fire;
            change(&mut automation);
            automation.revision += 1;
            if self.store.replace(&automation, expected).await? {
                return Ok(Some(automation));
            }
        }
        Err(AppError::Internal(anyhow::anyhow!(
            "automation {} kept changing under {UPDATE_ROUNDS} attempts to update it",
            id.as_str()
        )))
    }

    /// "Run now": a run fired by hand, whatever the schedule.
    pub async fn run_now(self: &Arc<Self>, owner: &UserId, id: &str) -> AppResult<JobId> {
        let automation = self.get(owner, id).await?;
        let run = self
            .fire(&automation, runs::Fire::new(FiredBy::Manual, None, Utc::now()))
            .await?;
        run.job_id
            .ok_or_else(|| AppError::Conflict(run.note.unwrap_or_else(|| "nothing ran".into())))
    }

    /// The automation's history, newest first, each run with its job.
    pub async fn runs(&self, owner: &UserId, id: &str, limit: usize) -> AppResult<Vec<RunReport>> {
        let automation = self.get(owner, id).await?;
        self.reports(&automation, limit.clamp(1, MAX_RUNS_LISTED)).await
    }

    async fn reports(&self, automation: &Automation, limit: usize) -> AppResult<Vec<RunReport>> {
        let mut reports = Vec::new();
        for run in self.store.runs(&automation.id, limit).await? {
            let job = match &run.job_id {
                Some(job) => self.jobs.get(&automation.owner, job.as_str()).await.ok(),
                None => None,
            };
            reports.push(RunReport { run, job });
        }
        Ok(reports)
    }
}

#[cfg(test)]
mod tests;
