//! A timeout of 0 whose sandbox the sweep reaches first: the sweep has changed the record
//! but may not have stopped or removed the container yet, so the call does that too
//! before it answers.

use std::sync::{Arc, Mutex};

use chrono::{Duration, Utc};

use super::{running, NoEnvironment, PausedWhileAcquired};
use crate::application::e2b::E2bService;
use crate::domain::e2b::{E2bSandbox, E2bSandboxId, E2bState, E2bTimeout};
use crate::domain::ports::{E2bSandboxRepository, Updated};
use crate::domain::user::UserId;
use crate::domain::DomainResult;
use crate::infrastructure::embedded::EmbeddedStore;

/// The store as a call racing the sweep sees it: just before its pause or removal lands,
/// the sweep's lands (and the sweep has not yet reached the container).
struct SweptFirst(Arc<EmbeddedStore>);

#[async_trait::async_trait]
impl E2bSandboxRepository for SweptFirst {
    async fn insert(&self, sandbox: &E2bSandbox) -> DomainResult<()> {
        self.0.insert(sandbox).await
    }
    async fn get(&self, id: &E2bSandboxId) -> DomainResult<Option<E2bSandbox>> {
        self.0.get(id).await
    }
    async fn list(&self, owner: &UserId) -> DomainResult<Vec<E2bSandbox>> {
        self.0.list(owner).await
    }
    async fn update(&self, sandbox: &E2bSandbox, as_read: &E2bSandbox) -> DomainResult<Updated> {
        if sandbox.state == E2bState::Paused {
            let mut swept = as_read.clone();
            swept.pause(Utc::now() - Duration::seconds(1));
            assert_eq!(self.0.update(&swept, as_read).await?, Updated::Stored);
        }
        self.0.update(sandbox, as_read).await
    }
    async fn remove(&self, id: &E2bSandboxId) -> DomainResult<bool> {
        assert!(self.0.remove(id).await?);
        self.0.remove(id).await
    }
    async fn ended_by(&self, now: chrono::DateTime<Utc>) -> DomainResult<Vec<E2bSandbox>> {
        self.0.ended_by(now).await
    }
    async fn running(&self) -> DomainResult<Vec<E2bSandboxId>> {
        self.0.running().await
    }
}

#[tokio::test]
async fn a_timeout_of_0_stops_or_removes_the_container_also_when_the_sweep_got_there_first() {
    for auto_pause in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
        let gateway = Arc::new(PausedWhileAcquired {
            store: store.clone(),
            log: Mutex::new(Vec::new()),
        });
        let service = E2bService::new(
            Arc::new(SweptFirst(store.clone())),
            gateway.clone(),
            Arc::new(NoEnvironment),
            "secret",
        );
        let owner = UserId::new();
        let mut sandbox = running(&store, &owner, Utc::now() + Duration::seconds(60)).await;
        sandbox.auto_pause = auto_pause;
        let read = store.get(&sandbox.id).await.unwrap().unwrap();
        assert_eq!(store.update(&sandbox, &read).await.unwrap(), Updated::Stored);

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
