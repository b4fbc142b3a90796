//! The relay between the browser's WebSocket and the terminal in the sandbox. Frames
//! pass through as they are — bytes as binary messages, control messages as text —
//! since the sandbox's terminal parses and answers them itself.
//!
//! The two directions run side by side, each awaiting its own writes, so a slow side
//! slows only what flows towards it (backpressure) and never stops the other direction,
//! the silence check or shutdown. When either direction ends, both do. A browser that
//! stops answering pings is let go — and with it the hold on the agent — even while the
//! shell's output is stuck on its way to that browser.

use axum::extract::ws::{close_code, Message, WebSocket};
use bytes::Bytes;
use futures::{SinkExt, StreamExt};
use tokio::time::{interval_at, timeout, Instant};
use tokio_util::sync::CancellationToken;

use super::super::live::{self, CLOSE_TIMEOUT, IDLE_TIMEOUT, PING_EVERY};
use crate::application::live::Terminal;
use crate::domain::terminal::{TerminalChannel, TerminalFrame};

/// Why the relay ended, when the browser should be told: a close code and reason.
type Ending = Option<(u16, &'static str)>;

/// Relays until the shell ends, the browser leaves or goes quiet, or the server stops.
pub async fn relay(socket: WebSocket, terminal: Terminal, stopping: CancellationToken) {
    let Terminal {
        channel: TerminalChannel {
            mut output,
            mut input,
        },
        take_over,
        // The relay slot is given back when this function returns.
        hold: _hold,
    } = terminal;
    let (mut to_browser, mut from_browser) = socket.split();
    let upstream = async {
        loop {
            let Ok(message) = timeout(IDLE_TIMEOUT, from_browser.next()).await else {
                return Some((close_code::AWAY, "nothing heard from the browser"));
            };
            let frame = match message {
                Some(Ok(Message::Binary(data))) => TerminalFrame::Data(data),
                Some(Ok(Message::Text(text))) => TerminalFrame::Control(text.as_str().to_owned()),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(Message::Close(_)) | Err(_)) | None => return None,
            };
            if input.send(frame).await.is_err() {
                return Some((close_code::ERROR, "the terminal stopped taking input"));
            }
        }
    };
    let downstream = async {
        let mut ping = interval_at(Instant::now() + PING_EVERY, PING_EVERY);
        loop {
            let message = tokio::select! {
                frame = output.next() => match frame {
                    Some(TerminalFrame::Data(data)) => Message::Binary(data),
                    Some(TerminalFrame::Control(text)) => Message::Text(text.into()),
                    None => return Some((close_code::NORMAL, "the shell ended")),
                },
                _ = ping.tick() => Message::Ping(Bytes::new()),
            };
            if to_browser.send(message).await.is_err() {
                return None;
            }
        }
    };
    let ending: Ending = tokio::select! {
        ending = upstream => ending,
        ending = downstream => ending,
        _ = stopping.cancelled() => Some((close_code::AWAY, "the server is stopping")),
    };
    // Closing our side of the sandbox's socket ends its shell.
    let _ = timeout(CLOSE_TIMEOUT, input.close()).await;
    if let Some((code, reason)) = ending {
        live::close(&mut to_browser, code, reason).await;
    }
    drop(take_over);
}
