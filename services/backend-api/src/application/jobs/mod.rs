//! Headless jobs: a prompt run as a session of its own, without a chat window.
//!
//! Creating a job creates its session and queues the job; a person's queued jobs start
//! in creation order while fewer than [`JobSettings::max_running_per_person`] of theirs
//! are running or waiting. A burst of creations is bounded three times, since each
//! carries up to its attachments' size until stored and a queued job keeps them in the
//! store (apart from its record, see [`attachments`]): a few are made at once and the
//! next wait their turn briefly ([`JobService::turn`], then `503` with `Retry-After`), a
//! person may have at most [`JobSettings::max_queued_per_person`] jobs queued, and the
//! queued jobs' files together at most [`JobSettings::max_queued_attachment_bytes`] (both
//! then `429` with `Retry-After`). The job's `network` is its session's, so every
//! sandbox the session ever gets has it. Starting one posts the prompt through
//! [`AgentService::post_message`], the path a chat message takes, after writing the
//! files sent with the job to the workspace's `uploads/` and naming them with the
//! prompt, as a chat's attachments are. A follower task then reads the session's event
//! stream and moves the job with
//! the session's status (`running`, `waiting`, `completed` → `succeeded`, `failed`)
//! until the job ends, or stops the run when the job's time limit passes.
//!
//! When a job starts waiting or ends, its webhook (if it has one) gets the job as
//! `GET /jobs/{id}` shows it, signed with HMAC-SHA256 under the job's own secret (shown
//! once, at creation: a leaked secret then concerns one job), retried with back-off.
//!
//! A job made with an API key adds its session's tokens to the key's when it ends (once:
//! only one move to a final status succeeds), so a key's listing shows what its jobs cost.
//!
//! An ended job keeps what its run made (see [`outcome`]).
//!
//! Status changes are compare-and-set in the store, so a cancel and the end of the run
//! cannot both win. Jobs are stored, so the queue survives a restart: [`JobService::resume`]
//! follows the jobs that were going again and starts the queued ones. With several
//! replicas each follows every job ([`JobService::adopt`]), so one dying ends nothing
//! early or never, and a person's queue is taken in the shared key-value store while a
//! replica starts jobs from it.
//!
//! # Layout
//!
//! - `mod.rs`: the service, its settings and ports, a job as a client asks for it.
//! - `create.rs`: a job made and queued, a turn of creation taken first.
//! - `attachments.rs`: a job's files, stored apart until written to its workspace.
//! - `queue.rs`: a person's queued jobs started while they have room.
//! - `run.rs`: a started job's prompt posted and its session followed to the end.
//! - `status.rs`: a status moved compare-and-set, with what an end sets off; cancel, reply.
//! - `adopt.rs`: jobs followed again after a restart, and by every replica.
//! - `read.rs`: a job, its report and a page of jobs as the owner reads them.
//! - `outcome.rs`: what a job made, folded from its events and its workspace.
//! - `notify.rs`: an end told — the API key charged, the webhook called, the listener.
//! - `views.rs`: a job as clients (and its webhook) see it.

mod adopt;
mod attachments;
mod create;
mod notify;
mod outcome;
mod queue;
mod read;
mod run;
mod status;
pub mod views;

use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use tokio_util::sync::CancellationToken;

use super::agent::AgentService;
use super::events::EventService;
use super::files::FileService;
use super::sessions::SessionService;
use super::turns::Turns;
use crate::domain::agent::TokenUsage;
use crate::domain::ids::AutomationId;
use crate::domain::job::{Job, JobId, JobOutcome};
pub use crate::domain::job_attachment::NewAttachment;
use crate::domain::ports::{
    ApiKeyRepository, JobAttachmentStore, JobRepository, KeyValueStore, WebhookSender,
};
use crate::domain::session::SessionId;
pub use notify::JobEnds;

#[derive(Debug, Clone)]
pub struct JobSettings {
    /// A person's jobs running or waiting at once; more wait as `queued`.
    pub max_running_per_person: usize,
    /// A person's jobs waiting as `queued`; more are refused (429).
    pub max_queued_per_person: usize,
    pub default_timeout_secs: u64,
    pub max_timeout_secs: u64,
    /// The decoded size of a job's attachments together.
    pub max_attachment_bytes: u64,
    /// The decoded size of every queued job's attachments together; more are refused (429).
    pub max_queued_attachment_bytes: u64,
}

/// What jobs need from the outside world.
pub struct JobPorts {
    pub jobs: Arc<dyn JobRepository>,
    /// Where the files of jobs not yet started wait.
    pub attachments: Arc<dyn JobAttachmentStore>,
    pub api_keys: Arc<dyn ApiKeyRepository>,
    pub webhooks: Arc<dyn WebhookSender>,
    /// Where a person's queue is taken, so replicas look at it one at a time.
    pub kv: Arc<dyn KeyValueStore>,
}

/// A job as a client asks for it, unchecked.
pub struct NewJob {
    pub prompt: String,
    pub attachments: Vec<NewAttachment>,
    pub title: Option<String>,
    pub network: Option<String>,
    pub timeout_secs: Option<u64>,
    pub webhook_url: Option<String>,
    /// The key the webhook's bodies are signed with: an automation's, the same for all
    /// its runs; a new one when left out.
    pub webhook_secret: Option<String>,
    pub model: Option<String>,
    /// A session of the owner's to continue instead of making one.
    pub session: Option<SessionId>,
    /// The automation the job is a run of.
    pub automation: Option<AutomationId>,
}

/// A job with what its session tells about it.
pub struct JobReport {
    pub job: Job,
    pub outcome: JobOutcome,
    pub usage: TokenUsage,
}

pub struct JobService {
    jobs: Arc<dyn JobRepository>,
    attachments: Arc<dyn JobAttachmentStore>,
    api_keys: Arc<dyn ApiKeyRepository>,
    sessions: Arc<SessionService>,
    agent: Arc<AgentService>,
    events: Arc<EventService>,
    files: Arc<FileService>,
    webhooks: Arc<dyn WebhookSender>,
    settings: JobSettings,
    kv: Arc<dyn KeyValueStore>,
    /// Cancelled on shutdown: followers end, leaving their jobs as stored for
    /// [`JobService::resume`] on the next start.
    stopping: CancellationToken,
    /// The jobs this replica follows.
    following: Mutex<HashSet<JobId>>,
    /// Turns of job creation.
    creations: Turns,
    /// Told of each job's end ([`JobService::on_end`]).
    ends: OnceLock<Weak<dyn JobEnds>>,
}

impl JobService {
    pub fn new(
        ports: JobPorts,
        sessions: Arc<SessionService>,
        agent: Arc<AgentService>,
        events: Arc<EventService>,
        files: Arc<FileService>,
        settings: JobSettings,
        stopping: CancellationToken,
    ) -> Self {
        Self {
            jobs: ports.jobs,
            attachments: ports.attachments,
            api_keys: ports.api_keys,
            sessions,
            agent,
            events,
            files,
            webhooks: ports.webhooks,
            kv: ports.kv,
            settings,
            stopping,
            following: Mutex::default(),
            creations: Turns::new(create::CREATIONS, "making many jobs"),
            ends: OnceLock::new(),
        }
    }
}
