//! MCP stdio servers run in the sandbox and relayed over a WebSocket
//! (`GET /v1/mcp/stdio`; the wire is described in `tool_api_contract::mcp`).
//!
//! [`ToolApiClient::mcp_stdio`] does the start exchange; the [`McpStdio`] it returns
//! splits into a [`StdioSink`] of outgoing JSON-RPC messages and a [`StdioStream`] of
//! incoming ones, one message per item, ready for an MCP client's sink/stream transport.
//! When the stream ends, its [`CloseReason`] says why, e.g. "exited with status 1: …".

use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};

use futures::stream::{SplitSink, SplitStream};
use futures::{Sink, SinkExt, Stream, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use tool_api_contract::mcp::{StdioReply, StdioStart};

use crate::{ClientError, ClientResult, ToolApiClient};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The close code of a connection that ended without a close frame.
const ABNORMAL: u16 = 1006;

impl ToolApiClient {
    /// Starts `start` as an MCP stdio server in the sandbox and connects to it.
    ///
    /// Errors: [`ClientError::Api`] when tool-api refuses the upgrade (`429 limit_reached`
    /// when the sandbox runs its most stdio servers), [`ClientError::StdioStart`] when the
    /// process could not be started, [`ClientError::WebSocket`] when the connection failed.
    pub async fn mcp_stdio(&self, start: &StdioStart) -> ClientResult<McpStdio> {
        let mut request = self.ws_url("/v1/mcp/stdio").into_client_request()?;
        let bearer = HeaderValue::from_str(&format!("Bearer {}", self.endpoint.token()))
            .map_err(|err| WsError::HttpFormat(err.into()))?;
        request.headers_mut().insert("authorization", bearer);
        let mut socket = match tokio_tungstenite::connect_async(request).await {
            Ok((socket, _)) => socket,
            Err(WsError::Http(response)) => {
                let body = response.body().as_deref().unwrap_or_default();
                return Err(client_kit::refusal(response.status().as_u16(), body));
            }
            Err(err) => return Err(err.into()),
        };
        // Strings only: serializing cannot fail.
        let start = serde_json::to_string(start).unwrap_or_default();
        socket.send(Message::Text(start.into())).await?;
        match first_reply(&mut socket).await? {
            StdioReply::Started { pid } => Ok(McpStdio { pid, socket }),
            StdioReply::Failed { message } => Err(ClientError::StdioStart(message)),
        }
    }
}

async fn first_reply(socket: &mut Socket) -> ClientResult<StdioReply> {
    let unexpected = |message: String| ClientError::Decode { status: 101, message };
    loop {
        match socket.next().await {
            Some(Ok(Message::Text(text))) => {
                return serde_json::from_str(&text).map_err(|err| {
                    unexpected(format!("the first frame is not a start reply ({err}): {text}"))
                })
            }
            Some(Ok(Message::Close(frame))) => {
                let close = StdioClose::from_frame(frame);
                return Err(unexpected(format!("closed before the start reply: {close}")));
            }
            Some(Ok(_)) => {}
            Some(Err(err)) => return Err(err.into()),
            None => return Err(unexpected("the connection ended before the start reply".into())),
        }
    }
}

/// A running MCP stdio server in the sandbox, reached over one WebSocket. Dropping both
/// halves closes the connection, and tool-api then kills the server.
pub struct McpStdio {
    pid: u32,
    socket: Socket,
}

impl McpStdio {
    /// The server's process id inside the sandbox (also its process group id).
    pub fn pid(&self) -> u32 {
        self.pid
    }

    pub fn split(self) -> (StdioSink, StdioStream) {
        let (sink, stream) = self.socket.split();
        (
            StdioSink(sink),
            StdioStream {
                inner: stream,
                close: CloseReason::default(),
                ended: false,
            },
        )
    }
}

/// Outgoing JSON-RPC messages, one serialized message per item (tool-api writes each to
/// the server's stdin as one line).
pub struct StdioSink(SplitSink<Socket, Message>);

impl Sink<String> for StdioSink {
    type Error = ClientError;

    fn poll_ready(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ClientResult<()>> {
        self.0.poll_ready_unpin(cx).map_err(Into::into)
    }

    fn start_send(mut self: Pin<&mut Self>, message: String) -> ClientResult<()> {
        self.0
            .start_send_unpin(Message::Text(message.into()))
            .map_err(Into::into)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ClientResult<()>> {
        self.0.poll_flush_unpin(cx).map_err(Into::into)
    }

    fn poll_close(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ClientResult<()>> {
        self.0.poll_close_unpin(cx).map_err(Into::into)
    }
}

/// Incoming JSON-RPC messages, one per line the server wrote to stdout. It ends when
/// tool-api closes the connection (the server exited, or broke a limit); a broken
/// connection yields one error first. Either way [`StdioStream::close_reason`] then
/// holds why.
pub struct StdioStream {
    inner: SplitStream<Socket>,
    close: CloseReason,
    ended: bool,
}

impl StdioStream {
    /// A handle that outlives the stream (which an MCP transport takes over): empty while
    /// the stream runs, then how it ended.
    pub fn close_reason(&self) -> CloseReason {
        self.close.clone()
    }

    fn end(&mut self, close: StdioClose) {
        self.ended = true;
        let _ = self.close.0.set(close);
    }
}

impl Stream for StdioStream {
    type Item = ClientResult<String>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        while !self.ended {
            let message = match self.inner.poll_next_unpin(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(message) => message,
            };
            match message {
                Some(Ok(Message::Text(text))) => return Poll::Ready(Some(Ok(text.as_str().to_owned()))),
                Some(Ok(Message::Close(frame))) => self.end(StdioClose::from_frame(frame)),
                Some(Ok(_)) => {}
                Some(Err(err)) => {
                    self.end(StdioClose {
                        code: ABNORMAL,
                        reason: format!("the connection broke: {err}"),
                    });
                    return Poll::Ready(Some(Err(err.into())));
                }
                None => self.end(StdioClose {
                    code: ABNORMAL,
                    reason: "the connection ended without a close frame".into(),
                }),
            }
        }
        Poll::Ready(None)
    }
}

/// Where a [`StdioStream`] leaves why it ended; cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct CloseReason(Arc<OnceLock<StdioClose>>);

impl CloseReason {
    /// `None` while the stream runs.
    pub fn get(&self) -> Option<&StdioClose> {
        self.0.get()
    }
}

/// How tool-api closed the relay: the WebSocket close code (1000 when the server exited,
/// 1009 or 1007 when it wrote a line over the limit or not UTF-8, 1001 when tool-api
/// stopped, 1006 when the connection broke) and the reason, e.g. `exited with status 1:
/// Error: Cannot find module …`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StdioClose {
    pub code: u16,
    pub reason: String,
}

impl StdioClose {
    fn from_frame(frame: Option<CloseFrame>) -> Self {
        match frame {
            Some(frame) => Self {
                code: frame.code.into(),
                reason: frame.reason.as_str().to_owned(),
            },
            None => Self {
                code: 1005,
                reason: String::new(),
            },
        }
    }
}

impl std::fmt::Display for StdioClose {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.reason.is_empty() {
            write!(f, "closed with code {}", self.code)
        } else {
            f.write_str(&self.reason)
        }
    }
}
