//! The API reference at `/docs`: Scalar's viewer rendering `/openapi.json`, served from
//! this binary (scripts/vendor-docs.sh pins and vendors it) so the page needs nothing from
//! another origin and runs under a policy as strict as the viewer allows. Its settings
//! sit in a data attribute, not an inline script; its own fonts stay off.

use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use axum::Router;

use super::hardening::policy;

/// The viewer injects its styles at run time; it only ever talks to this origin.
const DOCS_POLICY: &str = "default-src 'none'; script-src 'self'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; \
    connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE: &str = r#"<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Sandpiper API</title>
</head>
<body>
  <script id="api-reference" type="application/json" data-configuration='{"url":"/openapi.json","withDefaultFonts":false,"telemetry":false}'></script>
  <script src="/docs/scalar.js"></script>
</body>
</html>
"#;

/// The standalone bundle, gzipped once when it was vendored; every browser accepts gzip.
const SCALAR: &[u8] = include_bytes!("../../../assets/docs/scalar.js.gz");

pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/docs", get(|| async { Html(PAGE) }))
        .route("/docs/scalar.js", get(|| async { script() }))
        .layer(policy(DOCS_POLICY))
}

fn script() -> impl IntoResponse {
    let headers = [
        (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
        (header::CONTENT_ENCODING, "gzip"),
        // A new vendored version reaches browsers within a day.
        (header::CACHE_CONTROL, "public, max-age=86400"),
    ];
    (headers, SCALAR)
}
