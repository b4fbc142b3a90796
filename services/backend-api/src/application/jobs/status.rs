//! A job's status moved: compare-and-set in the store, so a cancel and the end of the run
//! cannot both win, with what an end sets off (its outcome kept, its key charged, its
//! listener and webhook told); and the owner's moves, cancel and reply.

use std::sync::Arc;

use chrono::Utc;

use super::JobService;
use crate::application::error::{AppError, AppResult};
use crate::domain::event::StoredEvent;
use crate::domain::job::{Job, JobId, JobStatus};
use crate::domain::user::UserId;

/// Times a status change is tried again when another writer changed the job in between.
const STATUS_ROUNDS: usize = 5;

impl JobService {
    /// Cancels a job that has not ended: a queued one never starts, a running one's run
    /// is stopped before this answers.
    pub async fn cancel(self: &Arc<Self>, owner: &UserId, id: &str) -> AppResult<Job> {
        let job = self.get(owner, id).await?;
        let (cancelled, was) = self.change(&job.id, JobStatus::Cancelled, None).await?;
        let Some(was) = was else {
            return Err(AppError::Conflict(format!(
                "the job has ended already ({})",
                cancelled.status.as_str()
            )));
        };
        if was != JobStatus::Queued {
            self.agent.stop(owner, job.session_id.as_str()).await?;
            self.start_queued(owner).await;
        }
        Ok(cancelled)
    }

    /// Answers the question a waiting job asked; `Conflict` when it is not waiting.
    pub async fn reply(&self, owner: &UserId, id: &str, content: &str) -> AppResult<StoredEvent> {
        let job = self.get(owner, id).await?;
        if job.status != JobStatus::Waiting {
            return Err(AppError::Conflict(format!(
                "the job is not waiting for an answer ({})",
                job.status.as_str()
            )));
        }
        self.agent
            .post_message(owner, job.session_id.as_str(), content, &[])
            .await
    }

    /// Moves the job to `to` unless it has ended (or is there already); the job as it is
    /// afterwards, and the status it was moved from (`None`: not moved).
    pub(super) async fn change(
        &self,
        id: &JobId,
        to: JobStatus,
        error: Option<String>,
    ) -> AppResult<(Job, Option<JobStatus>)> {
        let mut outcome = None;
        for _ in 0..STATUS_ROUNDS {
            let mut job = self.jobs.get(id).await?.ok_or(AppError::NotFound("job"))?;
            let from = job.status;
            if from.is_final() || from == to {
                return Ok((job, None));
            }
            if to.is_final() && outcome.is_none() {
                outcome = Some(self.outcome_of(&job).await?);
            }
            job.move_to(to, error.clone(), Utc::now());
            job.outcome.clone_from(&outcome);
            if self.jobs.update_from(&job, from).await? {
                if to.is_final() {
                    if !job.attachments_written {
                        self.forget_attachments(&job.id).await;
                    }
                    self.charge(&job).await;
                    self.tell_ended(&job).await;
                }
                if to == JobStatus::Waiting || to.is_final() {
                    self.notify(&job).await;
                }
                return Ok((job, Some(from)));
            }
        }
        Err(AppError::Internal(anyhow::anyhow!(
            "job {} kept changing under {STATUS_ROUNDS} attempts to update it",
            id.as_str()
        )))
    }
}
