//! `/api/v1/sessions/{id}/vnc`: tickets for the live desktop, and the WebSocket relay a
//! ticket opens (see [`relay`]). Everything that can refuse — origin, ticket, session,
//! owner — is checked before the sandbox is contacted; the sandbox's VNC handshake is
//! done before the upgrade is answered, so a desktop that is down is an HTTP error
//! rather than a WebSocket that closes at once.

mod relay;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::{ApiResult, ErrorBody};
use super::extract::{CurrentUser, Json, Path, Query};
use super::AppState;
use crate::application::AppError;
use crate::domain::vnc::VncMode;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(issue_ticket))
        .routes(routes!(connect))
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

#[derive(Deserialize, IntoParams)]
pub struct TicketQuery {
    /// A ticket from `POST /api/v1/sessions/{id}/vnc/tickets`.
    pub ticket: Option<String>,
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
) -> ApiResult<(StatusCode, axum::Json<TicketView>)> {
    let issued = state.vnc.issue(&principal.user_id, &id, body.mode).await?;
    let url = format!("/api/v1/sessions/{id}/vnc?ticket={}", issued.ticket);
    Ok((
        StatusCode::CREATED,
        axum::Json(TicketView {
            ticket: issued.ticket,
            mode: issued.mode,
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
) -> ApiResult<Response> {
    let upgrade = upgrade.map_err(|rejection| {
        AppError::Malformed(format!("this is a WebSocket endpoint: {}", rejection.body_text()))
    })?;
    check_origin(&headers, &state.allowed_origins, state.trust_forwarded_for)?;
    let ticket = query
        .ticket
        .ok_or_else(|| AppError::Unauthorized("a VNC ticket is required (?ticket=…)".into()))?;
    let desktop = state.vnc.open(&id, &ticket).await?;
    Ok(upgrade
        .protocols(["binary"])
        .max_message_size(1 << 22)
        .on_upgrade(move |socket| relay::relay(socket, desktop, state.stopping)))
}

/// A browser's page may open the relay only from the front end's origins (or the API's
/// own — as the proxy in front names it, when trusted); clients that send no `Origin`
/// are not browsers and hold a ticket all the same.
fn check_origin(headers: &HeaderMap, allowed: &[String], behind_proxy: bool) -> Result<(), AppError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or_default();
    let host = |name: &str| headers.get(name).and_then(|h| h.to_str().ok());
    let mut hosts = vec![host("host")];
    if behind_proxy {
        hosts.push(host("x-forwarded-host"));
    }
    let same_origin = hosts.into_iter().flatten().filter(|h| !h.is_empty()).any(|host| {
        [format!("http://{host}"), format!("https://{host}")]
            .iter()
            .any(|o| o == origin)
    });
    if same_origin || allowed.iter().any(|o| o == origin) {
        Ok(())
    } else {
        Err(AppError::Forbidden(format!(
            "pages from {origin} may not open the desktop; add it to FRONTEND_ORIGIN"
        )))
    }
}
