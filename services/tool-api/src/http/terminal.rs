//! The interactive terminal over WebSocket: binary frames carry raw input and output; text
//! frames carry JSON control messages (`input`, `resize` from the client; `exit`, `error`
//! from the server).

use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use futures::{SinkExt, StreamExt};
use service_kit::Query;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_util::sync::CancellationToken;
use tool_api_contract::shell::{TerminalClientMessage, TerminalQuery, TerminalServerMessage};
use tool_api_contract::ErrorBody;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use crate::error::ToolResult;
use crate::shell::Terminal;

const DEFAULT_COLS: u16 = 120;
const DEFAULT_ROWS: u16 = 32;
/// How long to wait for the shell's exit status once its output has ended.
const EXIT_WAIT: Duration = Duration::from_secs(1);

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(terminal))
}

/// Opens a bash on a PTY and bridges it to a WebSocket. The shell is started before the
/// upgrade, so a bad `cwd` or size is an ordinary JSON error.
#[utoipa::path(get, path = "/v1/shell/terminal", tag = "shell", params(TerminalQuery),
    responses((status = 101, description = "WebSocket: binary = raw bytes, text = JSON control messages"),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn terminal(
    State(state): State<AppState>,
    Query(query): Query<TerminalQuery>,
    upgrade: WebSocketUpgrade,
) -> ToolResult<Response> {
    let terminal = state
        .shells
        .open_terminal(
            query.cwd.as_deref(),
            query.cols.unwrap_or(DEFAULT_COLS),
            query.rows.unwrap_or(DEFAULT_ROWS),
        )
        .await?;
    let stopping = state.stopping.clone();
    Ok(upgrade.on_upgrade(move |socket| bridge(socket, terminal, stopping)))
}

async fn bridge(socket: WebSocket, mut terminal: Terminal, stopping: CancellationToken) {
    let (mut sink, mut incoming) = socket.split();
    let mut buf = vec![0u8; 16 << 10];
    let mut shell_ended = false;
    loop {
        tokio::select! {
            read = terminal.output.read(&mut buf) => match read {
                // The pty reports EIO once the shell and everything on it has exited.
                Ok(0) | Err(_) => {
                    shell_ended = true;
                    break;
                }
                Ok(n) => {
                    if sink.send(Message::Binary(buf[..n].to_vec().into())).await.is_err() {
                        return;
                    }
                }
            },
            message = incoming.next() => match message {
                Some(Ok(Message::Binary(data))) => {
                    if terminal.input.write_all(&data).await.is_err() {
                        break;
                    }
                }
                Some(Ok(Message::Text(text))) => {
                    if let Err(problem) = control(&mut terminal, &text).await {
                        let reply = TerminalServerMessage::Error { message: problem };
                        if send_json(&mut sink, &reply).await.is_err() {
                            return;
                        }
                    }
                }
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
                Some(Ok(_)) => {}
            },
            _ = stopping.cancelled() => break,
        }
    }
    let code = if shell_ended {
        let status = tokio::time::timeout(EXIT_WAIT, terminal.child.wait()).await;
        status.ok().and_then(Result::ok).and_then(|status| status.code())
    } else {
        None
    };
    let _ = send_json(&mut sink, &TerminalServerMessage::Exit { code }).await;
    let _ = sink.close().await;
}

/// Applies one JSON control message; the error is a message for the client.
async fn control(terminal: &mut Terminal, text: &str) -> Result<(), String> {
    match serde_json::from_str::<TerminalClientMessage>(text) {
        Ok(TerminalClientMessage::Input { data }) => terminal
            .input
            .write_all(data.as_bytes())
            .await
            .map_err(|err| format!("writing to the terminal failed: {err}")),
        Ok(TerminalClientMessage::Resize { cols, rows }) => terminal.resize(cols, rows).map_err(|err| err.to_string()),
        Err(err) => Err(format!(
            "unreadable control message ({err}); send {{\"type\":\"input\",\"data\":…}} or {{\"type\":\"resize\",\"cols\":…,\"rows\":…}}"
        )),
    }
}

async fn send_json<S>(sink: &mut S, message: &TerminalServerMessage) -> Result<(), axum::Error>
where
    S: futures::Sink<Message, Error = axum::Error> + Unpin,
{
    let text = serde_json::to_string(message).unwrap_or_default();
    sink.send(Message::Text(text.into())).await
}
