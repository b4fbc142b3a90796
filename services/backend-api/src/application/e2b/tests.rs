//! The service on the embedded store with a sandbox-manager stand-in that records what
//! it is asked: a sandbox ended or paused while it starts (which the sweep leaves alone,
//! whatever its timeout), and a connect that meets the sweep's pause, each made to land
//! at the worst moment. `racing.rs`: calls on a store where another's change lands just
//! before their own.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use chrono::{Duration, Utc};

use super::{E2bService, NewSandbox};
use crate::application::AppError;
use crate::domain::agent::{SandboxAccess, SandboxSize};
use crate::domain::e2b::{E2bMetrics, E2bSandbox, E2bSandboxId, E2bState, E2bTimeout, Template};
use crate::domain::ports::{
    E2bSandboxRepository, PausableSandboxes, SandboxEnvironment, SandboxGateway, Updated,
};
use crate::domain::session::{Network, SessionId};
use crate::domain::user::UserId;
use crate::domain::{DomainError, DomainResult};
use crate::infrastructure::embedded::EmbeddedStore;

/// Starts every sandbox, but first ends it as a kill would during the start (the record
/// removed), once it has seen the sweep leave it alone; counts the removals it is asked
/// for.
struct SlowStart {
    store: Arc<EmbeddedStore>,
    released: AtomicUsize,
}

#[async_trait::async_trait]
impl SandboxGateway for SlowStart {
    async fn acquire(
        &self,
        session: &SessionId,
        _owner: &UserId,
        _network: Option<Network>,
    ) -> DomainResult<SandboxAccess> {
        let id = E2bSandboxId::parse(session.as_str()).expect("a rented sandbox's session");
        assert!(
            self.store.ended_by(Utc::now()).await?.is_empty(),
            "a starting sandbox is not due"
        );
        assert!(
            self.store.remove(&id).await?,
            "the record was there while it started"
        );
        Ok(access())
    }

    async fn find(&self, _session: &SessionId) -> DomainResult<Option<SandboxAccess>> {
        Ok(None)
    }

    async fn release(&self, _session: &SessionId) -> DomainResult<()> {
        self.released.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

fn access() -> SandboxAccess {
    SandboxAccess {
        tool_api_url: "http://sandbox.invalid".into(),
        tool_api_token: "token".into(),
        shell: SandboxAccess::AGENT_SHELL.to_owned(),
        size: SandboxSize {
            cpus: 1.0,
            memory_mb: 512,
        },
    }
}

#[async_trait::async_trait]
impl PausableSandboxes for SlowStart {
    async fn acquire_for_code(
        &self,
        session: &SessionId,
        owner: &UserId,
        network: Option<Network>,
        _warm_kernel: bool,
    ) -> DomainResult<SandboxAccess> {
        self.acquire(session, owner, network).await
    }

    async fn stop(&self, _session: &SessionId) -> DomainResult<()> {
        Ok(())
    }
}

struct NoEnvironment;

#[async_trait::async_trait]
impl SandboxEnvironment for NoEnvironment {
    async fn set(&self, _sandbox: &SandboxAccess, _vars: &BTreeMap<String, String>) -> DomainResult<()> {
        Ok(())
    }

    async fn metrics(&self, _sandbox: &SandboxAccess) -> DomainResult<E2bMetrics> {
        Err(DomainError::Unavailable {
            what: "the sandbox",
            detail: "no sandbox in this test is read".into(),
        })
    }
}

/// A fresh embedded store, in a folder kept as long as the returned guard.
fn store() -> (tempfile::TempDir, Arc<EmbeddedStore>) {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    (dir, store)
}

/// What a caller asks for with a timeout of 0.
fn created_with_timeout_0(auto_pause: bool) -> NewSandbox {
    NewSandbox {
        template: Template::Base,
        timeout: E2bTimeout::parse(Some(0)).unwrap(),
        metadata: BTreeMap::new(),
        env_vars: BTreeMap::new(),
        network: Network::Internet,
        auto_pause,
    }
}

#[tokio::test]
async fn a_sandbox_ended_while_it_starts_is_removed_not_handed_out() {
    let (_dir, store) = store();
    let gateway = Arc::new(SlowStart {
        store: store.clone(),
        released: AtomicUsize::new(0),
    });
    let service = E2bService::new(
        store.clone(),
        store.clone(),
        gateway.clone(),
        Arc::new(NoEnvironment),
        "secret",
    );
    let owner = UserId::new();
    let refused = service
        .create(&owner, created_with_timeout_0(false))
        .await
        .err()
        .expect("no sandbox handed out");
    assert!(
        matches!(&refused, AppError::Gone(message) if message.contains("while it was starting")),
        "{refused}"
    );
    assert_eq!(
        gateway.released.load(Ordering::SeqCst),
        1,
        "its container was removed"
    );
    assert!(store.list(&owner).await.unwrap().is_empty());
}

/// A running sandbox of `owner` in `store`, ending at `end_at`, that pauses then.
async fn running(store: &EmbeddedStore, owner: &UserId, end_at: chrono::DateTime<Utc>) -> E2bSandbox {
    let sandbox = E2bSandbox {
        id: E2bSandboxId::new(),
        owner: owner.clone(),
        template: Template::Base,
        metadata: BTreeMap::new(),
        network: Network::Internet,
        cpu_count: 1,
        memory_mb: 512,
        started_at: Utc::now(),
        end_at,
        state: E2bState::Running,
        auto_pause: true,
        env_vars: BTreeMap::new(),
    };
    store.insert(&sandbox).await.unwrap();
    sandbox
}

/// A manager stand-in that logs what it is asked, and on the first acquire lets the
/// sweep pause the sandbox (record first, then its container), as it would when the
/// sandbox's time runs out while a connect waits for its container.
struct PausedWhileAcquired {
    store: Arc<EmbeddedStore>,
    log: Mutex<Vec<&'static str>>,
}

impl PausedWhileAcquired {
    fn log(&self) -> Vec<&'static str> {
        self.log.lock().unwrap().clone()
    }
}

#[async_trait::async_trait]
impl SandboxGateway for PausedWhileAcquired {
    async fn acquire(
        &self,
        session: &SessionId,
        _owner: &UserId,
        _network: Option<Network>,
    ) -> DomainResult<SandboxAccess> {
        let first = self.log.lock().unwrap().is_empty();
        self.log.lock().unwrap().push("acquire");
        if first {
            let id = E2bSandboxId::parse(session.as_str()).unwrap();
            let read = self.store.get(&id).await?.expect("the record");
            let mut paused = read.clone();
            paused.pause(Utc::now());
            assert_eq!(self.store.update(&paused, &read).await?, Updated::Stored);
            self.stop(session).await?;
        }
        Ok(access())
    }

    async fn find(&self, _session: &SessionId) -> DomainResult<Option<SandboxAccess>> {
        Ok(None)
    }

    async fn release(&self, _session: &SessionId) -> DomainResult<()> {
        self.log.lock().unwrap().push("release");
        Ok(())
    }
}

#[async_trait::async_trait]
impl PausableSandboxes for PausedWhileAcquired {
    async fn acquire_for_code(
        &self,
        session: &SessionId,
        owner: &UserId,
        network: Option<Network>,
        _warm_kernel: bool,
    ) -> DomainResult<SandboxAccess> {
        self.acquire(session, owner, network).await
    }

    async fn stop(&self, _session: &SessionId) -> DomainResult<()> {
        self.log.lock().unwrap().push("stop");
        Ok(())
    }
}

/// A store, [`PausedWhileAcquired`] on it, and the service on both.
struct Fixture {
    _dir: tempfile::TempDir,
    store: Arc<EmbeddedStore>,
    gateway: Arc<PausedWhileAcquired>,
}

impl Fixture {
    fn new() -> Self {
        let (_dir, store) = store();
        let gateway = Arc::new(PausedWhileAcquired {
            store: store.clone(),
            log: Mutex::new(Vec::new()),
        });
        Self { _dir, store, gateway }
    }

    /// The service on the store as it is.
    fn service(&self) -> E2bService {
        self.service_on(self.store.clone())
    }

    pub(super) fn service_on(&self, sandboxes: Arc<dyn E2bSandboxRepository>) -> E2bService {
        E2bService::new(
            sandboxes,
            self.store.clone(),
            self.gateway.clone(),
            Arc::new(NoEnvironment),
            "secret",
        )
    }
}

/// A connect whose sandbox the sweep paused while it was acquired does not write
/// "running" over the pause (its container is gone): it acquires again.
#[tokio::test]
async fn a_connect_that_meets_the_sweeps_pause_acquires_the_sandbox_again() {
    let fixture = Fixture::new();
    let (store, gateway, service) = (&fixture.store, &fixture.gateway, fixture.service());
    let owner = UserId::new();
    let sandbox = running(store, &owner, Utc::now() + Duration::seconds(60)).await;

    let connected = service
        .connect(&owner, sandbox.id.as_str(), E2bTimeout::parse(Some(300)).unwrap())
        .await
        .unwrap();
    assert_eq!(
        gateway.log(),
        ["acquire", "stop", "acquire"],
        "acquired again after the pause"
    );
    assert!(connected.resumed, "it was paused when it was acquired again");
    let stored = store.get(&sandbox.id).await.unwrap().unwrap();
    assert_eq!(stored.state, E2bState::Running);
    assert!(stored.end_at >= Utc::now() + Duration::seconds(290), "{stored:?}");
}

/// A sandbox paused while it starts (its container stopped, maybe before there was one)
/// is not recorded running over the pause: it is removed, container and all.
#[tokio::test]
async fn a_sandbox_paused_while_it_starts_is_removed_not_handed_out() {
    let fixture = Fixture::new();
    let (store, gateway, service) = (&fixture.store, &fixture.gateway, fixture.service());
    let owner = UserId::new();
    let refused = service.create(&owner, created_with_timeout_0(true)).await.err();
    assert!(matches!(refused, Some(AppError::Gone(_))), "{refused:?}");
    assert_eq!(gateway.log(), ["acquire", "stop", "release"]);
    assert!(store.list(&owner).await.unwrap().is_empty());
}

mod owners;
mod racing;
