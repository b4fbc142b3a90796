//! Server-sent event streams: a session's agent events (replayed from `Last-Event-ID` or
//! `?after=`, then live; the SSE `id:` is the sequence number) and the live list of the
//! caller's sessions. Idle streams get heartbeat comments so proxies keep them open;
//! every stream ends when the server shuts down, so shutdown is not held up by them.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures::{Stream, StreamExt};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::extract::{CurrentUser, Path, Query};
use super::views::SessionView;
use super::AppState;
use crate::application::holds::{Held, Hold};
use crate::application::{AppError, AppResult};
use crate::domain::ports::SessionChange;
use crate::domain::session::SessionId;
use crate::domain::user::UserId;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(session_events))
        .routes(routes!(session_list_stream))
}

#[derive(Deserialize, IntoParams)]
pub struct Resume {
    /// Events after this sequence number (`Last-Event-ID` wins when both are given).
    pub after: Option<u64>,
}

/// Counts open streams for `/metrics` while it lives.
struct OpenStream(&'static str);

impl OpenStream {
    fn new(kind: &'static str) -> Self {
        metrics::gauge!("sse_open_streams", "stream" => kind).increment(1.0);
        Self(kind)
    }
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        metrics::gauge!("sse_open_streams", "stream" => self.0).decrement(1.0);
    }
}

/// Streams `events`, holding the person's slot `hold` for as long as the stream lasts.
pub(super) fn sse<S>(
    state: &AppState,
    kind: &'static str,
    hold: Hold,
    events: S,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>>
where
    S: Stream<Item = Event> + Send + 'static,
{
    let open = OpenStream::new(kind);
    let stream = events
        .map(move |event| {
            let _ = (&open, &hold);
            Ok(event)
        })
        .take_until(state.stopping.clone().cancelled_owned());
    Sse::new(stream).keep_alive(
        KeepAlive::new()
            .interval(Duration::from_secs(state.sse_heartbeat_secs))
            .text("heartbeat"),
    )
}

/// The session's events: everything after the client's last id, then live ones.
#[utoipa::path(get, path = "/api/v1/sessions/{id}/events", tag = "events", params(Resume),
    responses(
        (status = 200, description = "`text/event-stream`; each event's `id:` is its sequence number, `event:` its type, `data:` the stored event as JSON", content_type = "text/event-stream", body = String),
        (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 429, description = "too many open streams", body = ErrorBody)))]
async fn session_events(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Query(resume): Query<Resume>,
    headers: HeaderMap,
) -> AppResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let session = state.sessions.get(&principal.user_id, &id).await?;
    session_stream(&state, &principal.user_id, session.id, &resume, &headers)
}

/// A session's events as SSE: everything after the client's last id (`Last-Event-ID`,
/// else `?after=`), then live ones. Also what a job's event stream is.
pub(super) fn session_stream(
    state: &AppState,
    owner: &UserId,
    session: SessionId,
    resume: &Resume,
    headers: &HeaderMap,
) -> AppResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let hold = state.holds.acquire(owner, Held::Stream)?;
    let last_event_id = match headers.get("last-event-id") {
        Some(value) => Some(
            value
                .to_str()
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                .ok_or_else(|| AppError::Malformed("Last-Event-ID must be a sequence number".into()))?,
        ),
        None => None,
    };
    let after = last_event_id.or(resume.after).unwrap_or(0);
    let events = state
        .events
        .stream(session, after)
        .filter_map(|stored| async move {
            let data = serde_json::to_string(&stored).ok()?;
            Some(
                Event::default()
                    .id(stored.seq.to_string())
                    .event(stored.event.kind())
                    .data(data),
            )
        });
    Ok(sse(state, "events", hold, events))
}

/// Live changes to the caller's sessions: `updated` with the session, `deleted` with its id.
#[utoipa::path(get, path = "/api/v1/sessions/stream", tag = "events",
    responses((status = 200, description = "`text/event-stream` of `updated` / `deleted` events", content_type = "text/event-stream", body = String),
        (status = 429, description = "too many open streams", body = ErrorBody)))]
async fn session_list_stream(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
) -> AppResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let hold = state.holds.acquire(&principal.user_id, Held::Stream)?;
    let changes = state
        .events
        .session_changes(&principal.user_id)
        .filter_map(|change| async move {
            let (name, data) = match change {
                SessionChange::Updated { session } => {
                    ("updated", serde_json::to_string(&SessionView::from(&*session)))
                }
                SessionChange::Deleted { id, .. } => (
                    "deleted",
                    serde_json::to_string(&serde_json::json!({ "id": id.as_str() })),
                ),
            };
            Some(Event::default().event(name).data(data.ok()?))
        });
    Ok(sse(&state, "sessions", hold, changes))
}
