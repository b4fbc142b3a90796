//! Firing an automation: its prompt filled in from the fire's payload, run as a job in
//! a fresh session or in its persistent one (a persistent automation whose last run is
//! still going skips the fire, since one session holds one run), and the fire recorded in
//! its history. Failures in a row are counted — a run's job that failed (told by the
//! job service when it ends, on whichever replica ends it: [`JobEnds`]), and a fire that
//! could make no job through the automation's own fault — and the last one allowed
//! ([`super::AutomationSettings::max_failures`]) disables the automation.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::files;
use super::template::{self, Payload};
use super::AutomationService;
use crate::application::error::{AppError, AppResult};
use crate::application::jobs::{JobEnds, NewJob};
use crate::domain::automation::{Automation, AutomationRun, FiredBy, SessionMode, HISTORY_KEPT};
use crate::domain::ids::{AutomationId, RunId, TriggerId};
use crate::domain::job::{Job, JobStatus};

/// The history entries looked through for a persistent automation's last job.
const LAST_JOB_LOOK_BACK: usize = 100;

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
    pub fn new(by: FiredBy, trigger: Option<TriggerId>, at: DateTime<Utc>) -> Self {
        Self {
            run: RunId::new(),
            by,
            trigger,
            at,
            body: serde_json::Value::Null,
            note: None,
        }
    }

    /// Its entry in `automation`'s history, with no job (yet).
    pub fn entry(&self, automation: &AutomationId) -> AutomationRun {
        AutomationRun {
            id: self.run.clone(),
            automation: automation.clone(),
            fired_by: self.by,
            trigger: self.trigger.clone(),
            fired_at: self.at,
            job_id: None,
            note: self.note.clone(),
        }
    }
}

/// Why a fire made no job, and whether that was the automation's fault (a prompt that
/// cannot be filled in, a model no longer offered…), which counts as a failed run.
struct NotRun {
    note: String,
    failure: bool,
}

impl NotRun {
    fn skipped(why: &str) -> Self {
        Self {
            note: format!("skipped: {why}"),
            failure: false,
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
        let mut run = fire.entry(&automation.id);
        match self.start_job(automation, &fire).await {
            Ok(job) => {
                run.job_id = Some(job.id.clone());
                // The job runs whatever the history says: a started run is answered as
                // started, so no sender sends it again.
                if let Err(err) = self.record(&run).await {
                    tracing::error!(automation = automation.id.as_str(), %err, "recording a run");
                }
            }
            Err(not_run) => {
                run.note = Some(not_run.note.clone());
                self.record(&run).await?;
                if not_run.failure {
                    self.count(&automation.id, true, Some(not_run.note)).await;
                }
            }
        }
        Ok(run)
    }

    /// Puts `entry` in its automation's history, which keeps its newest [`HISTORY_KEPT`].
    /// Trimming is best-effort: the entry stands, and a run that started is not made to
    /// look failed (a webhook's sender would send it again).
    pub(super) async fn record(&self, entry: &AutomationRun) -> AppResult<()> {
        self.store.put_run(entry).await?;
        if let Err(err) = self.store.trim_runs(&entry.automation, HISTORY_KEPT).await {
            tracing::warn!(automation = entry.automation.as_str(), %err, "trimming the history");
        }
        Ok(())
    }

    /// The run's job, or why none was made.
    async fn start_job(&self, automation: &Automation, fire: &Fire) -> Result<Job, NotRun> {
        let internal = |err: &dyn std::fmt::Display, doing: &str| {
            tracing::error!(automation = automation.id.as_str(), %err, "{doing}");
            NotRun {
                note: "the run could not start (an internal error)".into(),
                failure: false,
            }
        };
        match self.owner_active(&automation.owner).await {
            Ok(true) => {}
            Ok(false) => return Err(NotRun::skipped("its owner's account is deactivated")),
            Err(err) => return Err(internal(&err, "reading its owner")),
        }
        let mut session = match (automation.session, &automation.session_id) {
            (SessionMode::Persistent, Some(session)) => {
                if self.last_run_going(automation).await {
                    return Err(NotRun::skipped("the previous run is still going in the session"));
                }
                Some(session.clone())
            }
            _ => None,
        };
        let attachments = match files::for_run(&*self.store, automation).await {
            Ok(attachments) => attachments,
            Err(AppError::Conflict(why)) => {
                return Err(NotRun {
                    note: format!("the run could not start: {why}"),
                    failure: true,
                })
            }
            Err(err) => return Err(internal(&err, "reading its files")),
        };
        let prompt = render_off_workers(automation.prompt.clone(), fire.body.clone(), fire.by, fire.at)
            .await
            .map_err(|err| NotRun {
                note: format!("the prompt could not be made: {err}"),
                failure: true,
            })?;
        // In the person's queue like any job of theirs: a full one refuses the run.
        let _turn = match self.jobs.turn(&automation.owner).await {
            Ok(turn) => turn,
            Err(AppError::RateLimited { reason, .. } | AppError::Busy { reason, .. }) => {
                return Err(NotRun::skipped(&format!("queue full: {reason}")))
            }
            Err(err) => return Err(internal(&err, "taking a turn in the queue")),
        };
        let job = loop {
            let new = NewJob {
                prompt: prompt.clone(),
                attachments: attachments.clone(),
                title: Some(automation.name.clone()),
                network: automation.network.map(|network| network.as_str().to_owned()),
                timeout_secs: automation.timeout_secs,
                webhook_url: automation
                    .webhook
                    .as_ref()
                    .map(|hook| hook.url.as_str().to_owned()),
                webhook_secret: automation.webhook.as_ref().map(|hook| hook.secret.clone()),
                model: automation.model.clone(),
                session: session.clone(),
                automation: Some(automation.id.clone()),
            };
            match self
                .jobs
                .create(&automation.owner, automation.api_key.clone(), new)
                .await
            {
                Ok(job) => break job,
                // The person deleted the session the runs continued: this run starts a
                // new one, which the next runs continue.
                Err(AppError::NotFound("session")) if session.is_some() => session = None,
                Err(AppError::Internal(err)) => return Err(internal(&err, "making a run's job")),
                // What the automation asks for that no job may have: its fault.
                Err(
                    err @ (AppError::Invalid(_)
                    | AppError::InvalidField { .. }
                    | AppError::NotFound(_)
                    | AppError::TooLarge(_)),
                ) => {
                    return Err(NotRun {
                        note: format!("the run's job could not be made: {err}"),
                        failure: true,
                    })
                }
                // A store or the server busy or away: not the automation's fault.
                Err(err) => {
                    return Err(NotRun {
                        note: format!("the run could not start: {err}"),
                        failure: false,
                    })
                }
            }
        };
        if automation.session == SessionMode::Persistent && session.is_none() {
            self.keep_session(automation, &job).await;
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

    /// Remembers the session a persistent automation's run made.
    /// Not when it was edited meanwhile to another model or network (which the session,
    /// made with the ones fired, does not have): the next run makes a new session then.
    async fn keep_session(&self, fired: &Automation, job: &Job) {
        let (id, session) = (&fired.id, job.session_id.clone());
        let kept = self.update(id, |now| {
            if now.session_id.is_none() && now.model == fired.model && now.network == fired.network {
                now.session_id = Some(session.clone());
            }
        });
        if let Err(err) = kept.await {
            tracing::error!(automation = id.as_str(), %err, "keeping a persistent session");
        }
    }

    /// Counts an ended run: a success clears the failures, a failure adds one, and the
    /// last one allowed disables the automation, saying why in its history.
    async fn count(&self, id: &AutomationId, failed: bool, error: Option<String>) {
        let max = self.settings.max_failures;
        let counted = self.update(id, |automation| {
            if !failed {
                automation.failures = 0;
                return;
            }
            automation.failures += 1;
            if automation.failures >= max && automation.enabled {
                let why = format!(
                    "paused after {max} failed runs in a row (the last: {})",
                    error.as_deref().unwrap_or("the run failed")
                );
                automation.pause(why);
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
            self.record_pause(id, why).await;
        }
    }
}

#[async_trait::async_trait]
impl JobEnds for AutomationService {
    /// A run's job ended: counted for its automation, once, wherever it ended.
    async fn ended(&self, job: &Job) {
        if let Some(automation) = &job.automation {
            let failed = job.status == JobStatus::Failed;
            self.count(automation, failed, job.error.clone()).await;
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
