//! A job as its owner reads it: one, with its report (its answer, usage and files), or a
//! page of them; and the events of a job's run read from its session's log.

use super::outcome::EventsSeen;
use super::{JobReport, JobService};
use crate::application::error::{AppError, AppResult};
use crate::domain::event::AgentEvent;
use crate::domain::job::{Job, JobId, JobOutcome, JobStatus};
use crate::domain::user::UserId;

/// Events read from the log per query when a job's report is made.
const REPORT_BATCH: usize = 1000;

/// Files an ended job lists at most.
const MAX_LISTED_FILES: u32 = 1000;

impl JobService {
    /// The caller's job, or `NotFound`.
    pub async fn get(&self, owner: &UserId, id: &str) -> AppResult<Job> {
        let id = JobId::parse(id)?;
        match self.jobs.get(&id).await? {
            Some(job) if &job.owner == owner => Ok(job),
            _ => Err(AppError::NotFound("job")),
        }
    }

    /// The caller's job with its answer, usage and written files.
    pub async fn report(&self, owner: &UserId, id: &str) -> AppResult<JobReport> {
        self.report_of(self.get(owner, id).await?).await
    }

    pub(super) async fn report_of(&self, job: Job) -> AppResult<JobReport> {
        let session = self.sessions.get(&job.owner, job.session_id.as_str()).await?;
        let outcome = match &job.outcome {
            Some(outcome) => outcome.clone(),
            None => self.seen(&job).await?.outcome(),
        };
        Ok(JobReport {
            job,
            outcome,
            usage: session.usage,
        })
    }

    async fn seen(&self, job: &Job) -> AppResult<EventsSeen> {
        let mut seen = EventsSeen::default();
        self.scan(job, |event| seen.see(event)).await?;
        Ok(seen)
    }

    /// What the ending job made, its workspace listed (when its run used one). A listing
    /// that fails is logged and leaves the files the events tell.
    pub(super) async fn outcome_of(&self, job: &Job) -> AppResult<JobOutcome> {
        let seen = self.seen(job).await?;
        let Some(started) = job.started_at.filter(|_| seen.used_sandbox) else {
            return Ok(seen.outcome());
        };
        let changed = self
            .files
            .changed_since(&job.owner, job.session_id.as_str(), started, MAX_LISTED_FILES)
            .await;
        Ok(match changed {
            Ok(changed) => seen.outcome_with(changed, &job.attachment_paths()),
            Err(err) => {
                tracing::warn!(job = job.id.as_str(), %err, "listing an ended job's files");
                seen.outcome()
            }
        })
    }

    /// Shows `see` every event of the job's run in its session's log, in order: those
    /// after [`Job::continues_after`], so a run in a session others ran in before (a
    /// persistent automation's) reports only what it did.
    pub(super) async fn scan(&self, job: &Job, mut see: impl FnMut(&AgentEvent)) -> AppResult<()> {
        let mut after = job.continues_after;
        loop {
            let batch = self.events.page(&job.session_id, after, REPORT_BATCH).await?;
            for stored in &batch {
                see(&stored.event);
            }
            match batch.last() {
                Some(last) if batch.len() == REPORT_BATCH => after = last.seq,
                _ => return Ok(()),
            }
        }
    }

    /// The caller's jobs, newest first, in `status` when given; `before` is the last id
    /// of the previous page.
    pub async fn list(
        &self,
        owner: &UserId,
        status: Option<&str>,
        before: Option<&str>,
        limit: usize,
    ) -> AppResult<Vec<Job>> {
        let status = status.map(JobStatus::parse).transpose()?;
        let before = before
            .map(|raw| JobId::parse(raw).map_err(|_| AppError::Invalid("before is not a job id".into())))
            .transpose()?;
        Ok(self
            .jobs
            .list_for(owner, status, before.as_ref(), limit.clamp(1, 100))
            .await?)
    }
}
