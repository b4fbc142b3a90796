//! Jobs followed again: after a restart, the jobs that were going and the queued ones;
//! with several replicas, every replica follows every job, so one dying ends nothing early
//! or never.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;

use super::run::lock;
use super::JobService;
use crate::application::error::AppResult;
use crate::domain::job::{Job, JobStatus};
use crate::domain::user::UserId;

/// How long other replicas leave a job just started to its starter before following it
/// while its prompt is not in its session (a starter that died before posting it).
const STARTER_GRACE: Duration = Duration::from_secs(10);

impl JobService {
    /// After a restart: follows the jobs that were going again (a run the restart
    /// interrupted fails with its session) and starts the queued ones.
    pub async fn resume(self: &Arc<Self>) -> AppResult<usize> {
        let moved = self.move_inline_attachments().await?;
        if moved > 0 {
            tracing::info!(moved, "queued jobs' attachments moved out of their records");
        }
        let resumed = self.adopt(false).await?;
        let owners: BTreeSet<UserId> = self
            .jobs
            .with_status(JobStatus::Queued)
            .await?
            .into_iter()
            .map(|job| job.owner)
            .collect();
        for owner in owners {
            self.start_queued(&owner).await;
        }
        Ok(resumed)
    }

    /// Follows the jobs that are going and that this replica does not follow yet. With
    /// several replicas every one follows every job (a status moves once: each move is
    /// compare-and-set), so a job whose replica died still ends with its session. With
    /// `leave_starters_a_moment`, a running job whose prompt is not in its session yet is
    /// left to the replica that has just started it for [`STARTER_GRACE`]: adopted then,
    /// its prompt would be posted twice, and its run could start here instead, outliving
    /// the starter.
    pub async fn adopt(self: &Arc<Self>, leave_starters_a_moment: bool) -> AppResult<usize> {
        let mut adopted = 0;
        for status in [JobStatus::Running, JobStatus::Waiting] {
            for job in self.jobs.with_status(status).await? {
                if lock(&self.following).contains(&job.id) {
                    continue;
                }
                if leave_starters_a_moment && status == JobStatus::Running && self.just_started(&job).await {
                    continue;
                }
                tokio::spawn(self.clone().run(job, true));
                adopted += 1;
            }
        }
        Ok(adopted)
    }

    /// Whether the job started less than [`STARTER_GRACE`] ago and its prompt is not in
    /// its session yet.
    async fn just_started(&self, job: &Job) -> bool {
        let recent = job.started_at.is_some_and(|at| {
            Utc::now() - at < chrono::Duration::from_std(STARTER_GRACE).unwrap_or_default()
        });
        if !recent {
            return false;
        }
        // A session that cannot be read is the job's own run's to report, not a reason
        // to hold back every other job's adoption.
        let session = self.sessions.get(&job.owner, job.session_id.as_str()).await;
        session.is_ok_and(|session| session.last_seq == job.continues_after)
    }

    /// Adopts the jobs other replicas started, every `every`, until shutdown.
    pub fn keep_adopting(self: &Arc<Self>, every: Duration) {
        let jobs = self.clone();
        let adopting = async move {
            loop {
                tokio::time::sleep(every).await;
                if let Err(err) = jobs.adopt(true).await {
                    tracing::warn!(%err, "following the jobs other replicas started");
                }
            }
        };
        tokio::spawn(self.stopping.clone().run_until_cancelled_owned(adopting));
    }
}
