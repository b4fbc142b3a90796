//! The relay between the browser's WebSocket (noVNC speaks RFB inside binary messages)
//! and the sandbox's VNC server. The backend has already authenticated to the server;
//! towards the browser it plays the server's part of the handshake with no password
//! (the single-use ticket was the browser's credential), then passes bytes both ways.
//!
//! In `view` mode the browser's messages are parsed and its keyboard, mouse, clipboard
//! and resize requests dropped; a message it cannot size ends the connection rather
//! than risk passing input through. Each direction awaits its writes, so a slow side
//! slows the other (backpressure); when either side closes, both do. A browser that
//! stops answering pings is let go, and shutdown closes every relay.

use std::time::Duration;

use axum::extract::ws::{close_code, Message, WebSocket};
use bytes::{Buf, Bytes, BytesMut};
use futures::stream::{SplitSink, SplitStream};
use futures::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio_util::sync::CancellationToken;

use super::super::live::{self, CLOSE_TIMEOUT, IDLE_TIMEOUT, PING_EVERY};
use crate::application::live::Desktop;
use crate::domain::vnc::VncMode;

/// Largest clipboard text a watcher's client may send (it is dropped anyway).
const MAX_CUT_TEXT: usize = 1 << 20;
/// The browser must finish its half of the handshake within this.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
const SECURITY_NONE: u8 = 1;

/// The browser's side of the connection, read as a byte stream.
struct Browser {
    messages: SplitStream<WebSocket>,
    buffer: BytesMut,
}

impl Browser {
    /// Reads one more message into the buffer; `false` when the browser is gone.
    async fn fill(&mut self) -> bool {
        loop {
            let Ok(message) = tokio::time::timeout(IDLE_TIMEOUT, self.messages.next()).await else {
                return false;
            };
            match message {
                Some(Ok(Message::Binary(bytes))) => {
                    self.buffer.extend_from_slice(&bytes);
                    return true;
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                // RFB is binary; text, a close or an error end the relay.
                _ => return false,
            }
        }
    }

    async fn need(&mut self, n: usize) -> bool {
        while self.buffer.len() < n {
            if !self.fill().await {
                return false;
            }
        }
        true
    }

    async fn take(&mut self, n: usize) -> Option<BytesMut> {
        self.need(n).await.then(|| self.buffer.split_to(n))
    }
}

/// Relays until either side closes, the browser goes quiet, or the server shuts down.
pub async fn relay(socket: WebSocket, desktop: Desktop, stopping: CancellationToken) {
    let Desktop {
        mode,
        stream,
        take_over,
        // The relay slot is given back when this function returns.
        hold: _hold,
    } = desktop;
    let (mut to_browser, messages) = socket.split();
    let mut browser = Browser {
        messages,
        buffer: BytesMut::new(),
    };
    let (mut from_desktop, mut to_desktop) = tokio::io::split(stream);
    let greeted = tokio::time::timeout(HANDSHAKE_TIMEOUT, greet(&mut to_browser, &mut browser)).await;
    if greeted != Ok(true) {
        return;
    }
    let upstream = async {
        // ClientInit: always shared, so one person watching never disconnects another.
        browser.take(1).await?;
        to_desktop.write_all(&[1]).await.ok()?;
        match mode {
            VncMode::Control => pass_through(&mut browser, &mut to_desktop).await,
            VncMode::View => pass_without_input(&mut browser, &mut to_desktop).await,
        }
    };
    let downstream = async {
        let mut chunk = vec![0u8; 64 * 1024];
        let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
        loop {
            let message = tokio::select! {
                read = from_desktop.read(&mut chunk) => match read.ok()? {
                    0 => return None::<()>,
                    n => Message::Binary(Bytes::copy_from_slice(&chunk[..n])),
                },
                _ = ping.tick() => Message::Ping(Bytes::new()),
            };
            to_browser.send(message).await.ok()?;
        }
    };
    let code = tokio::select! {
        _ = upstream => close_code::NORMAL,
        _ = downstream => close_code::NORMAL,
        _ = stopping.cancelled() => close_code::AWAY,
    };
    live::close(&mut to_browser, code, "the desktop connection ended").await;
    let _ = tokio::time::timeout(CLOSE_TIMEOUT, to_desktop.shutdown()).await;
    drop(take_over);
}

/// The server's half of the RFB handshake, offering only "no authentication".
async fn greet(to_browser: &mut SplitSink<WebSocket, Message>, browser: &mut Browser) -> bool {
    let send = |bytes: Vec<u8>| Message::Binary(Bytes::from(bytes));
    if to_browser.send(send(b"RFB 003.008\n".to_vec())).await.is_err() {
        return false;
    }
    let Some(version) = browser.take(12).await else {
        return false;
    };
    if !version.starts_with(b"RFB 003.") {
        return false;
    }
    if &version[..] == b"RFB 003.003\n" {
        // 3.3: the server names the security type; no result message for "none".
        return to_browser.send(send(1u32.to_be_bytes().to_vec())).await.is_ok();
    }
    if to_browser.send(send(vec![1, SECURITY_NONE])).await.is_err() {
        return false;
    }
    if browser.take(1).await.as_deref() != Some(&[SECURITY_NONE][..]) {
        return false;
    }
    // 3.7 sends no SecurityResult for "none"; 3.8 and later do.
    &version[..] == b"RFB 003.007\n" || to_browser.send(send(0u32.to_be_bytes().to_vec())).await.is_ok()
}

async fn pass_through(browser: &mut Browser, to_desktop: &mut (impl AsyncWrite + Unpin)) -> Option<()> {
    loop {
        if !browser.buffer.is_empty() {
            to_desktop.write_all(&browser.buffer).await.ok()?;
            browser.buffer.clear();
        }
        if !browser.fill().await {
            return None;
        }
    }
}

/// How a client-to-server message is sized and whether a watcher may send it.
enum Sized {
    /// This many bytes; `true` to forward.
    Exactly(usize, bool),
    /// The header is incomplete: read this many bytes first.
    NeedHeader(usize),
    Unknown(u8),
}

fn size_of(message: &[u8]) -> Sized {
    let header = |n: usize, size: fn(&[u8]) -> usize, forward: bool| {
        if message.len() < n {
            Sized::NeedHeader(n)
        } else {
            Sized::Exactly(size(message), forward)
        }
    };
    match message[0] {
        0 => Sized::Exactly(20, true), // SetPixelFormat
        2 => header(4, |m| 4 + 4 * usize::from(u16::from_be_bytes([m[2], m[3]])), true), // SetEncodings
        3 => Sized::Exactly(10, true), // FramebufferUpdateRequest
        4 => Sized::Exactly(8, false), // KeyEvent
        5 => Sized::Exactly(6, false), // PointerEvent
        6 => header(
            8,
            |m| 8 + i32::from_be_bytes([m[4], m[5], m[6], m[7]]).unsigned_abs() as usize,
            false,
        ), // ClientCutText
        150 => Sized::Exactly(10, true), // EnableContinuousUpdates
        250 => Sized::Exactly(4, false), // xvp (shutdown, reboot)
        251 => header(8, |m| 8 + 16 * usize::from(m[6]), false), // SetDesktopSize
        other => Sized::Unknown(other),
    }
}

async fn pass_without_input(browser: &mut Browser, to_desktop: &mut (impl AsyncWrite + Unpin)) -> Option<()> {
    loop {
        if !browser.need(1).await {
            return None;
        }
        let (length, forward) = match size_of(&browser.buffer) {
            Sized::Exactly(length, forward) => (length, forward),
            Sized::NeedHeader(n) => {
                browser.need(n).await.then_some(())?;
                continue;
            }
            Sized::Unknown(kind) => {
                tracing::debug!(
                    kind,
                    "a view-only VNC client sent a message type the relay does not know; closing"
                );
                return None;
            }
        };
        if length > MAX_CUT_TEXT + 8 {
            return None;
        }
        browser.need(length).await.then_some(())?;
        if forward {
            to_desktop.write_all(&browser.buffer[..length]).await.ok()?;
        }
        browser.buffer.advance(length);
    }
}

#[cfg(test)]
mod tests {
    use super::{size_of, Sized};

    fn sized(message: &[u8]) -> (usize, bool) {
        match size_of(message) {
            Sized::Exactly(n, forward) => (n, forward),
            Sized::NeedHeader(n) => panic!("needs {n} bytes of header"),
            Sized::Unknown(kind) => panic!("unknown type {kind}"),
        }
    }

    #[test]
    fn watchers_send_only_what_does_not_touch_the_desktop() {
        assert_eq!(sized(&[3, 0, 0, 0, 0, 0, 4, 0, 3, 0]), (10, true));
        assert_eq!(sized(&[2, 0, 0, 3]), (16, true));
        assert_eq!(sized(&[4, 1, 0, 0, 0, 0, 0, 0x61]), (8, false));
        assert_eq!(sized(&[5, 1, 0, 10, 0, 20]), (6, false));
        assert_eq!(sized(&[6, 0, 0, 0, 0, 0, 0, 5]), (13, false));
        assert_eq!(sized(&[251, 0, 4, 0, 3, 0, 2, 0]), (40, false));
        assert!(matches!(size_of(&[2, 0]), Sized::NeedHeader(4)));
        assert!(matches!(size_of(&[99]), Sized::Unknown(99)));
    }
}
