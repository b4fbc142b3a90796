//! Headless jobs: a prompt run by the agent without a chat window, for scripts (CI, cron,
//! other services). A job is a session the person owns — it shows in their session list,
//! so they can watch or take over — plus what a script needs around it: a status it can
//! poll, a time limit, a place in the person's queue, and a webhook told when it waits
//! or ends.

use std::net::IpAddr;

use chrono::{DateTime, Utc};
use rand::distr::{Alphanumeric, SampleString};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::api_key::ApiKeyId;
use super::error::{DomainError, DomainResult};
use super::ids::AutomationId;
use super::job_attachment::JobAttachment;
use super::session::{Network, SessionId, SessionStatus};
use super::user::UserId;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct JobId(String);

impl JobId {
    /// Time-ordered (UUID v7), so id order is creation order (the queue's order).
    pub fn new() -> Self {
        Self(uuid::Uuid::now_v7().to_string())
    }

    /// An id from a URL: anything that is not one of ours is simply not found.
    pub fn parse(raw: &str) -> DomainResult<Self> {
        uuid::Uuid::parse_str(raw)
            .map(|id| Self(id.to_string()))
            .map_err(|_| DomainError::NotFound("job"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for JobId {
    fn default() -> Self {
        Self::new()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum JobStatus {
    /// Waiting for one of the person's running jobs to end.
    Queued,
    /// The agent is working on it.
    Running,
    /// The agent asked the person something; `POST /jobs/{id}/reply` answers.
    Waiting,
    /// The agent answered.
    Succeeded,
    /// The run failed or ran out of time; `error` says why.
    Failed,
    /// Cancelled by the person.
    Cancelled,
}

impl JobStatus {
    /// Every status, for parsing filters.
    const ALL: [Self; 6] = [
        Self::Queued,
        Self::Running,
        Self::Waiting,
        Self::Succeeded,
        Self::Failed,
        Self::Cancelled,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Running => "running",
            Self::Waiting => "waiting",
            Self::Succeeded => "succeeded",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }

    /// A status filter from a query string.
    pub fn parse(raw: &str) -> DomainResult<Self> {
        Self::ALL
            .into_iter()
            .find(|status| status.as_str() == raw)
            .ok_or_else(|| DomainError::InvalidField {
                field: "status",
                message: "one of queued, running, waiting, succeeded, failed, cancelled".into(),
            })
    }

    /// Nothing changes a job in a final status any more.
    pub fn is_final(self) -> bool {
        matches!(self, Self::Succeeded | Self::Failed | Self::Cancelled)
    }

    /// What a session status means for the job once it has started: `None` while the
    /// session has not reached a status of its own yet (`pending`).
    pub fn of_session(status: SessionStatus) -> Option<Self> {
        match status {
            SessionStatus::Pending => None,
            SessionStatus::Running => Some(Self::Running),
            SessionStatus::Waiting => Some(Self::Waiting),
            SessionStatus::Completed => Some(Self::Succeeded),
            SessionStatus::Failed => Some(Self::Failed),
        }
    }
}

/// How long a job may take from its start to its end, waiting for the person included,
/// in seconds: at least [`JobTimeout::MIN_SECS`], at most the operator's maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobTimeout(u64);

impl JobTimeout {
    /// Below this no run gets as far as its first model answer.
    pub const MIN_SECS: u64 = 10;

    pub fn parse(secs: u64, max_secs: u64) -> DomainResult<Self> {
        if !(Self::MIN_SECS..=max_secs).contains(&secs) {
            return Err(DomainError::InvalidField {
                field: "timeout_secs",
                message: format!("between {} and {max_secs} seconds", Self::MIN_SECS),
            });
        }
        Ok(Self(secs))
    }

    pub fn secs(self) -> u64 {
        self.0
    }
}

/// Where a job's webhook goes: an `http` or `https` URL with a host, at most 2048
/// characters. Whether its host is an address the backend may call is the sender's to
/// decide, since that needs the host's addresses ([`is_public`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebhookUrl(String);

impl WebhookUrl {
    const MAX_CHARS: usize = 2048;

    pub fn parse(raw: &str) -> DomainResult<Self> {
        let invalid = |message: &str| DomainError::InvalidField {
            field: "webhook_url",
            message: message.into(),
        };
        if raw.len() > Self::MAX_CHARS {
            return Err(invalid("at most 2048 characters"));
        }
        let url = url::Url::parse(raw).map_err(|_| invalid("not a URL"))?;
        if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
            return Err(invalid("an http or https URL with a host"));
        }
        Ok(Self(url.into()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Whether `address` is on the public internet: not loopback, private, link-local,
/// unique-local, shared (CGNAT), documentation, multicast or unspecified — the addresses a
/// webhook could use to reach the backend's own network.
pub fn is_public(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || v4.is_documentation()
                || a == 0
                || (a == 100 && (64..128).contains(&b)))
        }
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_public(IpAddr::V4(v4)),
            None => {
                let first = v6.segments()[0];
                !(v6.is_loopback()
                    || v6.is_unspecified()
                    || v6.is_multicast()
                    || (first & 0xfe00) == 0xfc00
                    || (first & 0xffc0) == 0xfe80)
            }
        },
    }
}

/// A job's webhook: where it goes and the key its bodies are signed with (HMAC-SHA256),
/// which the creator got once, in the answer that made the job. Kept as it is, not as a
/// digest, since signing needs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Webhook {
    pub url: WebhookUrl,
    pub secret: String,
}

impl Webhook {
    pub fn new(url: WebhookUrl) -> Self {
        Self {
            url,
            secret: format!("whsec_{}", Alphanumeric.sample_string(&mut rand::rng(), 40)),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Job {
    pub id: JobId,
    pub owner: UserId,
    /// The session the job runs in, made with the job.
    pub session_id: SessionId,
    pub status: JobStatus,
    /// Kept until the job starts: a queued job posts it then (also after a restart).
    pub prompt: String,
    /// The files sent with it, written to the workspace when the job starts; their
    /// contents wait in the [`JobAttachmentStore`](super::ports::JobAttachmentStore).
    #[serde(default)]
    pub attachments: Vec<JobAttachment>,
    /// The attachments are in the workspace and gone from the store.
    #[serde(default)]
    pub attachments_written: bool,
    /// `None`: the sandbox-manager's default.
    pub network: Option<Network>,
    pub timeout: JobTimeout,
    #[serde(default)]
    pub webhook: Option<Webhook>,
    /// The API key the job was made with: its session's tokens are added to the key's
    /// when the job ends.
    #[serde(default)]
    pub api_key: Option<ApiKeyId>,
    /// The automation this job is a run of: its end counts there (failures in a row).
    #[serde(default)]
    pub automation: Option<AutomationId>,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
    pub error: Option<String>,
    /// What the run made, kept once the job has ended.
    #[serde(default)]
    pub outcome: Option<JobOutcome>,
    /// The session's last event before the job: 0 in a session made for it, more when
    /// it continues one (an automation's persistent session). Its prompt is posted once
    /// the session has gone past this.
    #[serde(default)]
    pub continues_after: u64,
}

/// What a job's run made: its answer and the files it created or changed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct JobOutcome {
    /// The agent's last message.
    pub answer: Option<String>,
    /// Relative to the workspace, by path.
    pub files: Vec<String>,
    /// More files changed than `files` lists.
    #[serde(default)]
    pub files_truncated: bool,
}

impl Job {
    /// A queued job in `session`.
    pub fn new(owner: UserId, session_id: SessionId, request: JobRequest, now: DateTime<Utc>) -> Self {
        Self {
            id: JobId::new(),
            owner,
            session_id,
            status: JobStatus::Queued,
            prompt: request.prompt,
            attachments: request.attachments,
            attachments_written: false,
            network: request.network,
            timeout: request.timeout,
            webhook: request.webhook,
            api_key: request.api_key,
            automation: request.automation,
            created_at: now,
            started_at: None,
            finished_at: None,
            error: None,
            outcome: None,
            continues_after: 0,
        }
    }

    /// Moves the job to `status` with its timestamps; an error only for failures.
    pub fn move_to(&mut self, status: JobStatus, error: Option<String>, now: DateTime<Utc>) {
        self.status = status;
        if status == JobStatus::Running {
            self.started_at.get_or_insert(now);
        }
        if status.is_final() {
            self.finished_at = Some(now);
            self.error = error;
        }
    }

    /// Where the attachments are in the workspace once written, for the prompt.
    pub fn attachment_paths(&self) -> Vec<String> {
        self.attachments.iter().map(JobAttachment::upload_path).collect()
    }

    /// The decoded size of its attachments together.
    pub fn attachment_bytes(&self) -> u64 {
        self.attachments.iter().map(|file| file.size).sum()
    }

    /// When the time limit ends, once started.
    pub fn deadline(&self) -> Option<DateTime<Utc>> {
        let limit = chrono::Duration::seconds(i64::try_from(self.timeout.secs()).unwrap_or(i64::MAX));
        self.started_at.map(|started| started + limit)
    }
}

/// What a job is asked to do, its values checked.
#[derive(Debug, Clone)]
pub struct JobRequest {
    pub prompt: String,
    pub attachments: Vec<JobAttachment>,
    pub network: Option<Network>,
    pub timeout: JobTimeout,
    pub webhook: Option<Webhook>,
    pub api_key: Option<ApiKeyId>,
    pub automation: Option<AutomationId>,
}

#[cfg(test)]
mod tests;
