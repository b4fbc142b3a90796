//! The ports of the E2B-compatible API: the rented sandboxes' records, sandboxes that
//! pause and resume with their files, and a running one's environment.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::SandboxGateway;
use crate::domain::agent::SandboxAccess;
use crate::domain::e2b::{E2bMetrics, E2bSandbox, E2bSandboxId};
use crate::domain::error::DomainResult;
use crate::domain::session::{Network, SessionId};
use crate::domain::user::UserId;

/// Sandboxes rented through the E2B-compatible API ([`E2bSandbox`]).
#[async_trait::async_trait]
pub trait E2bSandboxRepository: Send + Sync {
    async fn insert(&self, sandbox: &E2bSandbox) -> DomainResult<()>;
    async fn get(&self, id: &E2bSandboxId) -> DomainResult<Option<E2bSandbox>>;
    /// The owner's sandboxes, oldest first.
    async fn list(&self, owner: &UserId) -> DomainResult<Vec<E2bSandbox>>;
    /// Stores `sandbox` over the stored one, but only while the stored one is still
    /// `as_read` (its state and end time): of two changes made from the same reading
    /// (the sweep pausing a sandbox, a connect resuming it) only the first lands, and the
    /// other must read again.
    async fn update(&self, sandbox: &E2bSandbox, as_read: &E2bSandbox) -> DomainResult<Updated>;
    /// Removes the sandbox; `true` only for the one call that removed it, so of replicas
    /// racing to end a sandbox exactly one goes on to remove its container.
    async fn remove(&self, id: &E2bSandboxId) -> DomainResult<bool>;
    /// Removes the sandbox, but only while the stored one is still `as_read`, as
    /// [`Self::update`] stores: the sweep ending a sandbox whose time was up does not end
    /// one a connect or a new timeout extended since it was read. `Stored` when this call
    /// removed it.
    async fn remove_as_read(&self, as_read: &E2bSandbox) -> DomainResult<Updated>;
    /// Everyone's sandboxes whose end time is at or before `now`.
    async fn ended_by(&self, now: DateTime<Utc>) -> DomainResult<Vec<E2bSandbox>>;
    /// Everyone's running (not paused) sandboxes.
    async fn running(&self) -> DomainResult<Vec<E2bSandboxId>>;
}

/// What a conditional [`E2bSandboxRepository::update`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Updated {
    Stored,
    /// Another change landed since the reading; nothing was stored.
    ChangedMeanwhile,
    /// The sandbox's record is gone (killed, or its time was up).
    Removed,
}

/// The sandboxes the E2B-compatible API rents: a session's sandbox, whose files outlive
/// its container so that a paused one comes back with them.
#[async_trait::async_trait]
pub trait PausableSandboxes: SandboxGateway {
    /// [`SandboxGateway::acquire`], for a template: with `warm_kernel` a sandbox made for
    /// it starts its code kernel at once (and may come ready from a pool of such).
    async fn acquire_for_code(
        &self,
        session: &SessionId,
        owner: &UserId,
        network: Option<Network>,
        warm_kernel: bool,
    ) -> DomainResult<SandboxAccess>;

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
