//! The web site the fetch tests read: real HTTP on 127.0.0.1:0, built with axum and
//! served by `web_fakes` (which also has the fake search providers and a port where
//! nothing listens).

use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header::{CONTENT_TYPE, LOCATION, USER_AGENT};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures::StreamExt;
use web_fakes::serve;

/// Size of the body `/huge` would send if read to the end.
pub const HUGE_BYTES: usize = 50 << 20;
const HUGE_CHUNK: usize = 64 << 10;

/// A small web site for fetch. The counter tells how many bytes of `/huge` were produced.
pub async fn site() -> (String, Arc<AtomicUsize>) {
    let produced = Arc::new(AtomicUsize::new(0));
    let router = Router::new()
        .route("/page", get(page))
        .route(
            "/plain",
            get(|| async { ([(CONTENT_TYPE, "text/plain; charset=utf-8")], PLAIN) }),
        )
        .route(
            "/data.json",
            get(|| async { ([(CONTENT_TYPE, "application/json")], r#"{"b": 2, "a": [1, "x"]}"#) }),
        )
        .route(
            "/utf8",
            get(|| async { ([(CONTENT_TYPE, "text/plain")], "é".repeat(1000)) }),
        )
        .route("/old", get(|| async { redirect("/hop") }))
        .route("/hop", get(|| async { redirect("/page") }))
        .route("/loop", get(|| async { redirect("/loop") }))
        .route("/missing", get(missing))
        .route("/image.png", get(image))
        .route("/undeclared", get(undeclared_binary))
        .route("/huge", get(huge))
        .route("/stall", get(stall))
        .route(
            "/slow",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(30)).await;
                "too late"
            }),
        )
        .with_state(Arc::clone(&produced));
    (serve(router).await, produced)
}

pub const PLAIN: &str = "Plain text, kept   as it is.\n  * not a list *\n";

const PAGE: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
  <title>Fake Article</title>
  <style>.hidden { display: none }</style>
  <script>window.trackingSecret = "tracker-code";</script>
</head>
<body>
  <nav><a href="/">Home</a> | <a href="/about">About us</a></nav>
  <main>
    <h1>Sandpiper Field Notes</h1>
    <p>The sandpiper probes wet sand for <em>small</em> invertebrates.</p>
    <p>See the <a href="https://birds.example/sandpiper">species page</a> for more.</p>
  </main>
  <script>console.log("inline-script-body")</script>
</body>
</html>"#;

/// The page, with the caller's User-Agent in it so a test can see what was sent.
async fn page(headers: HeaderMap) -> Response {
    let agent = headers
        .get(USER_AGENT)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("none");
    let html = PAGE.replace("</main>", &format!("<p>Agent: {agent}</p></main>"));
    ([(CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}

fn redirect(to: &'static str) -> Response {
    (StatusCode::FOUND, [(LOCATION, to)]).into_response()
}

async fn missing() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(CONTENT_TYPE, "text/html")],
        "<html><head><title>404 Not Found</title></head><body><h1>Nothing here</h1></body></html>",
    )
        .into_response()
}

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01";

async fn image() -> Response {
    ([(CONTENT_TYPE, "image/png")], PNG).into_response()
}

async fn undeclared_binary() -> Response {
    let mut response = PNG.into_response();
    response.headers_mut().remove(CONTENT_TYPE);
    response
}

/// 50 MiB of HTML, produced slowly chunk by chunk, counting what was produced: a client
/// that stops reading stops the production (the connection closes).
async fn huge(State(produced): State<Arc<AtomicUsize>>) -> Response {
    let chunk = Bytes::from("<p>All work and no play makes a long page.</p>\n".repeat(HUGE_CHUNK / 48));
    let stream = futures::stream::iter(0..HUGE_BYTES / chunk.len()).then(move |_| {
        let (chunk, produced) = (chunk.clone(), Arc::clone(&produced));
        async move {
            tokio::time::sleep(Duration::from_millis(5)).await;
            produced.fetch_add(chunk.len(), Ordering::Relaxed);
            Ok::<_, Infallible>(chunk)
        }
    });
    ([(CONTENT_TYPE, "text/html")], Body::from_stream(stream)).into_response()
}

/// The start of a page, then nothing more: the body never ends.
async fn stall() -> Response {
    let start = futures::stream::once(async {
        Ok::<_, Infallible>(Bytes::from_static(b"first words of a page that stalls"))
    });
    let body = start.chain(futures::stream::pending());
    ([(CONTENT_TYPE, "text/plain")], Body::from_stream(body)).into_response()
}
