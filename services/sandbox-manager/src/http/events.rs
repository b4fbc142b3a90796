//! `GET /v1/events`: lifecycle events as server-sent events. The SSE `id:` is the event's
//! sequence number; a client reconnecting with `Last-Event-ID` gets the events it missed
//! (of the last 1024, since this manager started), then the live ones. A client that falls
//! too far behind is disconnected and resumes the same way.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures::{Stream, StreamExt};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;

const KEEP_ALIVE: Duration = Duration::from_secs(15);

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(events))
}

#[utoipa::path(
    get, path = "/v1/events",
    params(("Last-Event-ID" = Option<u64>, Header, description = "resume after this event")),
    responses((status = 200, content_type = "text/event-stream", body = sandbox_manager_contract::LifecycleEvent))
)]
async fn events(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let after = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let (replay, mut live) = state.manager.events.subscribe(after);
    let stream = async_stream::stream! {
        for event in replay {
            yield event;
        }
        // Lagged or closed ends the stream: the client resumes with Last-Event-ID.
        while let Ok(event) = live.recv().await {
            yield event;
        }
    };
    let stream = stream
        .map(|event| {
            let data = serde_json::to_string(&event).unwrap_or_default();
            Ok(Event::default()
                .id(event.seq.to_string())
                .event("lifecycle")
                .data(data))
        })
        .take_until(state.stopping.clone().cancelled_owned());
    Sse::new(stream).keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
}
