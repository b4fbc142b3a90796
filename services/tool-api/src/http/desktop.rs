//! The desktop: starting and stopping it (`POST /v1/desktop/start|stop`) and its VNC
//! stream (`GET /v1/desktop/vnc`, see `tool_api_contract::desktop`).
//!
//! x11vnc listens on the sandbox's loopback without a password, and the VNC route, behind
//! the sandbox token, upgrades the connection and relays its bytes to it. A password
//! would guard nothing inside the sandbox (every process there can open the X display
//! anyway), and outside it the token already does. A stopped desktop is started for the
//! stream and stays up while the stream is open.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{CONNECTION, UPGRADE};
use axum::http::StatusCode;
use axum::response::Response;
use hyper::upgrade::OnUpgrade;
use hyper_util::rt::TokioIo;
use service_kit::Json;
use tokio::net::TcpStream;
use tool_api_contract::desktop::VNC_UPGRADE;
use tool_api_contract::info::DesktopInfo;
use tool_api_contract::{ErrorBody, ErrorCode};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use crate::desktop::{Desktop, Part};
use crate::error::{ToolError, ToolResult};

/// Each direction's buffer in the relay.
const RELAY_BUFFER: usize = 256 << 10;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(start))
        .routes(routes!(stop))
        .routes(routes!(vnc))
}

/// What every desktop and browser route answers in a sandbox without a desktop.
pub(super) fn no_desktop() -> ToolError {
    ToolError::new(
        ErrorCode::NotConfigured,
        "this sandbox has no desktop (TOOL_API_DESKTOP__ENABLED is off)",
    )
}

fn desktop(state: &AppState) -> ToolResult<Arc<Desktop>> {
    state.desktop.clone().ok_or_else(no_desktop)
}

/// Starts the desktop unless it runs and answers once X, VNC and the browser do. Its idle
/// time counts from the answer.
#[utoipa::path(post, path = "/v1/desktop/start", tag = "desktop",
    responses((status = 200, body = DesktopInfo), (status = 503, body = ErrorBody)))]
async fn start(State(state): State<AppState>) -> ToolResult<Json<DesktopInfo>> {
    let desktop = desktop(&state)?;
    let _in_use = desktop.ready(Part::Everything).await?;
    Ok(Json(desktop.info().await))
}

/// Stops the desktop (the browser first, so its profile is written); the next browser
/// call or VNC connection starts it again. Open VNC streams end.
#[utoipa::path(post, path = "/v1/desktop/stop", tag = "desktop",
    responses((status = 200, body = DesktopInfo), (status = 503, body = ErrorBody)))]
async fn stop(State(state): State<AppState>) -> ToolResult<Json<DesktopInfo>> {
    let desktop = desktop(&state)?;
    desktop.stop().await;
    Ok(Json(desktop.info().await))
}

/// Upgrades to `rfb` and relays the connection to the desktop's VNC server, which greets
/// first. The desktop is started (if stopped) and the server connected before the
/// upgrade, so one that does not come up is an ordinary JSON error.
#[utoipa::path(get, path = "/v1/desktop/vnc", tag = "desktop",
    responses((status = 101, description = "Upgrade: rfb; the connection now carries RFB both ways"),
        (status = 400, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn vnc(State(state): State<AppState>, mut request: Request) -> ToolResult<Response> {
    let desktop = desktop(&state)?;
    let asks_for_rfb = request
        .headers()
        .get(UPGRADE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.eq_ignore_ascii_case(VNC_UPGRADE));
    let on_upgrade = request
        .extensions_mut()
        .remove::<OnUpgrade>()
        .filter(|_| asks_for_rfb)
        .ok_or_else(|| {
            ToolError::new(
                ErrorCode::MalformedRequest,
                format!("send `Connection: Upgrade` and `Upgrade: {VNC_UPGRADE}` over HTTP/1.1"),
            )
        })?;
    let in_use = desktop.ready(Part::Vnc).await?;
    let mut inside = TcpStream::connect(("127.0.0.1", desktop.vnc_port()))
        .await
        .map_err(|err| {
            ToolError::new(
                ErrorCode::DesktopUnavailable,
                format!("the desktop's VNC server is not answering ({err}); it may be starting"),
            )
        })?;
    let _ = inside.set_nodelay(true);
    let stopping = state.stopping.clone();
    tokio::spawn(async move {
        let _in_use = in_use;
        let Ok(upgraded) = on_upgrade.await else { return };
        let mut outside = TokioIo::new(upgraded);
        tokio::select! {
            // Full-screen updates are megabytes: large buffers keep the relay's system
            // calls few (with the default 8 KiB the relay moved a quarter as much).
            _ = tokio::io::copy_bidirectional_with_sizes(&mut outside, &mut inside, RELAY_BUFFER, RELAY_BUFFER) => {}
            _ = stopping.cancelled() => {}
        }
    });
    Response::builder()
        .status(StatusCode::SWITCHING_PROTOCOLS)
        .header(CONNECTION, "upgrade")
        .header(UPGRADE, VNC_UPGRADE)
        .body(Body::empty())
        .map_err(|err| ToolError::Internal(err.into()))
}
