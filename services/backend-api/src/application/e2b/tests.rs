//! The service on the embedded store with a sandbox-manager stand-in that records what
//! it is asked: a sandbox whose time runs out while it starts.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use super::{E2bService, NewSandbox};
use crate::application::AppError;
use crate::domain::agent::{SandboxAccess, SandboxSize};
use crate::domain::e2b::{E2bMetrics, E2bSandboxId, E2bTimeout, Template};
use crate::domain::ports::{E2bSandboxRepository, PausableSandboxes, SandboxEnvironment, SandboxGateway};
use crate::domain::session::{Network, SessionId};
use crate::domain::user::UserId;
use crate::domain::{DomainError, DomainResult};
use crate::infrastructure::embedded::EmbeddedStore;

/// Starts every sandbox, but first ends it as the sweep would when its time runs out
/// during the start (the record removed); counts the removals it is asked for.
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
            self.store.remove(&id).await?,
            "the record was there while it started"
        );
        Ok(SandboxAccess {
            tool_api_url: "http://sandbox.invalid".into(),
            tool_api_token: "token".into(),
            shell: SandboxAccess::AGENT_SHELL.to_owned(),
            size: SandboxSize {
                cpus: 1.0,
                memory_mb: 512,
            },
        })
    }

    async fn find(&self, _session: &SessionId) -> DomainResult<Option<SandboxAccess>> {
        Ok(None)
    }

    async fn release(&self, _session: &SessionId) -> DomainResult<()> {
        self.released.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

#[async_trait::async_trait]
impl PausableSandboxes for SlowStart {
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

#[tokio::test]
async fn a_sandbox_whose_time_runs_out_while_it_starts_is_removed_not_handed_out() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let gateway = Arc::new(SlowStart {
        store: store.clone(),
        released: AtomicUsize::new(0),
    });
    let service = E2bService::new(store.clone(), gateway.clone(), Arc::new(NoEnvironment), "secret");
    let owner = UserId::new();
    let new = NewSandbox {
        template: Template::Base,
        timeout: E2bTimeout::parse(Some(1)).unwrap(),
        metadata: BTreeMap::new(),
        env_vars: BTreeMap::new(),
        network: Network::Internet,
        auto_pause: false,
    };
    let refused = service
        .create(&owner, new)
        .await
        .err()
        .expect("no sandbox handed out");
    assert!(
        matches!(&refused, AppError::Gone(message) if message.contains("longer timeout")),
        "{refused}"
    );
    assert_eq!(
        gateway.released.load(Ordering::SeqCst),
        1,
        "its container was removed"
    );
    assert!(store.list(&owner).await.unwrap().is_empty());
}
