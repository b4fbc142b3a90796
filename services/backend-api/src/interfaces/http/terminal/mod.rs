//! `/api/v1/sessions/{id}/terminal`: tickets for the sandbox's terminal, and the
//! WebSocket relay a ticket opens (see [`relay`]). As with the desktop, origin, ticket,
//! session and owner are checked before the sandbox is contacted, and the shell is
//! started before the upgrade is answered, so a sandbox that is down is an HTTP error
//! rather than a WebSocket that closes at once.

mod relay;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::extract::{CurrentUser, Path, Query};
use super::live;
use super::AppState;
use crate::application::AppResult;
use crate::domain::terminal::TerminalSize;
use crate::domain::ticket::Opens;

/// Largest message the browser may send: typed or pasted input, or a control message.
const MAX_MESSAGE: usize = 1 << 16;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(issue_ticket))
        .routes(routes!(connect))
}

#[derive(Serialize, ToSchema)]
pub struct TerminalTicketView {
    pub ticket: String,
    pub expires_in_secs: u64,
    /// Where to open the WebSocket (ticket included), relative to the API's origin; add
    /// `&cols=…&rows=…` for the terminal's size.
    pub url: String,
}

#[derive(Deserialize, IntoParams)]
pub struct TerminalQuery {
    /// A ticket from `POST /api/v1/sessions/{id}/terminal/tickets`.
    pub ticket: Option<String>,
    /// Columns, 1–1000 (default 80).
    pub cols: Option<u32>,
    /// Rows, 1–1000 (default 24).
    pub rows: Option<u32>,
}

/// A single-use ticket (valid 30 s unless configured otherwise) to open a terminal in the
/// session's sandbox. The agent pauses while a terminal is open.
#[utoipa::path(post, path = "/api/v1/sessions/{id}/terminal/tickets", tag = "terminal",
    responses((status = 201, body = TerminalTicketView), (status = 404, body = ErrorBody)))]
async fn issue_ticket(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<(StatusCode, axum::Json<TerminalTicketView>)> {
    let issued = state.live.terminal_ticket(&principal.user_id, &id).await?;
    let url = format!("/api/v1/sessions/{id}/terminal?ticket={}", issued.ticket);
    Ok((
        StatusCode::CREATED,
        axum::Json(TerminalTicketView {
            ticket: issued.ticket,
            expires_in_secs: issued.expires_in.as_secs(),
            url,
        }),
    ))
}

/// A new bash on a PTY in the sandbox, over a WebSocket: binary messages are raw bytes
/// (keyboard in, screen out); text messages are JSON control messages —
/// `{"type":"resize","cols":…,"rows":…}` and `{"type":"input","data":…}` in,
/// `{"type":"exit","code":…}` and `{"type":"error","message":…}` out.
#[utoipa::path(get, path = "/api/v1/sessions/{id}/terminal", tag = "terminal", security(()), params(TerminalQuery),
    responses((status = 101, description = "switching to the WebSocket relay"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn connect(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<TerminalQuery>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> AppResult<Response> {
    let (upgrade, ticket) = live::admit(&state, Opens::Terminal, &headers, upgrade, query.ticket)?;
    let size = TerminalSize::parse(query.cols.unwrap_or(80), query.rows.unwrap_or(24))?;
    let terminal = state.live.open_terminal(&id, &ticket, size).await?;
    Ok(upgrade
        .max_message_size(MAX_MESSAGE)
        .on_upgrade(move |socket| relay::relay(socket, terminal, state.stopping)))
}
