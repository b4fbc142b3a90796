//! A data-plane request is admitted only while the sandbox's owner is active: checked
//! whenever the sandbox is looked up (not answered from the moment's cache), so a token
//! stops working even where ending the owner's sandboxes did not happen.

use super::*;
use crate::domain::ports::UserRepository;
use crate::domain::user::{Email, Role, User};

/// Starts every sandbox and finds it running.
struct Running;

#[async_trait::async_trait]
impl SandboxGateway for Running {
    async fn acquire(&self, _: &SessionId, _: &UserId, _: Option<Network>) -> DomainResult<SandboxAccess> {
        Ok(access())
    }

    async fn find(&self, _session: &SessionId) -> DomainResult<Option<SandboxAccess>> {
        Ok(Some(access()))
    }

    async fn release(&self, _session: &SessionId) -> DomainResult<()> {
        Ok(())
    }
}

#[async_trait::async_trait]
impl PausableSandboxes for Running {
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

#[tokio::test]
async fn a_token_is_refused_once_its_sandboxes_owner_is_inactive() {
    let (_dir, store) = store();
    let service = E2bService::new(
        store.clone(),
        store.clone(),
        Arc::new(Running),
        Arc::new(NoEnvironment),
        "secret",
    );
    let mut owner = User {
        id: UserId::new(),
        email: Email::parse("ada@example.org").unwrap(),
        password_hash: String::new(),
        role: Role::User,
        active: true,
        created_at: Utc::now(),
    };
    UserRepository::insert(&*store, &owner).await.unwrap();
    let mut new = created_with_timeout_0(false);
    new.timeout = E2bTimeout::parse(Some(600)).unwrap();
    let (sandbox, tokens) = service.create(&owner.id, new).await.unwrap();
    let id = sandbox.id.as_str().to_owned();
    assert!(service.admit(&id, Some(&tokens.access), None).await.is_ok());

    owner.active = false;
    UserRepository::update(&*store, &owner).await.unwrap();
    // Looked up again, as on another replica or after the moment's cache.
    service.unreachable(&id);
    let refused = service.admit(&id, Some(&tokens.access), None).await.unwrap_err();
    assert!(
        matches!(&refused, AppError::Unauthorized(why) if why.contains("deactivated")),
        "{refused:?}"
    );
}
