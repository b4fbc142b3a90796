//! The port of automations: their records, the scheduler's atomic claim of a fire time,
//! their run history, the webhook deliveries already taken, and the files they carry.

use chrono::{DateTime, Utc};

use crate::domain::automation::{Automation, AutomationRun};
use crate::domain::error::DomainResult;
use crate::domain::ids::{AutomationId, RunId, TriggerId};
use crate::domain::user::UserId;

/// The contents of automations' files, apart from their records (which keep names,
/// sizes and each content's key, so listing and scheduling read small records). Each
/// content is stored under a fresh key, never over one a record names. Removed with the
/// automation.
#[async_trait::async_trait]
pub trait AutomationFiles: Send + Sync {
    /// Stores one content of the automation under `key`.
    async fn put_file(&self, id: &AutomationId, key: &str, content: Vec<u8>) -> DomainResult<()>;
    /// The content stored under `key`; `None` when there is none.
    async fn file(&self, id: &AutomationId, key: &str) -> DomainResult<Option<Vec<u8>>>;
    /// Removes one content (none stored is no error).
    async fn remove_file(&self, id: &AutomationId, key: &str) -> DomainResult<()>;
}

/// Automations ([`Automation`]), their history ([`AutomationRun`]) and files.
#[async_trait::async_trait]
pub trait AutomationRepository: AutomationFiles {
    /// Stores a new automation unless its owner has `max_per_owner` already, counted
    /// in one step with the insert so creations racing cannot pass the cap together
    /// (racing for the last place, all may be refused); whether it did. One it refused
    /// or could not count it removes again (a failure to is logged, not returned).
    async fn insert(&self, automation: &Automation, max_per_owner: usize) -> DomainResult<bool>;
    async fn get(&self, id: &AutomationId) -> DomainResult<Option<Automation>>;
    /// Stores the automation over the stored one only if that one's `next_fire` is still
    /// `expected` (so a claim made meanwhile is not undone) and its revision is the one
    /// before `automation.revision` (so no other change is); whether it did.
    async fn replace(&self, automation: &Automation, expected: Option<DateTime<Utc>>) -> DomainResult<bool>;
    /// Removes it with its history and files; whether there was one.
    async fn delete(&self, id: &AutomationId) -> DomainResult<bool>;
    /// The owner's automations, oldest first.
    async fn list_for(&self, owner: &UserId) -> DomainResult<Vec<Automation>>;
    /// The automation one of whose triggers has this id.
    async fn by_trigger(&self, trigger: &TriggerId) -> DomainResult<Option<Automation>>;
    /// Up to `limit` automations whose `next_fire` is at or before `now`, earliest first
    /// (by index: the scheduler's query).
    async fn due(&self, now: DateTime<Utc>, limit: usize) -> DomainResult<Vec<Automation>>;
    /// The earliest `next_fire` of all (by index), for the scheduler to sleep until.
    async fn earliest_fire(&self) -> DomainResult<Option<DateTime<Utc>>>;
    /// Moves `next_fire` from `due` to `next` only if it is still `due`; whether it did.
    /// Of replicas racing on one fire time exactly one wins, which fires it.
    async fn claim(
        &self,
        id: &AutomationId,
        due: DateTime<Utc>,
        next: Option<DateTime<Utc>>,
    ) -> DomainResult<bool>;
    /// Stores a history entry (a second put of one id replaces it).
    async fn put_run(&self, run: &AutomationRun) -> DomainResult<()>;
    /// Drops the automation's history entries past its newest `keep`.
    async fn trim_runs(&self, id: &AutomationId, keep: usize) -> DomainResult<()>;
    /// The automation's history, newest first.
    async fn runs(&self, id: &AutomationId, limit: usize) -> DomainResult<Vec<AutomationRun>>;
    /// Remembers that the delivery `key` of `trigger` is the run `run`, unless it was
    /// remembered already: then the run it was first, and nothing is stored. A key
    /// remembered longer than [`DELIVERY_KEY_KEPT`](crate::domain::automation::DELIVERY_KEY_KEPT)
    /// is forgotten (and the store drops such keys).
    async fn first_delivery(
        &self,
        trigger: &TriggerId,
        key: &str,
        run: &RunId,
    ) -> DomainResult<Option<RunId>>;
    /// Forgets the delivery `key` of `trigger` if it is still the run `run` (which made
    /// no job), so the sender's retry runs.
    async fn forget_delivery(&self, trigger: &TriggerId, key: &str, run: &RunId) -> DomainResult<()>;
    /// One history entry of the automation.
    async fn run(&self, id: &AutomationId, run: &RunId) -> DomainResult<Option<AutomationRun>>;
}
