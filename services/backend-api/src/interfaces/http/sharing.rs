//! Replay links: `/api/v1/sessions/{id}/share`, where the owner shares a session (with
//! an optional expiry), changes the expiry or revokes the link, and
//! `/api/v1/shared/{token}`, the read-only replay anyone with a working link may open —
//! the session's title and what the replay shows of its log, nothing else. (Its images
//! are served by `images`.)

use axum::extract::State;
use chrono::Utc;
use serde::{Deserialize, Serialize};
use serde_json::error::Category;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::extract::{CurrentUser, Path, Query};
use super::views::SessionView;
use super::AppState;
use crate::application::{AppError, AppResult};
use crate::domain::event::{AgentEvent, StoredEvent};
use crate::domain::share;

/// Most events one page of a replay returns.
const MAX_EVENT_PAGE: usize = 1000;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(share, unshare))
        .routes(routes!(shared))
        .routes(routes!(shared_events))
}

/// How long the link works. An empty body (or `{}`) shares until revoked.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct ShareRequest {
    /// Seconds from now, 60 (a minute) to 31536000 (a year); absent or null: until
    /// revoked.
    pub expires_in_secs: Option<u64>,
}

#[derive(Deserialize, IntoParams)]
pub struct EventPage {
    /// Events with a sequence number above this (default 0: from the start).
    #[serde(default)]
    pub after: u64,
    /// 1–1000, default 1000.
    pub limit: Option<usize>,
}

/// A shared session as its replay shows it.
#[derive(Serialize, ToSchema)]
pub struct SharedSessionView {
    pub title: String,
}

/// An event of a shared session as its replay shows it.
#[derive(Serialize, ToSchema)]
pub struct SharedEvent {
    /// Increasing, with gaps where the log holds what a replay does not show; pass the
    /// last one as `after` for the next page.
    pub seq: u64,
    pub event: AgentEvent,
}

impl From<StoredEvent> for SharedEvent {
    fn from(stored: StoredEvent) -> Self {
        Self {
            seq: stored.seq,
            event: stored.event,
        }
    }
}

/// Shares the session as a read-only replay (`share_token` is the link's secret) until
/// `expires_in_secs` from now, or until revoked. Sharing a shared session keeps its link
/// and sets this expiry; one whose link expired gets a new link.
#[utoipa::path(post, path = "/api/v1/sessions/{id}/share", tag = "sessions",
    request_body(content = Option<ShareRequest>, description = "optional: without it, the link works until revoked"),
    responses((status = 200, body = SessionView), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "an expiry out of range (`field`: `expires_in_secs`), or not a number of seconds")))]
async fn share(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> AppResult<axum::Json<SessionView>> {
    let body = share_request(&body)?;
    let expires_at = share::expiry(body.expires_in_secs, Utc::now())?;
    let session = state.sessions.share(&principal.user_id, &id, expires_at).await?;
    Ok(axum::Json(SessionView::from(&session)))
}

/// The body is optional: an empty one shares until revoked.
fn share_request(body: &[u8]) -> Result<ShareRequest, AppError> {
    if body.is_empty() {
        return Ok(ShareRequest::default());
    }
    serde_json::from_slice(body).map_err(|err| match err.classify() {
        Category::Data => AppError::Invalid(format!("the body is not a valid share request: {err}")),
        _ => AppError::Malformed(format!("the body is not JSON: {err}")),
    })
}

/// Revokes the link: its token is not found from now on (sharing again makes a new one).
#[utoipa::path(delete, path = "/api/v1/sessions/{id}/share", tag = "sessions",
    responses((status = 200, body = SessionView), (status = 404, body = ErrorBody)))]
async fn unshare(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<axum::Json<SessionView>> {
    let session = state.sessions.unshare(&principal.user_id, &id).await?;
    Ok(axum::Json(SessionView::from(&session)))
}

/// A shared session (no sign-in needed).
#[utoipa::path(get, path = "/api/v1/shared/{token}", tag = "shared", security(()),
    responses((status = 200, body = SharedSessionView),
        (status = 404, body = ErrorBody, description = "no such link, or revoked"),
        (status = 410, body = ErrorBody, description = "the link has expired")))]
async fn shared(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> AppResult<axum::Json<SharedSessionView>> {
    let session = state.sessions.shared(&token).await?;
    Ok(axum::Json(SharedSessionView {
        title: session.title.as_str().to_owned(),
    }))
}

/// What the replay of a shared session shows, a page at a time (no sign-in needed):
/// messages, the plan, tool calls with their views, questions and errors — never the
/// model's working memory, token counts or status changes. A page shorter than `limit`
/// is the last.
#[utoipa::path(get, path = "/api/v1/shared/{token}/events", tag = "shared", security(()), params(EventPage),
    responses((status = 200, body = Vec<SharedEvent>),
        (status = 404, body = ErrorBody, description = "no such link, or revoked"),
        (status = 410, body = ErrorBody, description = "the link has expired")))]
async fn shared_events(
    State(state): State<AppState>,
    Path(token): Path<String>,
    Query(page): Query<EventPage>,
) -> AppResult<axum::Json<Vec<SharedEvent>>> {
    let limit = page.limit.unwrap_or(MAX_EVENT_PAGE).clamp(1, MAX_EVENT_PAGE);
    let events = state.sessions.shared_events(&token, page.after, limit).await?;
    Ok(axum::Json(events.into_iter().map(SharedEvent::from).collect()))
}
