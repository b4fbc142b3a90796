//! The ports: what the application needs from the outside world, as traits. Adapters in
//! `infrastructure` implement them (MongoDB, Redis, the embedded store, argon2, JWT, the
//! sandbox-manager); the application sees only these.

use std::collections::BTreeMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use futures::stream::BoxStream;
use serde::{Deserialize, Serialize};

use super::agent::TokenUsage;
use super::agent::{SandboxAccess, SandboxGateway};
use super::api_key::{ApiKey, ApiKeyId};
use super::e2b::{E2bMetrics, E2bSandbox, E2bSandboxId};
use super::error::DomainResult;
use super::event::{AgentEvent, StoredEvent};
use super::files::FileName;
use super::image::ImageId;
use super::job::{Job, JobId, JobStatus, WebhookUrl};
use super::mcp::{McpServer, McpServerName};
use super::replica::{RunLease, RunSignal};
use super::session::{Session, SessionId, SessionStatus};
use super::user::{Email, Password, Role, User, UserId};

#[async_trait::async_trait]
pub trait UserRepository: Send + Sync {
    /// Fails with `Conflict` when the email is taken.
    async fn insert(&self, user: &User) -> DomainResult<()>;
    async fn by_id(&self, id: &UserId) -> DomainResult<Option<User>>;
    async fn by_email(&self, email: &Email) -> DomainResult<Option<User>>;
    async fn update(&self, user: &User) -> DomainResult<()>;
    /// Users in creation order.
    async fn list(&self, offset: usize, limit: usize) -> DomainResult<Vec<User>>;
    /// Whether the database answers (for readiness).
    async fn ping(&self) -> DomainResult<()>;
}

#[async_trait::async_trait]
pub trait SessionRepository: Send + Sync {
    async fn insert(&self, session: &Session) -> DomainResult<()>;
    async fn get(&self, id: &SessionId) -> DomainResult<Option<Session>>;
    /// The owner's sessions, newest first, after `before` (exclusive) when given.
    async fn list_for(
        &self,
        owner: &UserId,
        before: Option<&SessionId>,
        limit: usize,
    ) -> DomainResult<Vec<Session>>;
    /// Stores what a person changes ([`Session::merge_edits`]); what the log changes
    /// stays as the log left it, also when an append raced with this update.
    async fn update(&self, session: &Session) -> DomainResult<()>;
    /// Removes the session, its event log and its images.
    async fn delete(&self, id: &SessionId) -> DomainResult<()>;
    async fn by_share_token(&self, token: &str) -> DomainResult<Option<Session>>;
    /// Every session in this status (for recovery after a restart).
    async fn with_status(&self, status: SessionStatus) -> DomainResult<Vec<Session>>;
}

#[async_trait::async_trait]
pub trait EventLog: Send + Sync {
    /// Stores `event` with the session's next sequence number and, in the same atomic
    /// step, the session summary it changes ([`Session::apply`]). Concurrent appends to
    /// one session get distinct, consecutive numbers.
    async fn append(
        &self,
        session: &SessionId,
        event: AgentEvent,
        at: DateTime<Utc>,
    ) -> DomainResult<(StoredEvent, Session)>;
    /// Events with `seq > after`, in order, at most `limit`.
    async fn read_after(
        &self,
        session: &SessionId,
        after: u64,
        limit: usize,
    ) -> DomainResult<Vec<StoredEvent>>;
}

/// Images tool events show (screenshots, charts), per session (see [`ImageId`]).
#[async_trait::async_trait]
pub trait ImageStore: Send + Sync {
    /// Stores the image unless the session has it already.
    async fn put(&self, session: &SessionId, id: &ImageId, bytes: Vec<u8>) -> DomainResult<()>;
    async fn get(&self, session: &SessionId, id: &ImageId) -> DomainResult<Option<Vec<u8>>>;
}

/// The MCP servers admins configured, and the names the `MCP_CONFIG` file has seeded (so
/// a server an admin deleted is not brought back by the file).
#[async_trait::async_trait]
pub trait McpServerRepository: Send + Sync {
    /// Every server, enabled or not, by name.
    async fn list(&self) -> DomainResult<Vec<McpServer>>;
    async fn get(&self, name: &McpServerName) -> DomainResult<Option<McpServer>>;
    /// Fails with `Conflict` when the name is taken.
    async fn insert(&self, server: &McpServer) -> DomainResult<()>;
    /// Replaces the server of that name; `NotFound` when there is none.
    async fn update(&self, server: &McpServer) -> DomainResult<()>;
    /// `NotFound` when there is none. The name stays seeded.
    async fn delete(&self, name: &McpServerName) -> DomainResult<()>;
    /// Whether the file has seeded this name before.
    async fn seeded(&self, name: &McpServerName) -> DomainResult<bool>;
    /// Remembers that the file has seeded this name (again is fine).
    async fn mark_seeded(&self, name: &McpServerName) -> DomainResult<()>;
}

/// Personal API keys ([`ApiKey`]), found by their secret's digest.
#[async_trait::async_trait]
pub trait ApiKeyRepository: Send + Sync {
    async fn insert(&self, key: &ApiKey) -> DomainResult<()>;
    /// The key, revoked or not.
    async fn get(&self, id: &ApiKeyId) -> DomainResult<Option<ApiKey>>;
    /// The key whose secret has this digest, revoked or not.
    async fn by_digest(&self, digest: &str) -> DomainResult<Option<ApiKey>>;
    /// The keys not revoked, oldest first: one owner's, or everyone's.
    async fn list(&self, owner: Option<&UserId>) -> DomainResult<Vec<ApiKey>>;
    /// Marks the key revoked; `false` when there is no such key or it was revoked already.
    async fn revoke(&self, id: &ApiKeyId, at: DateTime<Utc>) -> DomainResult<bool>;
    /// Adds `requests` to the key's count and moves `last_used_at` forward to `at` (never
    /// back: replicas write their counts in any order).
    async fn record_use(&self, id: &ApiKeyId, requests: u64, at: DateTime<Utc>) -> DomainResult<()>;
    /// Adds a job's `tokens` to the key's, in one write (jobs end on any replica).
    async fn add_tokens(&self, id: &ApiKeyId, tokens: TokenUsage) -> DomainResult<()>;
}

/// Sandboxes rented through the E2B-compatible API ([`E2bSandbox`]).
#[async_trait::async_trait]
pub trait E2bSandboxRepository: Send + Sync {
    async fn insert(&self, sandbox: &E2bSandbox) -> DomainResult<()>;
    async fn get(&self, id: &E2bSandboxId) -> DomainResult<Option<E2bSandbox>>;
    /// The owner's sandboxes, oldest first.
    async fn list(&self, owner: &UserId) -> DomainResult<Vec<E2bSandbox>>;
    /// Stores `sandbox` over the stored one; `false` when there is none (it was removed).
    async fn update(&self, sandbox: &E2bSandbox) -> DomainResult<bool>;
    /// Removes the sandbox; `true` only for the one call that removed it, so of replicas
    /// racing to end a sandbox exactly one goes on to remove its container.
    async fn remove(&self, id: &E2bSandboxId) -> DomainResult<bool>;
    /// Everyone's sandboxes whose end time is at or before `now`.
    async fn ended_by(&self, now: DateTime<Utc>) -> DomainResult<Vec<E2bSandbox>>;
}

/// The sandboxes the E2B-compatible API rents: a session's sandbox, whose files outlive
/// its container so that a paused one comes back with them.
#[async_trait::async_trait]
pub trait PausableSandboxes: SandboxGateway {
    /// Ends the session's sandbox and keeps its files for the next `acquire`.
    async fn stop(&self, session: &SessionId) -> DomainResult<()>;
}

/// A running rented sandbox's environment: the variables it was asked for, given once it
/// runs, and what it uses.
#[async_trait::async_trait]
pub trait SandboxEnvironment: Send + Sync {
    async fn set(&self, sandbox: &SandboxAccess, vars: &BTreeMap<String, String>) -> DomainResult<()>;
    /// Its CPU, memory and disk use now.
    async fn metrics(&self, sandbox: &SandboxAccess) -> DomainResult<E2bMetrics>;
}

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
    /// POSTs `body` (JSON) with `X-Sandpiper-Signature: sha256=<signature>`, checking the
    /// address again; `Unavailable` when the receiver does not answer with a 2xx.
    async fn post(&self, url: &WebhookUrl, body: &[u8], signature: &str) -> DomainResult<()>;
}

/// A refresh token as stored: only its hash, never the token itself.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RefreshToken {
    pub hash: String,
    /// All tokens rotated from one login share a family; reusing any revokes it whole.
    pub family: String,
    pub user_id: UserId,
    pub expires_at: DateTime<Utc>,
    pub used: bool,
    pub revoked: bool,
}

#[async_trait::async_trait]
pub trait RefreshTokenStore: Send + Sync {
    async fn insert(&self, token: &RefreshToken) -> DomainResult<()>;
    /// Marks the token used and returns it as it was before (so a second use is seen
    /// as reuse, also when two requests race); `None` when unknown.
    async fn consume(&self, hash: &str) -> DomainResult<Option<RefreshToken>>;
    async fn revoke_family(&self, family: &str) -> DomainResult<()>;
    async fn revoke_user(&self, user: &UserId) -> DomainResult<()>;
}

/// Short-lived keys with a time-to-live: revocations, rate-limit counters, single-use
/// tickets, cache entries. Redis in production, the embedded store otherwise.
#[async_trait::async_trait]
pub trait KeyValueStore: Send + Sync {
    async fn put(&self, key: &str, value: &str, ttl: Duration) -> DomainResult<()>;
    async fn get(&self, key: &str) -> DomainResult<Option<String>>;
    /// Gets and deletes in one step: only one caller ever gets the value.
    async fn take(&self, key: &str) -> DomainResult<Option<String>>;
    /// Adds `by` to a counter that starts at 0 and lives `ttl` from its first addition;
    /// returns the new count.
    async fn add(&self, key: &str, by: u64, ttl: Duration) -> DomainResult<u64>;
    /// Adds one (see [`KeyValueStore::add`]).
    async fn increment(&self, key: &str, ttl: Duration) -> DomainResult<u64> {
        self.add(key, 1, ttl).await
    }
    /// Whether the store answers (for readiness).
    async fn ping(&self) -> DomainResult<()>;
}

/// Live fan-out of stored events and session changes, to every replica. Delivery is a
/// hint: subscribers fill any gap from the [`EventLog`].
#[async_trait::async_trait]
pub trait EventBus: Send + Sync {
    async fn publish_event(&self, event: &StoredEvent) -> DomainResult<()>;
    /// Live events of one session; the stream ends when the subscriber falls behind.
    fn subscribe_events(&self, session: &SessionId) -> BoxStream<'static, StoredEvent>;
    async fn publish_session_change(&self, change: &SessionChange) -> DomainResult<()>;
    /// Live changes to one owner's sessions (`deleted` when one is gone).
    fn subscribe_sessions(&self, owner: &UserId) -> BoxStream<'static, SessionChange>;
    /// To every replica (this one included); at most once, so a receiver that misses one
    /// must not be left stuck by it.
    async fn publish_signal(&self, signal: &RunSignal) -> DomainResult<()>;
    /// Every signal published from now on; the stream ends when the bus reconnects or the
    /// subscriber falls behind, and the subscriber then subscribes again.
    fn subscribe_signals(&self) -> BoxStream<'static, RunSignal>;
}

/// The run lease of each session: who runs its agent. A lease expires unless renewed,
/// so a replica that dies gives its runs up by itself.
#[async_trait::async_trait]
pub trait RunLeases: Send + Sync {
    /// Takes the session's lease unless someone holds it; returns the holder then.
    async fn acquire(
        &self,
        session: &SessionId,
        lease: &RunLease,
        ttl: Duration,
    ) -> DomainResult<Option<RunLease>>;
    /// Extends a lease still held; `false` when it expired (and may be someone else's).
    async fn renew(&self, session: &SessionId, lease: &RunLease, ttl: Duration) -> DomainResult<bool>;
    /// Gives a lease up; nothing when it is no longer held.
    async fn release(&self, session: &SessionId, lease: &RunLease) -> DomainResult<()>;
    async fn holder(&self, session: &SessionId) -> DomainResult<Option<RunLease>>;
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum SessionChange {
    Updated { session: Box<Session> },
    Deleted { id: SessionId, owner: UserId },
}

impl SessionChange {
    pub fn owner(&self) -> &UserId {
        match self {
            Self::Updated { session } => &session.owner,
            Self::Deleted { owner, .. } => owner,
        }
    }
}

/// Slow on purpose (that is the point of a password hash), so async: adapters run it off
/// the request threads.
#[async_trait::async_trait]
pub trait PasswordHasher: Send + Sync {
    /// A PHC string.
    async fn hash(&self, password: &Password) -> DomainResult<String>;
    /// `false` also for a hash that cannot be parsed; costs the same whether the
    /// account exists or not when given [`PasswordHasher::decoy`].
    async fn verify(&self, password: &str, hash: &str) -> bool;
    /// A valid hash no password matches, to verify against when there is no account.
    fn decoy(&self) -> &str;
}

/// What an access token says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccessClaims {
    pub sub: UserId,
    pub role: Role,
    /// Unique per token, for logout.
    pub jti: String,
    pub iat: i64,
    /// Issue time in milliseconds: compared with "signed out everywhere" cut-offs.
    pub iat_ms: i64,
    pub exp: i64,
}

pub trait AccessTokenCodec: Send + Sync {
    fn encode(&self, claims: &AccessClaims) -> DomainResult<String>;
    /// Checks signature, algorithm and expiry.
    fn decode(&self, token: &str) -> Option<AccessClaims>;
}
