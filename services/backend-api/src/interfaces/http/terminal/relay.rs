//! The relay between the browser's WebSocket and the terminal in the sandbox. Frames
//! pass through as they are — bytes as binary messages, control messages as text —
//! since the sandbox's terminal parses and answers them itself. Each side's writes are
//! awaited, so a slow side slows the other; when either side ends, both do. A browser
//! that stops answering pings is let go (and with it the hold on the agent), and
//! shutdown closes every terminal.

use axum::extract::ws::{close_code, Message, WebSocket};
use bytes::Bytes;
use futures::{SinkExt, StreamExt};
use tokio::time::{interval_at, sleep_until, Instant};
use tokio_util::sync::CancellationToken;

use super::super::live::{self, CLOSE_TIMEOUT, IDLE_TIMEOUT, PING_EVERY};
use crate::application::live::Terminal;
use crate::domain::terminal::{TerminalChannel, TerminalFrame};

/// Relays until the shell ends, the browser leaves or goes quiet, or the server stops.
pub async fn relay(socket: WebSocket, terminal: Terminal, stopping: CancellationToken) {
    let Terminal {
        channel: TerminalChannel {
            mut output,
            mut input,
        },
        take_over,
    } = terminal;
    let (mut to_browser, mut from_browser) = socket.split();
    let mut ping = interval_at(Instant::now() + PING_EVERY, PING_EVERY);
    let mut heard = Instant::now();
    let ending = loop {
        tokio::select! {
            frame = output.next() => {
                let message = match frame {
                    Some(TerminalFrame::Data(data)) => Message::Binary(data),
                    Some(TerminalFrame::Control(text)) => Message::Text(text.into()),
                    None => break Some((close_code::NORMAL, "the shell ended")),
                };
                if to_browser.send(message).await.is_err() {
                    break None;
                }
            }
            message = from_browser.next() => {
                heard = Instant::now();
                let frame = match message {
                    Some(Ok(Message::Binary(data))) => TerminalFrame::Data(data),
                    Some(Ok(Message::Text(text))) => TerminalFrame::Control(text.as_str().to_owned()),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break None,
                };
                if input.send(frame).await.is_err() {
                    break Some((close_code::ERROR, "the terminal stopped taking input"));
                }
            }
            _ = ping.tick() => {
                if to_browser.send(Message::Ping(Bytes::new())).await.is_err() {
                    break None;
                }
            }
            _ = sleep_until(heard + IDLE_TIMEOUT) => break Some((close_code::AWAY, "nothing heard from the browser")),
            _ = stopping.cancelled() => break Some((close_code::AWAY, "the server is stopping")),
        }
    };
    // Closing our side of the sandbox's socket ends its shell.
    let _ = tokio::time::timeout(CLOSE_TIMEOUT, input.close()).await;
    if let Some((code, reason)) = ending {
        live::close(&mut to_browser, code, reason).await;
    }
    drop(take_over);
}
