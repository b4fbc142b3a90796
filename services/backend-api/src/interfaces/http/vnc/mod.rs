//! `/api/v1/sessions/{id}/vnc`: tickets for the live desktop, and the WebSocket relay a
//! ticket opens (see [`relay`]); `/api/v1/sessions/{id}/desktop`: whether the desktop
//! runs, asked before connecting because a connection starts it. Everything that can refuse — origin, ticket, session,
//! owner — is checked before the sandbox is contacted; the sandbox's VNC handshake is
//! done before the upgrade is answered, so a desktop that is down is an HTTP error
//! rather than a WebSocket that closes at once.

mod relay;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::extract::{CurrentUser, Json, Path, Query};
use super::live::{self, TicketQuery};
use super::AppState;
use crate::application::AppResult;
use crate::domain::ticket::Opens;
use crate::domain::vnc::{DesktopState, VncMode};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(issue_ticket))
        .routes(routes!(connect))
        .routes(routes!(desktop_state))
}

#[derive(Serialize, ToSchema)]
pub struct DesktopView {
    pub state: DesktopState,
}

/// Whether the session's desktop runs. Asking starts nothing: a session without a
/// sandbox gets `no_sandbox`, and a stopped desktop stays stopped until a browser call
/// or a desktop connection starts it.
#[utoipa::path(get, path = "/api/v1/sessions/{id}/desktop", tag = "vnc",
    responses((status = 200, body = DesktopView), (status = 404, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn desktop_state(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<axum::Json<DesktopView>> {
    let desktop = state.live.desktop_state(&principal.user_id, &id).await?;
    Ok(axum::Json(DesktopView { state: desktop }))
}

#[derive(Deserialize, ToSchema)]
pub struct TicketRequest {
    pub mode: VncMode,
}

#[derive(Serialize, ToSchema)]
pub struct TicketView {
    pub ticket: String,
    pub mode: VncMode,
    pub expires_in_secs: u64,
    /// Where to open the WebSocket (ticket included), relative to the API's origin.
    pub url: String,
}

/// A single-use ticket (valid 30 s unless configured otherwise) to open the session's desktop: `view` to watch,
/// `control` to take over (the agent pauses until the connection closes).
#[utoipa::path(post, path = "/api/v1/sessions/{id}/vnc/tickets", tag = "vnc", request_body = TicketRequest,
    responses((status = 201, body = TicketView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn issue_ticket(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Json(body): Json<TicketRequest>,
) -> AppResult<(StatusCode, axum::Json<TicketView>)> {
    let issued = state
        .live
        .desktop_ticket(&principal.user_id, &id, body.mode)
        .await?;
    let url = format!("/api/v1/sessions/{id}/vnc?ticket={}", issued.ticket);
    Ok((
        StatusCode::CREATED,
        axum::Json(TicketView {
            ticket: issued.ticket,
            mode: body.mode,
            expires_in_secs: issued.expires_in.as_secs(),
            url,
        }),
    ))
}

/// The desktop as RFB over a WebSocket (subprotocol `binary`, as noVNC expects), with
/// no VNC password: the ticket is the credential.
#[utoipa::path(get, path = "/api/v1/sessions/{id}/vnc", tag = "vnc", security(()), params(TicketQuery),
    responses((status = 101, description = "switching to the WebSocket relay"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn connect(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<TicketQuery>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> AppResult<Response> {
    let (upgrade, ticket) = live::admit(&state, Opens::Desktop, &headers, upgrade, query.ticket)?;
    let desktop = state.live.open_desktop(&id, &ticket).await?;
    Ok(upgrade
        .protocols(["binary"])
        .max_message_size(1 << 22)
        .on_upgrade(move |socket| relay::relay(socket, desktop, state.stopping)))
}
