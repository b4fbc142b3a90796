//! Browser hardening: every response path carries its Content-Security-Policy, nosniff,
//! no framing and a same-origin referrer policy — the app served from `FRONTEND_DIR`, the
//! API (errors included) and the API reference, whose viewer comes from this server.

use crate::support;

use reqwest::{Method, Response};
use support::TestApp;

/// The served app and its server.
async fn app_with_front_end() -> (TestApp, tempfile::TempDir) {
    let dist = tempfile::tempdir().unwrap();
    std::fs::write(
        dist.path().join("index.html"),
        "<!doctype html><div id=app></div>",
    )
    .unwrap();
    let app = TestApp::spawn(&[("http.static_dir", dist.path().to_str().unwrap())]).await;
    (app, dist)
}

fn header<'a>(response: &'a Response, name: &str) -> &'a str {
    response.headers()[name].to_str().unwrap()
}

/// The Content-Security-Policy of `response`, after checking the headers every response has.
fn policy_of(path: &str, response: &Response) -> String {
    assert_eq!(header(response, "x-content-type-options"), "nosniff", "{path}");
    assert_eq!(header(response, "x-frame-options"), "DENY", "{path}");
    assert_eq!(header(response, "referrer-policy"), "same-origin", "{path}");
    let policies = response.headers().get_all("content-security-policy");
    assert_eq!(policies.iter().count(), 1, "{path}: one policy");
    let policy = header(response, "content-security-policy").to_owned();
    assert!(policy.contains("frame-ancestors 'none'"), "{path}: {policy}");
    policy
}

#[tokio::test]
async fn every_response_path_carries_the_hardening_headers() {
    let (app, _dist) = app_with_front_end().await;

    for path in ["/", "/s/some-chat"] {
        let policy = policy_of(path, &app.call(Method::GET, path, None, None).await);
        assert!(
            policy.starts_with("default-src 'self'; script-src 'self';"),
            "{path}: {policy}"
        );
        assert!(
            !policy.contains("unsafe-eval") && !policy.contains("http"),
            "{path}: {policy}"
        );
    }
    for path in [
        "/api/v1/auth/mode",
        "/api/v1/no-such-thing",
        "/api/v1/auth/me",
        "/health",
        "/openapi.json",
    ] {
        let policy = policy_of(path, &app.call(Method::GET, path, None, None).await);
        assert_eq!(
            policy, "default-src 'none'; frame-ancestors 'none'; sandbox",
            "{path}"
        );
    }
    let refused = app.call(Method::DELETE, "/api/v1/auth/me", None, None).await;
    assert!(policy_of("DELETE /api/v1/auth/me", &refused).contains("sandbox"));
}

#[tokio::test]
async fn the_api_reference_loads_nothing_from_another_origin() {
    let app = TestApp::spawn(&[]).await;
    let page = app.call(Method::GET, "/docs", None, None).await;
    let policy = policy_of("/docs", &page);
    assert!(
        policy.starts_with("default-src 'none'; script-src 'self';"),
        "{policy}"
    );
    assert!(
        policy.contains("connect-src 'self'") && !policy.contains("http"),
        "{policy}"
    );
    let html = page.text().await.unwrap();
    assert!(html.contains(r#"<script src="/docs/scalar.js">"#), "{html}");
    assert!(!html.contains("http"), "no address of another origin: {html}");

    let script = app.call(Method::GET, "/docs/scalar.js", None, None).await;
    assert_eq!(script.status(), reqwest::StatusCode::OK);
    assert_eq!(header(&script, "content-encoding"), "gzip");
    assert!(header(&script, "content-type").starts_with("text/javascript"));
    let body = script.bytes().await.unwrap();
    assert!(
        body.len() > 500_000 && body.starts_with(&[0x1f, 0x8b]),
        "the vendored bundle"
    );
}

/// nginx serves the app in the Compose deployment: the same policy as the backend.
#[tokio::test]
async fn nginx_sends_the_policy_the_backend_sends() {
    let (app, _dist) = app_with_front_end().await;
    let served = policy_of("/", &app.call(Method::GET, "/", None, None).await);
    let conf = include_str!("../../../../deploy/docker/security-headers.conf");
    let nginx = conf
        .lines()
        .find_map(|line| line.strip_prefix("add_header Content-Security-Policy \""))
        .and_then(|rest| rest.strip_suffix("\" always;"))
        .expect("security-headers.conf sets a Content-Security-Policy");
    assert_eq!(nginx, served);
}
