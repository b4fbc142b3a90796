//! A job made: a turn taken before its body is read, the request checked, its session
//! made (or the owner's continued), its files stored and the job queued.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;

use super::{JobService, NewJob};
use crate::application::error::{AppError, AppResult};
use crate::application::sessions::{check_message, MAX_ATTACHMENTS};
use crate::application::turns::TurnSettings;
use crate::domain::api_key::ApiKeyId;
use crate::domain::job::{Job, JobRequest, JobStatus, JobTimeout, Webhook, WebhookUrl};
use crate::domain::job_attachment::JobFile;
use crate::domain::session::{preview, Network};
use crate::domain::user::UserId;

/// Job creations made at once (each holds its body and attachments until stored), those
/// that wait for a turn, and how long they wait.
pub(super) const CREATIONS: TurnSettings = TurnSettings {
    at_once: 2,
    queue: 256,
    wait: Duration::from_secs(10),
};

/// What a person told to wait for room in their queue is told to wait: about a job's
/// start, since one of theirs must end first.
pub(super) const QUEUE_FULL_RETRY_SECS: u64 = 30;

impl JobService {
    /// A turn to make a job for `owner`, taken before its body is read and held until it
    /// is stored: `Busy` when too many creations wait, `RateLimited` when the person's
    /// queue is full (both before the body is read, so a refused one costs no memory).
    /// Two of one person's creations at once may both find the last place free.
    pub async fn turn(&self, owner: &UserId) -> AppResult<tokio::sync::SemaphorePermit<'_>> {
        let turn = self.creations.take().await?;
        let max = self.settings.max_queued_per_person;
        if self.jobs.count_for(owner, JobStatus::Queued, max).await? >= max {
            return Err(AppError::RateLimited {
                reason: format!("your job queue is full ({max} queued); wait for one to start"),
                retry_after_secs: QUEUE_FULL_RETRY_SECS,
            });
        }
        Ok(turn)
    }

    /// Checks the request, creates the job's session and queues the job, which starts at
    /// once when the person has room. `api_key`: the key the request came with.
    pub async fn create(
        self: &Arc<Self>,
        owner: &UserId,
        api_key: Option<ApiKeyId>,
        new: NewJob,
    ) -> AppResult<Job> {
        let files = JobFile::parse_all(
            new.attachments
                .into_iter()
                .map(|file| (file.name, file.content_base64)),
            MAX_ATTACHMENTS,
            self.settings.max_attachment_bytes,
        )?;
        check_message(&new.prompt, &[])?;
        self.check_queued_bytes(files.iter().map(|file| file.content.len() as u64).sum())
            .await?;
        // A name not offered is an error the client can act on, never silently another model.
        self.sessions.models().pick(new.model.as_deref())?;
        let network = new.network.as_deref().map(Network::parse).transpose()?;
        // The default never exceeds the maximum, also when the operator lowered only that.
        let default = self
            .settings
            .default_timeout_secs
            .min(self.settings.max_timeout_secs);
        let timeout = JobTimeout::parse(
            new.timeout_secs.unwrap_or(default),
            self.settings.max_timeout_secs,
        )?;
        let webhook = match new.webhook_url.as_deref() {
            Some(raw) => {
                let url = WebhookUrl::parse(raw)?;
                self.check_webhook(&url).await?;
                Some(match new.webhook_secret {
                    Some(secret) => Webhook { url, secret },
                    None => Webhook::new(url),
                })
            }
            None => None,
        };
        let session = match &new.session {
            Some(id) => self.sessions.get(owner, id.as_str()).await?,
            None => {
                let title = new.title.unwrap_or_else(|| preview(&new.prompt));
                self.sessions
                    .create(owner, Some(&title), new.model.as_deref(), network)
                    .await?
            }
        };
        let session = self.sessions.hand_to_job(session).await?;
        let request = JobRequest {
            prompt: new.prompt,
            attachments: files.iter().map(JobFile::attachment).collect(),
            network,
            timeout,
            webhook,
            api_key,
            automation: new.automation,
        };
        let mut job = Job::new(owner.clone(), session.id, request, Utc::now());
        job.continues_after = session.last_seq;
        self.store_attachments(&job.id, files).await?;
        if let Err(err) = self.jobs.insert(&job).await {
            self.forget_attachments(&job.id).await;
            return Err(err.into());
        }
        self.start_queued(owner).await;
        Ok(self.jobs.get(&job.id).await?.unwrap_or(job))
    }

    /// `InvalidField` naming `webhook_url` when its host is one the backend may not call.
    pub async fn check_webhook(&self, url: &WebhookUrl) -> AppResult<()> {
        Ok(self.webhooks.check(url).await?)
    }

    /// The decoded size a job's attachments may have together.
    pub fn max_attachment_bytes(&self) -> u64 {
        self.settings.max_attachment_bytes
    }
}
