//! A started job run: its files written and its prompt posted as a chat message, then its
//! session's events followed, the job moved with the session's status until it ends or
//! its time limit passes.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::Utc;
use futures::future::BoxFuture;
use futures::StreamExt;

use super::JobService;
use crate::application::error::{AppError, AppResult};
use crate::domain::event::AgentEvent;
use crate::domain::job::{Job, JobId, JobStatus};
use crate::domain::session::SessionStatus;

/// How long a follower waits before it reads its session's events again.
const RESUBSCRIBE_PAUSE: Duration = Duration::from_millis(500);

/// This replica follows a job while it lives.
struct Following<'a> {
    jobs: &'a Mutex<HashSet<JobId>>,
    id: JobId,
}

impl Drop for Following<'_> {
    fn drop(&mut self) {
        lock(self.jobs).remove(&self.id);
    }
}

/// The jobs this replica follows, locked (a panic while it was held leaves it usable).
pub(super) fn lock(jobs: &Mutex<HashSet<JobId>>) -> std::sync::MutexGuard<'_, HashSet<JobId>> {
    jobs.lock().unwrap_or_else(|p| p.into_inner())
}

impl JobService {
    /// Runs a started job to its end: posts its prompt (unless `resumed` and posted
    /// already), follows its session, then lets the next queued job start. Boxed: the
    /// run starts queued jobs, whose runs start queued jobs, so its future names itself.
    pub(super) fn run(self: Arc<Self>, job: Job, resumed: bool) -> BoxFuture<'static, ()> {
        Box::pin(async move {
            if !lock(&self.following).insert(job.id.clone()) {
                return;
            }
            let _following = Following {
                jobs: &self.following,
                id: job.id.clone(),
            };
            let outcome = tokio::select! {
                outcome = self.drive(&job, resumed) => outcome,
                () = self.stopping.cancelled() => return,
            };
            if let Err(err) = outcome {
                tracing::error!(job = job.id.as_str(), %err, "a job's run failed");
                let message = match err {
                    AppError::Internal(_) => "the job could not be run (an internal error)".to_owned(),
                    other => other.to_string(),
                };
                if let Err(err) = self.change(&job.id, JobStatus::Failed, Some(message)).await {
                    tracing::error!(job = job.id.as_str(), %err, "marking a job failed");
                }
            }
            self.start_queued(&job.owner).await;
        })
    }

    async fn drive(&self, job: &Job, resumed: bool) -> AppResult<()> {
        let session = self.sessions.get(&job.owner, job.session_id.as_str()).await?;
        // A job whose prompt is in its log takes the session's status (a run the restart
        // interrupted has failed, saying so in its last error) and follows from there.
        if resumed && session.last_seq > job.continues_after {
            if let Some(to) = JobStatus::of_session(session.status) {
                let mut error = None;
                if session.status == SessionStatus::Failed {
                    self.scan(job, |event| {
                        if let AgentEvent::Error { message } = event {
                            error = Some(message.clone());
                        }
                    })
                    .await?;
                }
                let reason = (session.status == SessionStatus::Failed).then(|| failure(error));
                if self.change(&job.id, to, reason).await?.0.status.is_final() {
                    return Ok(());
                }
            }
            return self.follow(job, session.last_seq).await;
        }
        if !job.attachments_written {
            self.write_attachments(job).await?;
        }
        let prompt = self
            .agent
            .post_message(
                &job.owner,
                job.session_id.as_str(),
                &job.prompt,
                &job.attachment_paths(),
            )
            .await?;
        self.follow(job, prompt.seq - 1).await
    }

    /// Moves the job with its session's statuses after `after` until the job has ended,
    /// or fails it and stops its run when its time is up.
    async fn follow(&self, job: &Job, after: u64) -> AppResult<()> {
        let deadline = job
            .deadline()
            .map(|at| (at - Utc::now()).to_std().unwrap_or_default())
            .unwrap_or_default();
        let follow = async {
            let mut last = after;
            let mut error = None;
            // The stream ends when it falls behind; the next one resumes from `last`.
            loop {
                let mut events = Box::pin(self.events.stream(job.session_id.clone(), last));
                while let Some(stored) = events.next().await {
                    last = stored.seq;
                    let status = match stored.event {
                        AgentEvent::Error { message } => {
                            error = Some(message);
                            continue;
                        }
                        AgentEvent::Status { status } => status,
                        _ => continue,
                    };
                    let Some(to) = JobStatus::of_session(status) else {
                        continue;
                    };
                    let reason = (status == SessionStatus::Failed).then(|| failure(error.take()));
                    let (now, _) = self.change(&job.id, to, reason).await?;
                    if now.status.is_final() {
                        return Ok(());
                    }
                }
                // Not at once: a stream that ended on a store error would end again.
                tokio::time::sleep(RESUBSCRIBE_PAUSE).await;
            }
        };
        match tokio::time::timeout(deadline, follow).await {
            Ok(outcome) => outcome,
            Err(_) => {
                // The run stops first, so whoever sees the job failed (a poll, the
                // webhook) finds its session stopped too. Stopping a run that has just
                // ended is a no-op, and `change` keeps a job that has ended meanwhile.
                self.agent.stop(&job.owner, job.session_id.as_str()).await?;
                let message = format!("the job ran longer than its timeout of {} s", job.timeout.secs());
                self.change(&job.id, JobStatus::Failed, Some(message)).await?;
                Ok(())
            }
        }
    }
}

/// Why a job failed: the run's last error, if it gave one.
fn failure(error: Option<String>) -> String {
    error.unwrap_or_else(|| "the run failed".into())
}
