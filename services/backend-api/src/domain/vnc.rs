//! Watching and taking over a session's desktop: the two ways to use it, whether it
//! runs, and the port that connects to a sandbox's VNC server.

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncRead, AsyncWrite};
use utoipa::ToSchema;

use super::agent::SandboxAccess;
use super::error::DomainResult;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum VncMode {
    /// Watch only: the person's keyboard and mouse never reach the desktop.
    View,
    /// Take over: input goes through, and the agent pauses until the person lets go.
    Control,
}

/// Whether a session's desktop runs: what the person's panel asks before it connects,
/// since connecting starts the desktop (and the sandbox, when the session has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DesktopState {
    /// The session has no sandbox now (none yet, or removed after its idle time-out).
    NoSandbox,
    /// The sandbox runs without its desktop: the agent's next browser call or a
    /// connection starts it.
    Stopped,
    /// Started; not every part answers yet.
    Starting,
    /// Up, with its screen, VNC server and browser answering.
    Running,
    /// The sandbox has no desktop at all (disabled in its configuration).
    Disabled,
}

/// A byte stream to a sandbox's VNC server, already past its authentication: the next
/// byte the server reads is the client's `ClientInit`.
pub trait DesktopStream: AsyncRead + AsyncWrite + Send + Unpin {}

impl<T: AsyncRead + AsyncWrite + Send + Unpin> DesktopStream for T {}

/// Opens authenticated connections to sandboxes' VNC servers (the password stays here).
#[async_trait::async_trait]
pub trait DesktopConnector: Send + Sync {
    /// `Unavailable` when the sandbox has no desktop or does not answer, `Internal` when
    /// it refuses the password.
    async fn connect(&self, sandbox: &SandboxAccess) -> DomainResult<Box<dyn DesktopStream>>;
    /// Whether the sandbox's desktop runs, without starting it; `Unavailable` when the
    /// sandbox does not answer.
    async fn state(&self, sandbox: &SandboxAccess) -> DomainResult<DesktopState>;
}
