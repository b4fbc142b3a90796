//! A job's files on their way to its workspace: stored apart from the job when it is
//! made (the record keeps names and sizes, see [`crate::domain::job_attachment`]),
//! written to `uploads/` when it starts, and removed from the store once written or once
//! the job ends without starting. So listing jobs, scanning the queue and a restart read
//! small records only, and what queued jobs hold in the store is capped in bytes.

use futures::StreamExt;

use super::create::QUEUE_FULL_RETRY_SECS;
use super::JobService;
use crate::application::error::{AppError, AppResult};
use crate::domain::job::{Job, JobId, JobStatus};
use crate::domain::job_attachment::JobFile;

impl JobService {
    /// `RateLimited` when the files of the queued jobs and `adding` bytes more would pass
    /// the deployment's cap (before anything of the new job is made). Two creations at
    /// once may both find the last room.
    pub(super) async fn check_queued_bytes(&self, adding: u64) -> AppResult<()> {
        if adding == 0 {
            return Ok(());
        }
        let max = self.settings.max_queued_attachment_bytes;
        let queued: u64 = self
            .jobs
            .with_status(JobStatus::Queued)
            .await?
            .iter()
            .filter(|job| !job.attachments_written)
            .map(Job::attachment_bytes)
            .sum();
        if queued.saturating_add(adding) > max {
            return Err(AppError::RateLimited {
                reason: format!(
                    "queued jobs hold {} MiB of attachments, the most this server keeps is {} MiB; \
                     try again once some have started",
                    queued / (1024 * 1024),
                    max / (1024 * 1024)
                ),
                retry_after_secs: QUEUE_FULL_RETRY_SECS,
            });
        }
        Ok(())
    }

    /// Stores the files of the job `job` being made, one at a time. On a failure, what
    /// was stored is removed again.
    pub(super) async fn store_attachments(&self, job: &JobId, files: Vec<JobFile>) -> AppResult<()> {
        for file in files {
            // An empty file needs no room: its size in the record says it all.
            if file.content.is_empty() {
                continue;
            }
            if let Err(err) = self.attachments.put(job, &file.name, file.content).await {
                self.forget_attachments(job).await;
                return Err(err.into());
            }
        }
        Ok(())
    }

    /// Writes the started job's files to its workspace, one at a time, marks them written
    /// and removes them from the store. A restart in between writes them again (the same
    /// files, replaced).
    pub(super) async fn write_attachments(&self, job: &Job) -> AppResult<()> {
        for file in &job.attachments {
            let stored = match file.size {
                0 => Some(Vec::new()),
                _ => self.attachments.get(&job.id, &file.name).await?,
            };
            let content = match stored {
                Some(content) => content,
                None => {
                    return Err(AppError::Conflict(format!(
                        "the attachment {} is no longer stored (was the job cancelled?)",
                        file.name.as_str()
                    )))
                }
            };
            let content = bytes::Bytes::from(content);
            let length = content.len() as u64;
            let body = futures::stream::once(async move { Ok(content) }).boxed();
            self.files
                .attach(
                    &job.owner,
                    job.session_id.as_str(),
                    file.name.as_str(),
                    Some(length),
                    body,
                )
                .await?;
        }
        let mut written = job.clone();
        written.attachments_written = true;
        // Only a job still running is rewritten: one cancelled meanwhile keeps its record
        // as the cancel left it (and its files are gone with the cancel).
        self.jobs.update_from(&written, JobStatus::Running).await?;
        self.forget_attachments(&job.id).await;
        Ok(())
    }

    /// Removes the job's files from the store. A failure is logged: the job goes on, and
    /// what is left is removed when the job ends.
    pub(super) async fn forget_attachments(&self, job: &JobId) {
        if let Err(err) = self.attachments.delete(job).await {
            tracing::error!(job = job.as_str(), %err, "removing a job's stored attachments");
        }
    }

    /// Moves the files that queued jobs of an earlier release keep in their records to
    /// the store, so those jobs start with them (once, at start-up); how many jobs moved.
    pub(super) async fn move_inline_attachments(&self) -> AppResult<usize> {
        let mut moved = 0;
        for mut job in self.jobs.with_status(JobStatus::Queued).await? {
            if job.attachments.iter().all(|file| file.inline_content.is_empty()) {
                continue;
            }
            for file in &mut job.attachments {
                let content = std::mem::take(&mut file.inline_content);
                file.size = content.len() as u64;
                if !content.is_empty() {
                    self.attachments.put(&job.id, &file.name, content).await?;
                }
            }
            // Serialised without the contents; a job started meanwhile keeps its record.
            moved += usize::from(self.jobs.update_from(&job, JobStatus::Queued).await?);
        }
        Ok(moved)
    }
}
