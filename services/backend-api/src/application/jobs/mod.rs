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

mod attachments;
mod notify;
mod outcome;
pub mod views;

use std::collections::{BTreeSet, HashSet};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

use chrono::Utc;
use futures::future::BoxFuture;
use futures::StreamExt;
use tokio_util::sync::CancellationToken;

use super::agent::AgentService;
use super::error::{AppError, AppResult};
use super::events::EventService;
use super::files::FileService;
use super::sessions::{check_message, SessionService, MAX_ATTACHMENTS};
use super::turns::{TurnSettings, Turns};
use crate::domain::agent::TokenUsage;
use crate::domain::api_key::ApiKeyId;
use crate::domain::event::{AgentEvent, StoredEvent};
use crate::domain::ids::AutomationId;
use crate::domain::job::{Job, JobId, JobOutcome, JobRequest, JobStatus, JobTimeout, Webhook, WebhookUrl};
use crate::domain::job_attachment::JobFile;
pub use crate::domain::job_attachment::NewAttachment;
use crate::domain::ports::{
    ApiKeyRepository, JobAttachmentStore, JobRepository, KeyValueStore, WebhookSender,
};
use crate::domain::session::{preview, Network, SessionId, SessionStatus};
use crate::domain::user::UserId;
pub use notify::JobEnds;
use outcome::EventsSeen;

/// Events read from the log per query when a job's report is made.
const REPORT_BATCH: usize = 1000;

/// Files an ended job lists at most.
const MAX_LISTED_FILES: u32 = 1000;

/// How long a follower waits before it reads its session's events again.
const RESUBSCRIBE_PAUSE: Duration = Duration::from_millis(500);
/// How long other replicas leave a job just started to its starter before following it
/// while its prompt is not in its session (a starter that died before posting it).
const STARTER_GRACE: Duration = Duration::from_secs(10);

/// Times a status change is tried again when another writer changed the job in between.
const STATUS_ROUNDS: usize = 5;

/// How long a person's queue stays taken should its taker die; and how long another
/// waits for it before going on regardless, and between looks.
const QUEUE_HOLD: Duration = Duration::from_secs(10);
const QUEUE_WAIT: Duration = Duration::from_secs(5);
const QUEUE_POLL: Duration = Duration::from_millis(20);

/// Job creations made at once (each holds its body and attachments until stored), those
/// that wait for a turn, and how long they wait.
const CREATIONS: TurnSettings = TurnSettings {
    at_once: 2,
    queue: 256,
    wait: Duration::from_secs(10),
};

/// What a person told to wait for room in their queue is told to wait: about a job's
/// start, since one of theirs must end first.
const QUEUE_FULL_RETRY_SECS: u64 = 30;

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

/// This replica follows a job while it lives.
struct Following<'a> {
    jobs: &'a Mutex<HashSet<JobId>>,
    id: JobId,
}

impl Drop for Following<'_> {
    fn drop(&mut self) {
        lock(self.jobs).remove(&self.id);
    }
}

fn lock(jobs: &Mutex<HashSet<JobId>>) -> std::sync::MutexGuard<'_, HashSet<JobId>> {
    jobs.lock().unwrap_or_else(|p| p.into_inner())
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
            creations: Turns::new(CREATIONS, "making many jobs"),
            ends: OnceLock::new(),
        }
    }

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

    async fn report_of(&self, job: Job) -> AppResult<JobReport> {
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
    async fn outcome_of(&self, job: &Job) -> AppResult<JobOutcome> {
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
    async fn scan(&self, job: &Job, mut see: impl FnMut(&AgentEvent)) -> AppResult<()> {
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

    /// Starts the owner's queued jobs, oldest first, while they have room. A failure is
    /// logged: the queue is looked at again whenever one of their jobs ends.
    async fn start_queued(self: &Arc<Self>, owner: &UserId) {
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

    /// Runs a started job to its end: posts its prompt (unless `resumed` and posted
    /// already), follows its session, then lets the next queued job start. Boxed: the
    /// run starts queued jobs, whose runs start queued jobs, so its future names itself.
    fn run(self: Arc<Self>, job: Job, resumed: bool) -> BoxFuture<'static, ()> {
        Box::pin(async move {
            if !lock(&self.following).insert(job.id.clone()) {
                return;
            }
            let _following = Following {
                jobs: &self.following,
                id: job.id.clone(),
            };
            let outcome = tokio::select! {
                outcome = self.drive(&job, resumed) => outcome,
                () = self.stopping.cancelled() => return,
            };
            if let Err(err) = outcome {
                tracing::error!(job = job.id.as_str(), %err, "a job's run failed");
                let message = match err {
                    AppError::Internal(_) => "the job could not be run (an internal error)".to_owned(),
                    other => other.to_string(),
                };
                if let Err(err) = self.change(&job.id, JobStatus::Failed, Some(message)).await {
                    tracing::error!(job = job.id.as_str(), %err, "marking a job failed");
                }
            }
            self.start_queued(&job.owner).await;
        })
    }

    async fn drive(&self, job: &Job, resumed: bool) -> AppResult<()> {
        let session = self.sessions.get(&job.owner, job.session_id.as_str()).await?;
        // A job whose prompt is in its log takes the session's status (a run the restart
        // interrupted has failed, saying so in its last error) and follows from there.
        if resumed && session.last_seq > job.continues_after {
            if let Some(to) = JobStatus::of_session(session.status) {
                let mut error = None;
                if session.status == SessionStatus::Failed {
                    self.scan(job, |event| {
                        if let AgentEvent::Error { message } = event {
                            error = Some(message.clone());
                        }
                    })
                    .await?;
                }
                let reason = (session.status == SessionStatus::Failed).then(|| failure(error));
                if self.change(&job.id, to, reason).await?.0.status.is_final() {
                    return Ok(());
                }
            }
            return self.follow(job, session.last_seq).await;
        }
        if !job.attachments_written {
            self.write_attachments(job).await?;
        }
        let prompt = self
            .agent
            .post_message(
                &job.owner,
                job.session_id.as_str(),
                &job.prompt,
                &job.attachment_paths(),
            )
            .await?;
        self.follow(job, prompt.seq - 1).await
    }

    /// Moves the job with its session's statuses after `after` until the job has ended,
    /// or fails it and stops its run when its time is up.
    async fn follow(&self, job: &Job, after: u64) -> AppResult<()> {
        let deadline = job
            .deadline()
            .map(|at| (at - Utc::now()).to_std().unwrap_or_default())
            .unwrap_or_default();
        let follow = async {
            let mut last = after;
            let mut error = None;
            // The stream ends when it falls behind; the next one resumes from `last`.
            loop {
                let mut events = Box::pin(self.events.stream(job.session_id.clone(), last));
                while let Some(stored) = events.next().await {
                    last = stored.seq;
                    let status = match stored.event {
                        AgentEvent::Error { message } => {
                            error = Some(message);
                            continue;
                        }
                        AgentEvent::Status { status } => status,
                        _ => continue,
                    };
                    let Some(to) = JobStatus::of_session(status) else {
                        continue;
                    };
                    let reason = (status == SessionStatus::Failed).then(|| failure(error.take()));
                    let (now, _) = self.change(&job.id, to, reason).await?;
                    if now.status.is_final() {
                        return Ok(());
                    }
                }
                // Not at once: a stream that ended on a store error would end again.
                tokio::time::sleep(RESUBSCRIBE_PAUSE).await;
            }
        };
        match tokio::time::timeout(deadline, follow).await {
            Ok(outcome) => outcome,
            Err(_) => {
                // The run stops first, so whoever sees the job failed (a poll, the
                // webhook) finds its session stopped too. Stopping a run that has just
                // ended is a no-op, and `change` keeps a job that has ended meanwhile.
                self.agent.stop(&job.owner, job.session_id.as_str()).await?;
                let message = format!("the job ran longer than its timeout of {} s", job.timeout.secs());
                self.change(&job.id, JobStatus::Failed, Some(message)).await?;
                Ok(())
            }
        }
    }

    /// Moves the job to `to` unless it has ended (or is there already); the job as it is
    /// afterwards, and the status it was moved from (`None`: not moved).
    async fn change(
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

/// Why a job failed: the run's last error, if it gave one.
fn failure(error: Option<String>) -> String {
    error.unwrap_or_else(|| "the run failed".into())
}
