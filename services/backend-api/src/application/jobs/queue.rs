//! A person's queue: their queued jobs started, oldest first, while fewer than their limit
//! run or wait, the queue taken in the shared key-value store meanwhile so replicas look
//! at it one at a time.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;

use super::JobService;
use crate::application::error::AppResult;
use crate::domain::job::JobStatus;
use crate::domain::user::UserId;

/// How long a person's queue stays taken should its taker die; and how long another
/// waits for it before going on regardless, and between looks.
const QUEUE_HOLD: Duration = Duration::from_secs(10);
const QUEUE_WAIT: Duration = Duration::from_secs(5);
const QUEUE_POLL: Duration = Duration::from_millis(20);

impl JobService {
    /// Starts the owner's queued jobs, oldest first, while they have room. A failure is
    /// logged: the queue is looked at again whenever one of their jobs ends.
    pub(super) async fn start_queued(self: &Arc<Self>, owner: &UserId) {
        if let Err(err) = self.try_start_queued(owner).await {
            tracing::error!(owner = owner.as_str(), %err, "starting queued jobs");
        }
    }

    async fn try_start_queued(self: &Arc<Self>, owner: &UserId) -> AppResult<()> {
        let turn = self.queue_turn(owner).await?;
        let started = self.start_from_queue(owner).await;
        self.kv.take(&turn).await?;
        started
    }

    /// Takes the person's queue, so two jobs ending at once (on any replicas) do not both
    /// start the same queued one or overrun the limit. The key expires should its taker
    /// die; a queue taken for longer than [`QUEUE_WAIT`] is looked at regardless.
    async fn queue_turn(&self, owner: &UserId) -> AppResult<String> {
        let key = format!("job-queue:{}", owner.as_str());
        let deadline = tokio::time::Instant::now() + QUEUE_WAIT;
        while self.kv.add(&key, 1, QUEUE_HOLD).await? != 1 {
            if tokio::time::Instant::now() >= deadline {
                tracing::warn!(
                    owner = owner.as_str(),
                    "a person's job queue stayed taken; going on"
                );
                break;
            }
            tokio::time::sleep(QUEUE_POLL).await;
        }
        Ok(key)
    }

    async fn start_from_queue(self: &Arc<Self>, owner: &UserId) -> AppResult<()> {
        let limit = self.settings.max_running_per_person;
        let mut going = 0;
        for status in [JobStatus::Running, JobStatus::Waiting] {
            going += self.jobs.count_for(owner, status, limit).await?;
        }
        if going >= limit {
            // No room: the queue (every queued job with its attachments) stays unread.
            return Ok(());
        }
        let queued = self.jobs.with_status(JobStatus::Queued).await?;
        for mut job in queued.into_iter().filter(|job| &job.owner == owner) {
            if going >= limit {
                break;
            }
            job.move_to(JobStatus::Running, None, Utc::now());
            if self.jobs.update_from(&job, JobStatus::Queued).await? {
                going += 1;
                tokio::spawn(self.clone().run(job, false));
            }
        }
        Ok(())
    }
}
