//! Watching and taking over a session's desktop: the two ways to use it, and the port
//! that connects to a sandbox's VNC server.

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
}
