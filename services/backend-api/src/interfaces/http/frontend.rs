//! The built front end served by the backend itself, so one origin carries the app, its
//! API, its event streams and the VNC relay (no CORS, and the relay's same-origin check
//! holds). Every path outside `/api` that is not a file gets `index.html`: the app routes
//! in the browser. Vite's hashed `assets/` never change, so they are cached for a year;
//! everything else is revalidated on every load so a new build is picked up at once. The
//! pages carry the app's Content-Security-Policy.

use std::path::Path;

use axum::http::{header, HeaderValue};
use axum::routing::any;
use axum::Router;
use tower::ServiceBuilder;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

use super::hardening::{policy, APP_POLICY};
use super::AppState;
use crate::application::AppError;

/// `app` with the front end in `dir` as its fallback; unknown `/api` paths stay JSON 404s.
pub fn serve(app: Router<AppState>, dir: &Path) -> Router<AppState> {
    let assets = ServiceBuilder::new()
        .layer(cache_control("public, max-age=31536000, immutable"))
        .service(ServeDir::new(dir.join("assets")));
    let pages = ServiceBuilder::new()
        .layer(cache_control("no-cache"))
        .layer(policy(APP_POLICY))
        .service(ServeDir::new(dir).fallback(ServeFile::new(dir.join("index.html"))));
    app.route("/api/{*rest}", any(|| async { AppError::NoRoute }))
        .nest_service("/assets", assets)
        .fallback_service(pages)
}

fn cache_control(value: &'static str) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static(value))
}
