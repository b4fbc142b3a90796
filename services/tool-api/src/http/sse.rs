//! Server-sent events with the same behaviour on every stream: a keep-alive comment every
//! 15 s so proxies keep idle streams open, and an end when the server shuts down.

use std::convert::Infallible;
use std::time::Duration;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures::{Stream, StreamExt};
use tokio_util::sync::CancellationToken;

const KEEP_ALIVE: Duration = Duration::from_secs(15);

pub fn sse<S>(events: S, stopping: &CancellationToken) -> Sse<impl Stream<Item = Result<Event, Infallible>>>
where
    S: Stream<Item = Event> + Send + 'static,
{
    let events = events.take_until(stopping.clone().cancelled_owned()).map(Ok);
    Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
}
