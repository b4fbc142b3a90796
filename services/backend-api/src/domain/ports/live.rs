//! The ports a person uses a sandbox through live: its desktop (VNC) and its terminal.

use tokio::io::{AsyncRead, AsyncWrite};

use crate::domain::agent::SandboxAccess;
use crate::domain::error::DomainResult;
use crate::domain::terminal::{TerminalChannel, TerminalSize};
use crate::domain::vnc::DesktopState;

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

/// Opens terminals in sandboxes (a new shell each time).
#[async_trait::async_trait]
pub trait TerminalConnector: Send + Sync {
    /// `Unavailable` when the sandbox does not answer.
    async fn open(&self, sandbox: &SandboxAccess, size: TerminalSize) -> DomainResult<TerminalChannel>;
}
