//! MCP stdio servers over a WebSocket: the first text frames are a `StdioStart` from the
//! client and a `StdioReply` from here, then each text frame is one JSON-RPC message
//! either way (a stdin line in, a stdout line out), and the close frame says how the
//! server ended. The wire is described in `tool_api_contract::mcp`; the processes are
//! [`crate::mcp_stdio`]'s.

use std::io;
use std::time::Duration;

use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use futures::stream::{SplitSink, SplitStream};
use futures::{SinkExt, StreamExt};
use tokio::io::AsyncWriteExt;
use tokio::process::ChildStdin;
use tokio_util::codec::LinesCodecError;
use tokio_util::sync::CancellationToken;
use tool_api_contract::mcp::{StdioReply, StdioStart};
use tool_api_contract::ErrorBody;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use crate::error::ToolResult;
use crate::mcp_stdio::{reason, Ending, Lines, Slot, StdioServer};

/// How long a client has to send its `StdioStart` (it holds a slot meanwhile).
const START_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the lines a server wrote just before it exited may take to arrive.
const DRAIN_GRACE: Duration = Duration::from_millis(200);

type Sink = SplitSink<WebSocket, Message>;
type Incoming = SplitStream<WebSocket>;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(stdio))
}

/// Runs an MCP stdio server in the sandbox and relays its JSON-RPC lines. The slot is
/// taken before the upgrade, so a sandbox running its most servers answers 429.
#[utoipa::path(get, path = "/v1/mcp/stdio", tag = "mcp",
    responses((status = 101, description = "WebSocket: a StdioStart text frame from the client, a StdioReply \
        from the server, then one JSON-RPC message per text frame either way; the close reason says how the \
        server ended"),
        (status = 429, body = ErrorBody)))]
async fn stdio(State(state): State<AppState>, upgrade: WebSocketUpgrade) -> ToolResult<Response> {
    let slot = state.mcp_stdio.reserve()?;
    let max = state.mcp_stdio.max_message_bytes();
    let stopping = state.stopping.clone();
    Ok(upgrade
        .max_message_size(max)
        .max_frame_size(max)
        .on_upgrade(move |socket| bridge(socket, slot, stopping)))
}

async fn bridge(socket: WebSocket, slot: Slot, stopping: CancellationToken) {
    let (mut sink, mut incoming) = socket.split();
    let started = match start_frame(&mut incoming).await {
        Ok(spec) => slot.start(&spec),
        Err(problem) => Err(problem),
    };
    let mut server = match started {
        Ok(server) => server,
        Err(message) => {
            let failed = StdioReply::Failed {
                message: message.clone(),
            };
            if send_reply(&mut sink, &failed).await.is_ok() {
                close(&mut sink, close_code::ERROR, &message).await;
            }
            return;
        }
    };
    let started = StdioReply::Started { pid: server.pid };
    if send_reply(&mut sink, &started).await.is_err() {
        return;
    }
    if let Some((code, reason)) = relay(&mut server, &mut sink, incoming, &stopping).await {
        close(&mut sink, code, &reason).await;
    }
}

async fn start_frame(incoming: &mut Incoming) -> Result<StdioStart, String> {
    let first = tokio::time::timeout(START_TIMEOUT, incoming.next())
        .await
        .map_err(|_| format!("no start frame within {} s", START_TIMEOUT.as_secs()))?;
    match first {
        Some(Ok(Message::Text(text))) => serde_json::from_str(&text).map_err(|err| {
            format!("unreadable start frame ({err}); send {{\"command\":…,\"args\":[…],\"env\":{{…}}}}")
        }),
        Some(Ok(_)) => Err("the first frame must be a text frame holding the start".into()),
        Some(Err(_)) | None => Err("the client went away before the start".into()),
    }
}

/// Relays until the server or the client ends; then the close frame to send, or `None`
/// when the client is gone. Either way the caller then drops `server`, which kills
/// whatever is left of its process group.
async fn relay(
    server: &mut StdioServer,
    sink: &mut Sink,
    incoming: Incoming,
    stopping: &CancellationToken,
) -> Option<(u16, String)> {
    let ending = {
        let StdioServer {
            stdin, stdout, child, ..
        } = &mut *server;
        let input = forward_input(incoming, stdin);
        let output = forward_output(stdout, sink);
        tokio::pin!(input, output);
        tokio::select! {
            refusal = &mut input => return refusal,
            ending = &mut output => ending?,
            status = child.wait() => {
                if let Ok(None) = tokio::time::timeout(DRAIN_GRACE, &mut output).await {
                    return None;
                }
                Ending::Exited(status)
            }
            () = stopping.cancelled() => {
                return Some((close_code::AWAY, "the tool-api is shutting down".into()))
            }
        }
    };
    let code = match ending {
        Ending::LineTooLong => close_code::SIZE,
        Ending::NotText => close_code::INVALID,
        Ending::Exited(_) | Ending::OutputClosed => close_code::NORMAL,
    };
    Some((code, server.finish(ending).await))
}

/// Writes each text frame to stdin as one line. Ends with `None` when the client goes,
/// or with the close frame for a frame it must not send. Once stdin is closed, frames
/// are dropped: the server's exit, seen on the other side, says why.
async fn forward_input(mut incoming: Incoming, stdin: &mut ChildStdin) -> Option<(u16, String)> {
    let mut writable = true;
    while let Some(message) = incoming.next().await {
        match message {
            Ok(Message::Text(text)) if writable => writable = stdin.write_all(&as_line(&text)).await.is_ok(),
            Ok(Message::Binary(_)) => {
                return Some((
                    close_code::UNSUPPORTED,
                    "binary frames are not taken: send each JSON-RPC message as a text frame".into(),
                ))
            }
            Ok(Message::Close(_)) => return None,
            Ok(_) => {}
            Err(err) => return Some((close_code::PROTOCOL, format!("unreadable frame: {err}"))),
        }
    }
    None
}

/// One message as one stdin line. JSON allows a raw line break only as whitespace, so a
/// space in its place keeps the message's meaning.
fn as_line(text: &str) -> Vec<u8> {
    let mut line: Vec<u8> = text
        .trim_end()
        .bytes()
        .map(|byte| if matches!(byte, b'\n' | b'\r') { b' ' } else { byte })
        .collect();
    line.push(b'\n');
    line
}

/// Sends each non-blank stdout line as a text frame until stdout ends or breaks the
/// rules; `None` when the client is gone.
async fn forward_output(stdout: &mut Lines, sink: &mut Sink) -> Option<Ending> {
    while let Some(line) = stdout.next().await {
        match line {
            Ok(line) if line.trim().is_empty() => {}
            Ok(line) => sink.send(Message::Text(line.into())).await.ok()?,
            Err(LinesCodecError::MaxLineLengthExceeded) => return Some(Ending::LineTooLong),
            Err(LinesCodecError::Io(err)) if err.kind() == io::ErrorKind::InvalidData => {
                return Some(Ending::NotText)
            }
            Err(LinesCodecError::Io(_)) => break,
        }
    }
    Some(Ending::OutputClosed)
}

async fn send_reply(sink: &mut Sink, reply: &StdioReply) -> Result<(), axum::Error> {
    let text = serde_json::to_string(reply).unwrap_or_default();
    sink.send(Message::Text(text.into())).await
}

async fn close(sink: &mut Sink, code: u16, reason: &str) {
    let frame = CloseFrame {
        code,
        reason: reason::fit(reason).into(),
    };
    let _ = sink.send(Message::Close(Some(frame))).await;
}
