//! Connecting to a sandbox's VNC server through its tool-api (`GET /v1/desktop/vnc`,
//! upgraded to raw RFB, behind the sandbox's token) and passing the RFB 3.8 security
//! handshake. x11vnc asks no password there (security type None): it listens on the
//! sandbox's loopback, and the tool-api's token is the lock. The stream comes back
//! positioned before `ClientInit`, so the relay offers the browser a connection of its
//! own without a password.
//!
//! Whether the desktop runs is read from the tool-api's `/health`, which reports it
//! without starting it.

use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tool_api_client::contract::info::DesktopState as ToolApiDesktop;
use tool_api_client::{ClientError, ToolApiClient};

use crate::domain::agent::SandboxAccess;
use crate::domain::ports::{DesktopConnector, DesktopStream};
use crate::domain::vnc::DesktopState;
use crate::domain::{DomainError, DomainResult};

/// Connect plus handshake; a VNC server that is up answers in milliseconds.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// A sandbox's `/health` answers at once; one that does not is as good as down.
const STATE_TIMEOUT: Duration = Duration::from_secs(5);

const SECURITY_NONE: u8 = 1;

pub struct VncConnector;

fn no_desktop(detail: impl Into<String>) -> DomainError {
    DomainError::Unavailable {
        what: "the sandbox's desktop",
        detail: detail.into(),
    }
}

#[async_trait::async_trait]
impl DesktopConnector for VncConnector {
    async fn connect(&self, sandbox: &SandboxAccess) -> DomainResult<Box<dyn DesktopStream>> {
        let tools = ToolApiClient::new(&sandbox.tool_api_url, &sandbox.tool_api_token);
        let handshake = async {
            let mut stream = tools.vnc().await?;
            agree_on_no_password(&mut stream).await?;
            Ok::<_, Handshake>(stream)
        };
        match tokio::time::timeout(HANDSHAKE_TIMEOUT, handshake).await {
            Ok(Ok(stream)) => Ok(Box::new(stream)),
            Ok(Err(Handshake::Unreachable(err))) => Err(no_desktop(err.to_string())),
            Ok(Err(Handshake::Io(err))) => Err(no_desktop(format!("the VNC stream broke: {err}"))),
            Ok(Err(Handshake::Refused(why))) => Err(DomainError::Internal(anyhow::anyhow!(
                "the sandbox's VNC server refused the handshake: {why}"
            ))),
            Err(_) => Err(no_desktop("the VNC handshake did not complete in time")),
        }
    }

    async fn state(&self, sandbox: &SandboxAccess) -> DomainResult<DesktopState> {
        let tools = ToolApiClient::new(&sandbox.tool_api_url, &sandbox.tool_api_token);
        let health = tokio::time::timeout(STATE_TIMEOUT, tools.health())
            .await
            .map_err(|_| no_sandbox("its health check did not answer in time".into()))?
            .map_err(|err| no_sandbox(err.to_string()))?;
        Ok(match health.desktop.map(|desktop| desktop.state) {
            None => DesktopState::Disabled,
            Some(ToolApiDesktop::Stopped) => DesktopState::Stopped,
            Some(ToolApiDesktop::Starting) => DesktopState::Starting,
            Some(ToolApiDesktop::Ready) => DesktopState::Running,
        })
    }
}

fn no_sandbox(detail: String) -> DomainError {
    DomainError::Unavailable {
        what: "the sandbox",
        detail,
    }
}

enum Handshake {
    Unreachable(ClientError),
    Io(std::io::Error),
    Refused(String),
}

impl From<ClientError> for Handshake {
    fn from(err: ClientError) -> Self {
        Self::Unreachable(err)
    }
}

impl From<std::io::Error> for Handshake {
    fn from(err: std::io::Error) -> Self {
        Self::Io(err)
    }
}

async fn agree_on_no_password(stream: &mut (impl AsyncRead + AsyncWrite + Unpin)) -> Result<(), Handshake> {
    let mut version = [0u8; 12];
    stream.read_exact(&mut version).await?;
    if !version.starts_with(b"RFB 003.") || version.as_slice() < b"RFB 003.008\n".as_slice() {
        return Err(Handshake::Refused(format!(
            "it speaks {:?}, not RFB 3.8",
            String::from_utf8_lossy(&version)
        )));
    }
    stream.write_all(b"RFB 003.008\n").await?;
    let count = stream.read_u8().await?;
    if count == 0 {
        return Err(Handshake::Refused(reason(stream).await?));
    }
    let mut types = vec![0u8; usize::from(count)];
    stream.read_exact(&mut types).await?;
    if !types.contains(&SECURITY_NONE) {
        return Err(Handshake::Refused(format!(
            "it wants a password (security types {types:?}); the sandbox image is older than this backend"
        )));
    }
    stream.write_u8(SECURITY_NONE).await?;
    if stream.read_u32().await? != 0 {
        return Err(Handshake::Refused(reason(stream).await?));
    }
    Ok(())
}

/// A failure reason: a length, then that many bytes of text.
async fn reason(stream: &mut (impl AsyncRead + Unpin)) -> std::io::Result<String> {
    let length = stream.read_u32().await?.min(4096);
    let mut text = vec![0u8; length as usize];
    stream.read_exact(&mut text).await?;
    Ok(String::from_utf8_lossy(&text).into_owned())
}
