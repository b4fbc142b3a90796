//! What the two WebSocket relays — the desktop's and the terminal's — share: the upgrade
//! and who may ask for it, how a quiet connection is kept and when it counts as gone,
//! and how it is closed.

use std::time::Duration;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::http::HeaderMap;
use futures::stream::SplitSink;
use futures::SinkExt;
use serde::Deserialize;
use utoipa::IntoParams;

use super::{origin, AppState};
use crate::application::AppError;
use crate::domain::ticket::Opens;

/// Pings keep proxies from closing a quiet connection and show the browser is there; a
/// browser silent for `IDLE_TIMEOUT` (no data, no pong) is gone — a laptop that slept
/// must not hold the desktop or the terminal, and pause the agent, forever.
pub const PING_EVERY: Duration = Duration::from_secs(20);
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a goodbye to either side may take.
pub const CLOSE_TIMEOUT: Duration = Duration::from_secs(2);

#[derive(Deserialize, IntoParams)]
pub struct TicketQuery {
    /// A ticket from the matching `…/tickets` route.
    pub ticket: Option<String>,
}

/// The checks every relay makes before its ticket is even looked at: a WebSocket
/// upgrade, from an allowed page, with a ticket. Returns the upgrade and the ticket.
pub fn admit(
    state: &AppState,
    opens: Opens,
    headers: &HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    ticket: Option<String>,
) -> Result<(WebSocketUpgrade, String), AppError> {
    let upgrade = upgrade.map_err(|rejection| {
        AppError::Malformed(format!("this is a WebSocket endpoint: {}", rejection.body_text()))
    })?;
    // A page may open a relay only from the front end or the API's own origin.
    origin::check(state, headers, &format!("open the {opens}"))?;
    let ticket =
        ticket.ok_or_else(|| AppError::Unauthorized(format!("a {opens} ticket is required (?ticket=…)")))?;
    Ok((upgrade, ticket))
}

/// Says goodbye to the browser, without waiting on one that no longer reads.
pub async fn close(to_browser: &mut SplitSink<WebSocket, Message>, code: u16, reason: &str) {
    let close = Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }));
    let _ = tokio::time::timeout(CLOSE_TIMEOUT, to_browser.send(close)).await;
}
