//! Opening a terminal in a sandbox: a WebSocket to tool-api's `/v1/shell/terminal`
//! (tokio-tungstenite), with the sandbox's bearer token, turned into the domain's
//! frames. tool-api starts the shell before it answers the upgrade, so a refusal arrives
//! as an ordinary HTTP error with its JSON body.

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tool_api_client::contract::ErrorBody;
use tool_api_client::ToolApiClient;

use crate::domain::agent::SandboxAccess;
use crate::domain::ports::TerminalConnector;
use crate::domain::terminal::{TerminalChannel, TerminalFrame, TerminalSize};
use crate::domain::{DomainError, DomainResult};

/// Connecting plus starting the shell; tool-api answers in milliseconds when it is up.
const OPEN_TIMEOUT: Duration = Duration::from_secs(10);

pub struct ToolApiTerminals;

fn unavailable(detail: impl Into<String>) -> DomainError {
    DomainError::Unavailable {
        what: "the sandbox's terminal",
        detail: detail.into(),
    }
}

#[async_trait::async_trait]
impl TerminalConnector for ToolApiTerminals {
    async fn open(&self, sandbox: &SandboxAccess, size: TerminalSize) -> DomainResult<TerminalChannel> {
        let tools = ToolApiClient::new(&sandbox.tool_api_url, &sandbox.tool_api_token);
        let url = tools.terminal_url(size.cols(), size.rows());
        let mut request = url
            .as_str()
            .into_client_request()
            .map_err(|err| DomainError::Internal(anyhow::anyhow!("terminal URL {url}: {err}")))?;
        let bearer = HeaderValue::from_str(&format!("Bearer {}", tools.token()))
            .map_err(|err| DomainError::Internal(anyhow::anyhow!("the sandbox's token: {err}")))?;
        request.headers_mut().insert("authorization", bearer);
        let socket = match tokio::time::timeout(OPEN_TIMEOUT, tokio_tungstenite::connect_async(request)).await
        {
            Ok(Ok((socket, _))) => socket,
            Ok(Err(WsError::Http(response))) => {
                return Err(refusal(&url, response.status().as_u16(), response.body()))
            }
            Ok(Err(err)) => return Err(unavailable(format!("connecting to {url}: {err}"))),
            Err(_) => return Err(unavailable(format!("{url} did not open a terminal in time"))),
        };
        let (sink, mut stream) = socket.split();
        let output = async_stream::stream! {
            while let Some(Ok(message)) = stream.next().await {
                match message {
                    Message::Binary(data) => yield TerminalFrame::Data(data),
                    Message::Text(text) => yield TerminalFrame::Control(text.as_str().to_owned()),
                    Message::Close(_) => break,
                    Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => {}
                }
            }
        };
        let input = sink
            .sink_map_err(|err| unavailable(format!("writing to the terminal: {err}")))
            .with(|frame: TerminalFrame| {
                futures::future::ready(Ok(match frame {
                    TerminalFrame::Data(data) => Message::Binary(data),
                    TerminalFrame::Control(text) => Message::Text(text.into()),
                }))
            });
        Ok(TerminalChannel {
            output: output.boxed(),
            input: Box::pin(input),
        })
    }
}

/// tool-api said no: a size it refuses is the caller's mistake, a sandbox that is busy or
/// still starting may answer later, anything else is ours.
fn refusal(url: &str, status: u16, body: &Option<Vec<u8>>) -> DomainError {
    let message = body
        .as_deref()
        .and_then(|body| serde_json::from_slice::<ErrorBody>(body).ok())
        .map(|body| body.error.message)
        .unwrap_or_else(|| format!("HTTP {status}"));
    match status {
        422 => DomainError::Invalid(message),
        429 | 500.. => unavailable(format!("{url} answered {status}: {message}")),
        _ => DomainError::Internal(anyhow::anyhow!(
            "{url} refused the terminal ({status}): {message}"
        )),
    }
}
