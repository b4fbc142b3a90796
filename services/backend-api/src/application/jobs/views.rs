//! A job as clients see it: its status and settings ([`JobView`]), and with what its
//! run made ([`JobDetail`]), which its webhook also gets.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::JobReport;
use crate::domain::agent::TokenUsage;
use crate::domain::job::{Job, JobStatus};
use crate::domain::session::Network;

/// A job as clients see it (and its webhook gets it, in [`JobDetail`]).
#[derive(Serialize, utoipa::ToSchema)]
pub struct JobView {
    pub id: String,
    /// The session the job runs in (open it in the UI to watch or take over).
    pub session_id: String,
    pub status: JobStatus,
    pub network: Option<Network>,
    pub timeout_secs: u64,
    /// Where the job's webhook goes, if it has one.
    pub webhook_url: Option<String>,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
    /// Why it failed.
    pub error: Option<String>,
}

impl From<&Job> for JobView {
    fn from(job: &Job) -> Self {
        Self {
            id: job.id.as_str().to_owned(),
            session_id: job.session_id.as_str().to_owned(),
            status: job.status,
            network: job.network,
            timeout_secs: job.timeout.secs(),
            webhook_url: job.webhook.as_ref().map(|hook| hook.url.as_str().to_owned()),
            created_at: job.created_at,
            started_at: job.started_at,
            finished_at: job.finished_at,
            error: job.error.clone(),
        }
    }
}

/// A job with its outcome.
#[derive(Serialize, utoipa::ToSchema)]
pub struct JobDetail {
    #[serde(flatten)]
    pub job: JobView,
    /// The agent's last message.
    pub answer: Option<String>,
    /// The model's tokens over the job's session.
    pub usage: TokenUsage,
    /// Once the job has ended: the files its run created or changed in the workspace,
    /// relative to it and by path (hidden ones and the job's own attachments left out).
    /// While it runs: the files its file tools wrote so far.
    pub files: Vec<String>,
    /// More files changed than `files` lists.
    pub files_truncated: bool,
}

impl From<&JobReport> for JobDetail {
    fn from(report: &JobReport) -> Self {
        Self {
            job: JobView::from(&report.job),
            answer: report.outcome.answer.clone(),
            usage: report.usage,
            files: report.outcome.files.clone(),
            files_truncated: report.outcome.files_truncated,
        }
    }
}
