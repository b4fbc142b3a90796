//! The ports of sessions: their records, their event log and images, the live bus every
//! replica shares, and the lease that says which replica runs a session's agent.

use std::time::Duration;

use chrono::{DateTime, Utc};
use futures::stream::BoxStream;
use serde::{Deserialize, Serialize};

use crate::domain::error::DomainResult;
use crate::domain::event::{AgentEvent, StoredEvent};
use crate::domain::image::ImageId;
use crate::domain::replica::{RunLease, RunSignal};
use crate::domain::session::{Session, SessionId, SessionStatus};
use crate::domain::user::UserId;

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
    /// Removes the session, its event log, its images and the part of its person's
    /// memory its prompt was given.
    async fn delete(&self, id: &SessionId) -> DomainResult<()>;
    async fn by_share_token(&self, token: &str) -> DomainResult<Option<Session>>;
    /// Every session in this status (for recovery after a restart).
    async fn with_status(&self, status: SessionStatus) -> DomainResult<Vec<Session>>;
}

/// One append's identity: an append tried again with the same one, after the store did
/// not answer, stores its event at most once (the first try may have landed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppendId([u8; 12]);

impl AppendId {
    pub fn new() -> Self {
        Self(rand::random())
    }

    pub fn bytes(self) -> [u8; 12] {
        self.0
    }
}

impl Default for AppendId {
    fn default() -> Self {
        Self::new()
    }
}

#[async_trait::async_trait]
pub trait EventLog: Send + Sync {
    /// Stores `event` with the session's next sequence number and, in the same atomic
    /// step, the session summary it changes ([`Session::apply`]). Concurrent appends to
    /// one session get distinct, consecutive numbers; appends with the same `id` store
    /// one event.
    async fn append(
        &self,
        session: &SessionId,
        event: AgentEvent,
        at: DateTime<Utc>,
        id: AppendId,
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
