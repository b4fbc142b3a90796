//! Calls that race the sweep, each on a store where the other's change lands just before
//! the call's own: the sweep's pause after a connect extended the sandbox, and a timeout
//! of 0 whose sandbox the sweep reached first (the sweep has changed the record but may
//! not have stopped or removed the container yet, so the call does that too before it
//! answers).

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};

use super::{running, Fixture};
use crate::application::e2b::E2bService;
use crate::domain::e2b::{E2bSandbox, E2bSandboxId, E2bState, E2bTimeout};
use crate::domain::ports::{E2bSandboxRepository, Updated};
use crate::domain::user::UserId;
use crate::domain::DomainResult;
use crate::infrastructure::embedded::EmbeddedStore;

/// Whose change lands just before a call's pause (or removal) is stored.
enum Race {
    /// A connect's: running on, with a later end (also before the sweep's end).
    Connect,
    /// The sweep's: the sandbox paused, or removed before a removal (its container not
    /// reached yet).
    Sweep,
}

/// The store as a call racing [`Race`] sees it.
struct Racing {
    store: Arc<EmbeddedStore>,
    first: Race,
}

#[async_trait::async_trait]
impl E2bSandboxRepository for Racing {
    async fn insert(&self, sandbox: &E2bSandbox) -> DomainResult<()> {
        self.store.insert(sandbox).await
    }
    async fn get(&self, id: &E2bSandboxId) -> DomainResult<Option<E2bSandbox>> {
        self.store.get(id).await
    }
    async fn list(&self, owner: &UserId) -> DomainResult<Vec<E2bSandbox>> {
        self.store.list(owner).await
    }
    async fn update(&self, sandbox: &E2bSandbox, as_read: &E2bSandbox) -> DomainResult<Updated> {
        if sandbox.state == E2bState::Paused {
            self.land_first(as_read).await?;
        }
        self.store.update(sandbox, as_read).await
    }
    async fn remove(&self, id: &E2bSandboxId) -> DomainResult<bool> {
        if matches!(self.first, Race::Sweep) {
            assert!(self.store.remove(id).await?);
        }
        self.store.remove(id).await
    }
    async fn remove_as_read(&self, as_read: &E2bSandbox) -> DomainResult<Updated> {
        if matches!(self.first, Race::Connect) {
            self.land_first(as_read).await?;
        }
        self.store.remove_as_read(as_read).await
    }
    async fn ended_by(&self, now: chrono::DateTime<Utc>) -> DomainResult<Vec<E2bSandbox>> {
        self.store.ended_by(now).await
    }
    async fn running(&self) -> DomainResult<Vec<E2bSandboxId>> {
        self.store.running().await
    }
}

impl Racing {
    /// Stores the racing change over `as_read`, as if it had landed just before.
    async fn land_first(&self, as_read: &E2bSandbox) -> DomainResult<()> {
        let mut first = as_read.clone();
        match self.first {
            Race::Connect => first.end_at = Utc::now() + Duration::seconds(300),
            Race::Sweep => first.pause(Utc::now() - Duration::seconds(1)),
        }
        assert_eq!(self.store.update(&first, as_read).await?, Updated::Stored);
        Ok(())
    }
}

/// The sweep neither pauses nor ends a sandbox a connect extended after the sweep read it.
#[tokio::test]
async fn the_sweep_leaves_a_sandbox_connected_since_it_was_read_running() {
    for auto_pause in [true, false] {
        let fixture = Fixture::new();
        let (store, gateway, service) = (&fixture.store, &fixture.gateway, fixture.racing(Race::Connect));
        let sandbox = pausing_or_not(store, auto_pause, Utc::now() - Duration::seconds(5)).await;

        assert_eq!(service.end_overdue(Utc::now()).await.unwrap(), 0);
        assert!(
            gateway.log().is_empty(),
            "auto_pause {auto_pause}: its container was left alone: {:?}",
            gateway.log()
        );
        let stored = store.get(&sandbox.id).await.unwrap().expect("still recorded");
        assert_eq!(stored.state, E2bState::Running);
        assert!(stored.end_at > Utc::now(), "{stored:?}");
    }
}

/// A running sandbox of a new owner, ending at `end_at`, that pauses then or not.
async fn pausing_or_not(store: &EmbeddedStore, auto_pause: bool, end_at: DateTime<Utc>) -> E2bSandbox {
    let mut sandbox = running(store, &UserId::new(), end_at).await;
    sandbox.auto_pause = auto_pause;
    let read = store.get(&sandbox.id).await.unwrap().unwrap();
    assert_eq!(store.update(&sandbox, &read).await.unwrap(), Updated::Stored);
    sandbox
}

impl Fixture {
    /// The service on the store as a call racing `first` sees it.
    fn racing(&self, first: Race) -> E2bService {
        self.service_on(Arc::new(Racing {
            store: self.store.clone(),
            first,
        }))
    }
}

#[tokio::test]
async fn a_timeout_of_0_stops_or_removes_the_container_also_when_the_sweep_got_there_first() {
    for auto_pause in [true, false] {
        let fixture = Fixture::new();
        let (store, gateway, service) = (&fixture.store, &fixture.gateway, fixture.racing(Race::Sweep));
        let sandbox = pausing_or_not(store, auto_pause, Utc::now() + Duration::seconds(60)).await;
        let owner = sandbox.owner.clone();

        let now = E2bTimeout::parse(Some(0)).unwrap();
        service
            .set_timeout(&owner, sandbox.id.as_str(), now)
            .await
            .unwrap();
        let (done, state) = match auto_pause {
            true => ("stop", Some(E2bState::Paused)),
            false => ("release", None),
        };
        assert_eq!(gateway.log(), [done], "auto_pause: {auto_pause}");
        let stored = store.get(&sandbox.id).await.unwrap();
        assert_eq!(stored.map(|sandbox| sandbox.state), state);
    }
}
