//! Sandboxes from the sandbox-manager: a session's sandbox is created (or claimed from
//! the warm pool, or the existing one returned) on first use and removed with the
//! session; looking for it (`find`) never creates one. Without a configured manager,
//! sessions simply have no sandbox: acquiring one fails with a message saying what to
//! set, finding one finds none, and releasing has nothing to do. The E2B-compatible
//! API's sandboxes keep their files on a volume of their own, so that stopping one (its
//! pause) leaves them for the session's next sandbox.

use sandbox_manager_client::contract::{
    CreateSandbox, ErrorCode, ListQuery, NetworkMode, Sandbox, SandboxState, StorageKind,
};
use sandbox_manager_client::{ClientError, SandboxManagerClient};

use crate::domain::agent::{SandboxAccess, SandboxSize};
use crate::domain::ports::{PausableSandboxes, SandboxGateway};
use crate::domain::session::{Network, SessionId};
use crate::domain::user::UserId;
use crate::domain::{DomainError, DomainResult};

#[derive(Clone)]
pub struct ManagedSandboxes {
    client: SandboxManagerClient,
    /// `None`: the manager's configured storage.
    storage: Option<StorageKind>,
    /// The caller ends its sandboxes itself, so the idle time-out does not.
    keep_while_idle: bool,
}

impl ManagedSandboxes {
    pub fn new(url: &str, token: &str) -> Self {
        Self {
            client: SandboxManagerClient::new(url, token),
            storage: None,
            keep_while_idle: false,
        }
    }

    /// The same manager, asked for the E2B API's sandboxes: their files on a volume
    /// that outlives the container, whatever the manager's default storage (so claimed
    /// only from a pool whose sandboxes have volumes: the code pool for the code
    /// interpreter's, the light pool for the others when the manager's default storage
    /// is a volume), and not ended by the idle time-out, as their end is the E2B timeout
    /// the backend keeps.
    pub fn keeping_files(&self) -> Self {
        Self {
            client: self.client.clone(),
            storage: Some(StorageKind::Volume),
            keep_while_idle: true,
        }
    }

    /// The session's sandbox, created with `network` (`None`: the manager's default)
    /// and, with `warm_kernel`, its code kernel started, unless it exists already.
    async fn create(
        &self,
        session: &SessionId,
        owner: &UserId,
        network: Option<Network>,
        warm_kernel: bool,
    ) -> DomainResult<SandboxAccess> {
        let request = CreateSandbox {
            session_id: session.as_str().to_owned(),
            owner: owner.as_str().to_owned(),
            network: network.map(|network| match network {
                Network::Internet => NetworkMode::Internet,
                Network::Offline => NetworkMode::Offline,
            }),
            storage: self.storage,
            keep_while_idle: self.keep_while_idle,
            warm_kernel,
            ..Default::default()
        };
        let sandbox = self.client.create(&request).await.map_err(failure)?;
        let (id, state) = (sandbox.id.clone(), sandbox.state);
        access(sandbox).ok_or_else(|| DomainError::Unavailable {
            what: "the sandbox",
            detail: format!("sandbox {id} is {state:?} without a tool-api address"),
        })
    }

    fn of_session(session: &SessionId) -> ListQuery {
        ListQuery {
            session_id: Some(session.as_str().to_owned()),
            ..Default::default()
        }
    }
}

fn access(sandbox: Sandbox) -> Option<SandboxAccess> {
    let tool_api = sandbox.tool_api?;
    Some(SandboxAccess {
        tool_api_url: tool_api.url,
        tool_api_token: tool_api.token,
        shell: SandboxAccess::AGENT_SHELL.to_owned(),
        size: SandboxSize {
            cpus: sandbox.limits.cpus,
            memory_mb: sandbox.limits.memory_mb,
        },
    })
}

fn failure(err: ClientError) -> DomainError {
    match err {
        ClientError::Api { status: 429, body } => DomainError::TooMany(body.error.message),
        ClientError::Api { status: 409, body } => DomainError::Conflict(body.error.message),
        ClientError::Api { status, body } if status < 500 => DomainError::Invalid(body.error.message),
        other => DomainError::Unavailable {
            what: "the sandbox-manager",
            detail: other.to_string(),
        },
    }
}

#[async_trait::async_trait]
impl SandboxGateway for ManagedSandboxes {
    async fn acquire(
        &self,
        session: &SessionId,
        owner: &UserId,
        network: Option<Network>,
    ) -> DomainResult<SandboxAccess> {
        self.create(session, owner, network, false).await
    }

    async fn find(&self, session: &SessionId) -> DomainResult<Option<SandboxAccess>> {
        let sandboxes = self
            .client
            .list(&Self::of_session(session))
            .await
            .map_err(failure)?;
        Ok(sandboxes
            .into_iter()
            .filter(|sandbox| sandbox.state == SandboxState::Ready)
            .find_map(access))
    }

    async fn release(&self, session: &SessionId) -> DomainResult<()> {
        for sandbox in self
            .client
            .list(&Self::of_session(session))
            .await
            .map_err(failure)?
        {
            match self.client.delete(&sandbox.id).await {
                Ok(()) => {}
                Err(err) if err.code() == Some(ErrorCode::NotFound) => {}
                Err(err) => return Err(failure(err)),
            }
        }
        Ok(())
    }
}

/// No sandbox-manager configured.
pub struct NoSandboxes;

#[async_trait::async_trait]
impl SandboxGateway for NoSandboxes {
    async fn acquire(
        &self,
        _session: &SessionId,
        _owner: &UserId,
        _network: Option<Network>,
    ) -> DomainResult<SandboxAccess> {
        Err(no_manager())
    }

    async fn find(&self, _session: &SessionId) -> DomainResult<Option<SandboxAccess>> {
        Ok(None)
    }

    async fn release(&self, _session: &SessionId) -> DomainResult<()> {
        Ok(())
    }
}

fn no_manager() -> DomainError {
    DomainError::Unavailable {
        what: "the sandbox",
        detail: "no sandbox-manager is configured: set SANDBOX_MANAGER_URL and SANDBOX_MANAGER_TOKEN".into(),
    }
}

#[async_trait::async_trait]
impl PausableSandboxes for ManagedSandboxes {
    async fn acquire_for_code(
        &self,
        session: &SessionId,
        owner: &UserId,
        network: Option<Network>,
        warm_kernel: bool,
    ) -> DomainResult<SandboxAccess> {
        self.create(session, owner, network, warm_kernel).await
    }

    async fn stop(&self, session: &SessionId) -> DomainResult<()> {
        for sandbox in self
            .client
            .list(&Self::of_session(session))
            .await
            .map_err(failure)?
        {
            match self.client.stop(&sandbox.id).await {
                Ok(_) => {}
                Err(err) if err.code() == Some(ErrorCode::NotFound) => {}
                Err(err) => return Err(failure(err)),
            }
        }
        Ok(())
    }
}

#[async_trait::async_trait]
impl PausableSandboxes for NoSandboxes {
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
