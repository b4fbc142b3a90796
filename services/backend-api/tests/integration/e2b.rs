//! The E2B-compatible API's doors, against the real server with no sandbox-manager:
//! `sandboxes` keys shaped as E2B's SDKs require and kept to `/e2b`; every other caller
//! refused with E2B's error shape (no key 401, a revoked key 401, a `jobs` or `full` key
//! 403, an access token 401); bad bodies, templates and timeouts refused before anything
//! is made; a listing's bad order, start time or token 400; a sandbox that is not the
//! caller's (or no sandbox) 404 on every route; the data plane refusing a request
//! without the sandbox's access token, and an expired signed link in E2B's words.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::TestApp;

/// Makes an API key of `scope` for the account `token` signs in to; the key's secret.
pub async fn key(app: &TestApp, token: &str, scope: &str) -> String {
    let made = app
        .expect(
            StatusCode::CREATED,
            Method::POST,
            "/api/v1/api-keys",
            Some(token),
            Some(json!({ "name": "sdk", "scope": scope })),
        )
        .await;
    made["key"].as_str().unwrap().to_owned()
}

/// Calls the E2B API at `path` with `X-API-Key: key`; the status and the JSON body.
pub async fn e2b(
    app: &TestApp,
    method: Method,
    path: &str,
    key: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut request = reqwest::Client::new().request(method, format!("{}/e2b{path}", app.base));
    if let Some(key) = key {
        request = request.header("x-api-key", key);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// An E2B error: `{code: <status>, message}` with a message that says what to do.
pub fn assert_e2b_error(status: StatusCode, body: &Value, expected: StatusCode, says: &str) {
    assert_eq!(status, expected, "{body}");
    assert_eq!(body["code"], expected.as_u16(), "{body}");
    let message = body["message"].as_str().unwrap_or_default();
    assert!(message.contains(says), "expected {says:?} in {message:?}");
}

#[tokio::test]
async fn a_sandboxes_key_is_shaped_for_e2b_and_kept_to_its_api() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, ada) = app.register("ada@example.org").await;
    let key = key(&app, &token, "sandboxes").await;
    let hex = key.strip_prefix("e2b_").expect("the SDK's e2b_ prefix");
    assert_eq!(hex.len(), 40);
    assert!(
        hex.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
        "{key}"
    );

    // Sandpiper's own API: who it belongs to, nothing else.
    let me = app
        .expect(StatusCode::OK, Method::GET, "/api/v1/auth/me", Some(&key), None)
        .await;
    assert_eq!(me["id"], ada.as_str());
    for path in ["/api/v1/sessions", "/api/v1/jobs", "/api/v1/api-keys"] {
        let refused = app
            .expect(StatusCode::FORBIDDEN, Method::GET, path, Some(&key), None)
            .await;
        assert!(
            refused["error"]["message"]
                .as_str()
                .unwrap()
                .contains("under /e2b"),
            "{refused}"
        );
    }
    // The E2B API: its listing answers (empty) in E2B's shape.
    let (status, listed) = e2b(&app, Method::GET, "/v2/sandboxes", Some(&key), None).await;
    assert_eq!(status, StatusCode::OK, "{listed}");
    assert_eq!(listed, json!([]));
}

#[tokio::test]
async fn callers_without_a_sandboxes_key_are_refused_in_e2b_shape() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let (status, body) = e2b(&app, Method::GET, "/v2/sandboxes", None, None).await;
    assert_e2b_error(status, &body, StatusCode::UNAUTHORIZED, "X-API-Key");
    let (status, body) = e2b(
        &app,
        Method::GET,
        "/v2/sandboxes",
        Some("e2b_0123456789abcdef0123456789abcdef01234567"),
        None,
    )
    .await;
    assert_e2b_error(status, &body, StatusCode::UNAUTHORIZED, "");
    let (status, body) = e2b(&app, Method::GET, "/v2/sandboxes", Some(&token), None).await;
    assert_e2b_error(
        status,
        &body,
        StatusCode::UNAUTHORIZED,
        "not a sign-in's access token",
    );
    for scope in ["jobs", "full"] {
        let other = key(&app, &token, scope).await;
        let (status, body) = e2b(
            &app,
            Method::POST,
            "/v2/sandboxes",
            Some(&other),
            Some(json!({ "templateID": "base" })),
        )
        .await;
        assert_e2b_error(status, &body, StatusCode::FORBIDDEN, "scope `sandboxes`");
    }

    // A revoked key stops at once.
    let made = app
        .expect(
            StatusCode::CREATED,
            Method::POST,
            "/api/v1/api-keys",
            Some(&token),
            Some(json!({ "name": "sdk", "scope": "sandboxes" })),
        )
        .await;
    let secret = made["key"].as_str().unwrap();
    assert_eq!(
        e2b(&app, Method::GET, "/v2/sandboxes", Some(secret), None)
            .await
            .0,
        StatusCode::OK
    );
    let path = format!("/api/v1/api-keys/{}", made["id"].as_str().unwrap());
    app.expect(StatusCode::NO_CONTENT, Method::DELETE, &path, Some(&token), None)
        .await;
    let (status, body) = e2b(&app, Method::GET, "/v2/sandboxes", Some(secret), None).await;
    assert_e2b_error(status, &body, StatusCode::UNAUTHORIZED, "revoked");
}

#[tokio::test]
async fn bad_requests_are_refused_before_anything_is_made() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let key = key(&app, &token, "sandboxes").await;
    let create = |body: Value| e2b(&app, Method::POST, "/v2/sandboxes", Some(&key), Some(body));
    let (status, body) = create(json!({ "templateID": "ubuntu-22" })).await;
    assert_e2b_error(
        status,
        &body,
        StatusCode::UNPROCESSABLE_ENTITY,
        "no template `ubuntu-22`",
    );
    let (status, body) = create(json!({ "timeout": 60 })).await;
    assert_e2b_error(status, &body, StatusCode::BAD_REQUEST, "templateID");
    for timeout in [-1, 86_401] {
        let (status, body) = create(json!({ "templateID": "base", "timeout": timeout })).await;
        assert_e2b_error(
            status,
            &body,
            StatusCode::UNPROCESSABLE_ENTITY,
            "0 to 86400 seconds",
        );
    }
    let (status, body) = create(json!({ "templateID": "base", "envVars": { "1BAD": "x" } })).await;
    assert_e2b_error(
        status,
        &body,
        StatusCode::UNPROCESSABLE_ENTITY,
        "not a variable name",
    );
    let (status, body) = create(json!({ "templateID": "base", "metadata": { "k": 5 } })).await;
    assert_e2b_error(
        status,
        &body,
        StatusCode::BAD_REQUEST,
        "not what this route takes",
    );
    let raw = reqwest::Client::new()
        .post(format!("{}/e2b/v2/sandboxes", app.base))
        .header("x-api-key", &key)
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), StatusCode::BAD_REQUEST);
    let (status, body) = e2b(&app, Method::GET, "/v2/sandboxes?limit=lots", Some(&key), None).await;
    assert_e2b_error(status, &body, StatusCode::BAD_REQUEST, "limit");
    let (status, body) = e2b(&app, Method::GET, "/v2/sandboxes?state=asleep", Some(&key), None).await;
    assert_e2b_error(status, &body, StatusCode::BAD_REQUEST, "running, paused");
    for (query, says) in [
        ("order=newest", "not one of asc, desc"),
        ("startedAfter=yesterday", "not an RFC 3339 time"),
        ("startedAfter=2025-01-31", "not an RFC 3339 time"),
        (
            "nextToken=0195f0a8-0000-7000-8000-000000000001",
            "not one a listing gave out",
        ),
    ] {
        let (status, body) = e2b(
            &app,
            Method::GET,
            &format!("/v2/sandboxes?{query}"),
            Some(&key),
            None,
        )
        .await;
        assert_e2b_error(status, &body, StatusCode::BAD_REQUEST, says);
    }
    let (status, body) = e2b(
        &app,
        Method::GET,
        "/v2/sandboxes?order=asc&startedAfter=2025-01-31T12%3A00%3A00%2B01%3A00&template=base",
        Some(&key),
        None,
    )
    .await;
    assert_eq!(
        (status, body),
        (StatusCode::OK, json!([])),
        "E2B's own filters are taken"
    );
    let (status, body) = e2b(&app, Method::POST, "/templates", Some(&key), Some(json!({}))).await;
    assert_e2b_error(status, &body, StatusCode::NOT_IMPLEMENTED, "not served here");
    assert_eq!(
        e2b(&app, Method::GET, "/v2/sandboxes", Some(&key), None).await.1,
        json!([]),
        "nothing was made"
    );
}

#[tokio::test]
async fn no_sandbox_of_another_or_of_no_one_is_found_on_any_route() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let key = key(&app, &token, "sandboxes").await;
    let unknown = uuid::Uuid::now_v7().to_string();
    for id in [unknown.as_str(), "not-an-id", "..%2F..%2Fetc"] {
        for (method, path, body) in [
            (Method::GET, format!("/sandboxes/{id}"), None),
            (Method::DELETE, format!("/sandboxes/{id}"), None),
            (
                Method::POST,
                format!("/sandboxes/{id}/timeout"),
                Some(json!({ "timeout": 30 })),
            ),
            (
                Method::POST,
                format!("/sandboxes/{id}/connect"),
                Some(json!({ "timeout": 30 })),
            ),
            (
                Method::POST,
                format!("/v2/sandboxes/{id}/connect"),
                Some(json!({ "timeout": 30 })),
            ),
            (Method::POST, format!("/sandboxes/{id}/pause"), None),
            (Method::GET, format!("/sandboxes/{id}/metrics"), None),
            (
                Method::POST,
                format!("/sandboxes/{id}/resume"),
                Some(json!({ "timeout": 30 })),
            ),
        ] {
            let (status, body) = e2b(&app, method.clone(), &path, Some(&key), body).await;
            assert_e2b_error(status, &body, StatusCode::NOT_FOUND, "sandbox not found");
        }
    }
    // The data plane: no sandbox named, no token, a token that is not the sandbox's.
    let data = |headers: Vec<(&'static str, String)>| {
        let mut request = reqwest::Client::new().get(format!("{}/e2b/sandbox/health", app.base));
        for (name, value) in headers {
            request = request.header(name, value);
        }
        async move {
            let response = request.send().await.unwrap();
            let status = response.status();
            (status, response.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let (status, body) = data(vec![]).await;
    assert_e2b_error(status, &body, StatusCode::BAD_REQUEST, "E2b-Sandbox-Id");
    let port = ("e2b-sandbox-port", "49983".to_owned());
    let (status, body) = data(vec![("e2b-sandbox-id", unknown.clone()), port.clone()]).await;
    assert_e2b_error(status, &body, StatusCode::UNAUTHORIZED, "X-Access-Token");
    let (status, body) = data(vec![
        ("e2b-sandbox-id", unknown.clone()),
        port.clone(),
        ("x-access-token", "00".repeat(32)),
    ])
    .await;
    assert_e2b_error(status, &body, StatusCode::UNAUTHORIZED, "not the sandbox's");
    let (status, body) = data(vec![
        ("e2b-sandbox-id", unknown),
        ("e2b-sandbox-port", "8080".into()),
    ])
    .await;
    assert_e2b_error(status, &body, StatusCode::BAD_GATEWAY, "port 8080 is not open");

    // A signed link past its expiration is refused before any sandbox is looked for, in
    // E2B's words (its SDK's tests compare the body whole).
    let expired = format!(
        "{}/files?path=notes.txt&username=user&signature=v1_abc&signature_expiration=1",
        app.base
    );
    let refused = reqwest::get(expired).await.unwrap();
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        refused.json::<Value>().await.unwrap(),
        json!({ "code": 401, "message": "signature is already expired" })
    );
}

/// A path that would leave the E2B prefix on the sandbox's tool-api once normalised is
/// refused before any sandbox is looked for, however the dots are spelled. Sent as raw
/// HTTP/1.1, since an HTTP client normalises most of them away before sending.
#[tokio::test]
async fn the_data_plane_refuses_paths_that_climb_out_of_the_sandbox_api() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let app = TestApp::spawn(&[]).await;
    let address = app.base.trim_start_matches("http://").to_owned();
    for path in [
        "/e2b/sandbox/../../shell/exec",
        "/e2b/sandbox/%2e%2e/%2E%2e/shell/exec",
        "/e2b/sandbox/files/.%2e/.%2e/.%2e/health",
        "/e2b/sandbox/..%2f..%2fshell%2fexec",
        "/e2b/sandbox/..%5c..%5cshell",
        "/e2b/sandbox/./health",
    ] {
        let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: {address}\r\nE2b-Sandbox-Id: isbx\r\n\
             E2b-Sandbox-Port: 49983\r\nX-Access-Token: {}\r\nConnection: close\r\n\r\n",
            "00".repeat(32)
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 400"), "{path}: {head}");
        let body: Value = serde_json::from_str(body).unwrap();
        assert_e2b_error(
            StatusCode::BAD_REQUEST,
            &body,
            StatusCode::BAD_REQUEST,
            "`..` segments",
        );
    }
}
