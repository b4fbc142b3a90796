//! The ports of headless jobs: their records, the files sent with them, and their
//! webhooks.

use crate::domain::error::DomainResult;
use crate::domain::files::FileName;
use crate::domain::job::{Job, JobId, JobStatus, WebhookUrl};
use crate::domain::user::UserId;

/// Headless jobs ([`Job`]).
#[async_trait::async_trait]
pub trait JobRepository: Send + Sync {
    async fn insert(&self, job: &Job) -> DomainResult<()>;
    async fn get(&self, id: &JobId) -> DomainResult<Option<Job>>;
    /// Stores `job` only if the stored one is still in status `from`; whether it did. So
    /// two writers (a cancel and the end of the run, or two replicas) cannot both move a
    /// job on from the same status.
    async fn update_from(&self, job: &Job, from: JobStatus) -> DomainResult<bool>;
    /// The owner's jobs, newest first, in `status` when given, after `before`
    /// (exclusive) when given.
    async fn list_for(
        &self,
        owner: &UserId,
        status: Option<JobStatus>,
        before: Option<&JobId>,
        limit: usize,
    ) -> DomainResult<Vec<Job>>;
    /// How many of the owner's jobs are in `status`, counting up to `at_most`.
    async fn count_for(&self, owner: &UserId, status: JobStatus, at_most: usize) -> DomainResult<usize>;
    /// Every job in this status, oldest first (the queue; recovery after a restart).
    async fn with_status(&self, status: JobStatus) -> DomainResult<Vec<Job>>;
}

/// The contents of the files sent with jobs that have not started yet, kept apart from
/// the job records (see [`crate::domain::job_attachment`]).
#[async_trait::async_trait]
pub trait JobAttachmentStore: Send + Sync {
    /// Stores one file of a job; a second put of the same name replaces it.
    async fn put(&self, job: &JobId, name: &FileName, content: Vec<u8>) -> DomainResult<()>;
    /// The file's content; `None` when it is not stored (or no longer).
    async fn get(&self, job: &JobId, name: &FileName) -> DomainResult<Option<Vec<u8>>>;
    /// Removes every file of the job (none stored is no error).
    async fn delete(&self, job: &JobId) -> DomainResult<()>;
}

/// Calls jobs' webhooks.
#[async_trait::async_trait]
pub trait WebhookSender: Send + Sync {
    /// `Invalid` (naming `webhook_url`) when the URL's host is an address the backend
    /// may not call (private, loopback, link-local…, unless the operator allows them).
    async fn check(&self, url: &WebhookUrl) -> DomainResult<()>;
    /// POSTs `body` (JSON) with `X-Sandpiper-Signature: <signature>`, checking the
    /// address again; `Unavailable` when the receiver does not answer with a 2xx.
    async fn post(&self, url: &WebhookUrl, body: &[u8], signature: &str) -> DomainResult<()>;
}
