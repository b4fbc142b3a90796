//! Browser hardening on every response. Each one carries a Content-Security-Policy: the
//! app's (set where `frontend` serves it), the API reference's (set by `docs`) or, for
//! everything else — JSON, event streams, files and screenshots from a sandbox — one
//! under which nothing loads or runs and the document is sandboxed, so a file opened
//! straight from the API cannot act as the signed-in person. No response may be framed
//! by another page, sniffed into another type, or send its address on as a referrer.

use axum::http::{header, HeaderName, HeaderValue};
use axum::Router;
use tower_http::set_header::SetResponseHeaderLayer;

/// The app's policy. Scripts only from its own files; styles may also be inline because
/// xterm.js and noVNC style what they draw at run time (nothing can be fetched from
/// another origin to leak through a style). `data:` and `blob:` images are MCP tool
/// images and screenshots fetched with the token; `blob:` frames are previews. `'self'`
/// in `connect-src` covers the event streams and the same-origin WebSocket relays.
/// deploy/docker/nginx.conf sends the same policy (a test holds them equal).
pub const APP_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; \
    connect-src 'self'; frame-src blob:; worker-src 'self'; object-src 'none'; \
    base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// What the API answers with unless a route says otherwise.
const API_POLICY: &str = "default-src 'none'; frame-ancestors 'none'; sandbox";

/// `value` as this response's Content-Security-Policy, whatever the outer layers add.
pub fn policy(value: &'static str) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::overriding(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(value))
}

/// `router` with the headers every response carries.
pub fn harden<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    let always = |name: HeaderName, value: &'static str| {
        SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value))
    };
    router
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(API_POLICY),
        ))
        .layer(always(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(always(header::X_FRAME_OPTIONS, "DENY"))
        .layer(always(header::REFERRER_POLICY, "same-origin"))
}
