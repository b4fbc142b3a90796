//! Firing an automation: its prompt filled in from the fire's payload, run as a job in
//! a fresh session or in its persistent one (a persistent automation whose last run is
//! still going skips the fire, since one session holds one run), the fire recorded in
//! its history, and the job watched to its end to count failures in a row, disabling the
//! automation at [`super::AutomationSettings::max_failures`].

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};

use super::template::{self, Payload};
use super::AutomationService;
use crate::application::error::{AppError, AppResult};
use crate::application::jobs::NewJob;
use crate::domain::automation::{
    Automation, AutomationId, AutomationRun, FiredBy, RunId, SessionMode, TriggerId,
};
use crate::domain::job::{Job, JobStatus};
use crate::domain::session::Network;

/// The history entries looked through for a persistent automation's last job.
const LAST_JOB_LOOK_BACK: usize = 100;

/// How often a run's job is looked at until it ends.
const WATCH_EVERY: Duration = Duration::from_secs(1);

/// One fire of an automation.
pub struct Fire {
    pub run: RunId,
    pub by: FiredBy,
    pub trigger: Option<TriggerId>,
    pub at: DateTime<Utc>,
    /// A webhook's body; `null` for the others.
    pub body: serde_json::Value,
    /// Said in the history beside the run (a missed time run on recovery).
    pub note: Option<String>,
}

impl Fire {
    pub fn manual(at: DateTime<Utc>) -> Self {
        Self {
            run: RunId::new(),
            by: FiredBy::Manual,
            trigger: None,
            at,
            body: serde_json::Value::Null,
            note: None,
        }
    }
}

impl AutomationService {
    /// Runs the automation for `fire` and records it; a fire that cannot run is
    /// recorded with why (and counts as a failure when it is the automation's fault).
    pub(super) async fn fire(
        self: &Arc<Self>,
        automation: &Automation,
        fire: Fire,
    ) -> AppResult<AutomationRun> {
        let mut run = AutomationRun {
            id: fire.run,
            automation: automation.id.clone(),
            fired_by: fire.by,
            trigger: fire.trigger,
            fired_at: fire.at,
            job_id: None,
            note: fire.note,
        };
        match self.start_job(automation, &fire.body, fire.by, fire.at).await {
            Ok(job) => {
                run.job_id = Some(job.id.clone());
                self.store.put_run(&run).await?;
                self.watch(automation.id.clone(), job);
            }
            Err(why) => {
                run.note = Some(why);
                self.store.put_run(&run).await?;
            }
        }
        Ok(run)
    }

    /// The run's job, or why none was made.
    async fn start_job(
        &self,
        automation: &Automation,
        body: &serde_json::Value,
        by: FiredBy,
        at: DateTime<Utc>,
    ) -> Result<Job, String> {
        match self.owner_active(&automation.owner).await {
            Ok(true) => {}
            Ok(false) => return Err("skipped: its owner's account is deactivated".into()),
            Err(err) => {
                tracing::error!(automation = automation.id.as_str(), %err, "reading its owner");
                return Err("the run could not start (an internal error)".into());
            }
        }
        let session = match (automation.session, &automation.session_id) {
            (SessionMode::Persistent, Some(session)) => {
                if self.last_run_going(automation).await {
                    return Err("skipped: the previous run is still going in the session".into());
                }
                Some(session.clone())
            }
            _ => None,
        };
        let prompt = render_off_workers(automation.prompt.clone(), body.clone(), by, at)
            .await
            .map_err(|err| format!("the prompt could not be made: {err}"))?;
        let new = NewJob {
            prompt,
            attachments: Vec::new(),
            title: Some(automation.name.clone()),
            network: automation.network.map(network_name),
            timeout_secs: automation.timeout_secs,
            webhook_url: None,
            model: automation.model.clone(),
            session,
        };
        let refused = |err| match err {
            AppError::Internal(err) => {
                tracing::error!(automation = automation.id.as_str(), %err, "making a run's job");
                "the run's job could not be made (an internal error)".to_owned()
            }
            AppError::RateLimited { reason, .. } => format!("skipped: queue full: {reason}"),
            other => format!("the run's job could not be made: {other}"),
        };
        // In the person's queue like any job of theirs: a full one refuses the run.
        let _turn = self.jobs.turn(&automation.owner).await.map_err(refused)?;
        let job = self
            .jobs
            .create(&automation.owner, automation.api_key.clone(), new)
            .await
            .map_err(refused)?;
        if automation.session == SessionMode::Persistent && automation.session_id.is_none() {
            self.keep_session(&automation.id, &job).await;
        }
        Ok(job)
    }

    /// Whether the newest run's job has not ended: the newest entry with a job, since
    /// skipped fires (no job) may have come after it.
    async fn last_run_going(&self, automation: &Automation) -> bool {
        let Ok(runs) = self.store.runs(&automation.id, LAST_JOB_LOOK_BACK).await else {
            return false;
        };
        let Some(job) = runs.into_iter().find_map(|run| run.job_id) else {
            return false;
        };
        self.jobs
            .get(&automation.owner, job.as_str())
            .await
            .is_ok_and(|job| !job.status.is_final())
    }

    /// Remembers the session a persistent automation's first run made.
    async fn keep_session(&self, id: &AutomationId, job: &Job) {
        let session = job.session_id.clone();
        let kept = self.update(id, |automation| automation.session_id = Some(session.clone()));
        if let Err(err) = kept.await {
            tracing::error!(automation = id.as_str(), %err, "keeping a persistent session");
        }
    }

    /// Follows the run's job to its end, then counts it (in a task of its own).
    fn watch(self: &Arc<Self>, automation: AutomationId, job: Job) {
        let service = self.clone();
        let watching = async move {
            loop {
                match service.jobs.get(&job.owner, job.id.as_str()).await {
                    Ok(now) if now.status.is_final() => {
                        service.count(&automation, now.status, now.error).await;
                        return;
                    }
                    Err(AppError::NotFound(_)) => return,
                    _ => tokio::time::sleep(WATCH_EVERY).await,
                }
            }
        };
        tokio::spawn(self.stopping.clone().run_until_cancelled_owned(watching));
    }

    /// Counts an ended run: a success clears the failures, a failure adds one, and the
    /// last one allowed disables the automation, saying why in its history.
    async fn count(&self, id: &AutomationId, status: JobStatus, error: Option<String>) {
        let max = self.settings.max_failures;
        let failed = status == JobStatus::Failed;
        let counted = self.update(id, |automation| {
            if !failed {
                automation.failures = 0;
                return;
            }
            automation.failures += 1;
            if automation.failures >= max && automation.enabled {
                automation.enabled = false;
                automation.next_fire = None;
                automation.paused_reason = Some(format!(
                    "paused after {max} failed runs in a row (the last: {})",
                    error.as_deref().unwrap_or("the run failed")
                ));
            }
        });
        let paused = match counted.await {
            Ok(Some(automation)) if failed && automation.failures == max => automation.paused_reason,
            Ok(_) => None,
            Err(err) => {
                tracing::error!(automation = id.as_str(), %err, "counting a run's end");
                None
            }
        };
        if let Some(why) = paused {
            let entry = AutomationRun {
                id: RunId::new(),
                automation: id.clone(),
                fired_by: FiredBy::Paused,
                trigger: None,
                fired_at: Utc::now(),
                job_id: None,
                note: Some(why),
            };
            if let Err(err) = self.store.put_run(&entry).await {
                tracing::error!(automation = id.as_str(), %err, "recording a pause");
            }
        }
    }
}

/// The prompt filled in on a blocking thread, since a template may run up to its fuel.
async fn render_off_workers(
    prompt: String,
    body: serde_json::Value,
    by: FiredBy,
    at: DateTime<Utc>,
) -> Result<String, String> {
    let rendering = tokio::task::spawn_blocking(move || {
        let trigger = serde_json::to_value(by).ok();
        let trigger = trigger.as_ref().and_then(|t| t.as_str()).unwrap_or("manual");
        let payload = Payload {
            fired_at: at,
            trigger,
            body: &body,
        };
        template::render(&prompt, &payload)
    });
    rendering
        .await
        .unwrap_or_else(|err| Err(format!("rendering stopped: {err}")))
}

/// A network as a job's request names it.
fn network_name(network: Network) -> String {
    match network {
        Network::Internet => "internet",
        Network::Offline => "offline",
    }
    .to_owned()
}
