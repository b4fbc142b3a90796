//! Health, authentication, the OpenAPI document, info, and the error body on bad requests.

use crate::support;

use reqwest::{Method, StatusCode};
use support::{spawn_app, TOKEN};
use tool_api::config::Settings;
use tool_api::Application;
use tool_api_contract::{ErrorBody, ErrorCode};

#[tokio::test]
async fn health_needs_no_token() {
    let app = spawn_app().await;
    let health = app.client.health().await.unwrap();
    assert_eq!(health.status, tool_api_contract::info::Readiness::Ready);
    assert_eq!(health.desktop, None, "no desktop unless enabled");
    assert_eq!(health.version, env!("CARGO_PKG_VERSION"));
}

#[tokio::test]
async fn every_other_route_needs_the_token() {
    let app = spawn_app().await;
    for (token, expected) in [
        (None, StatusCode::UNAUTHORIZED),
        (Some("wrong-token-0123456789"), StatusCode::UNAUTHORIZED),
        (Some(TOKEN), StatusCode::OK),
    ] {
        let mut request = app.http.get(format!("{}/v1/info", app.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), expected);
        if expected == StatusCode::UNAUTHORIZED {
            let body: ErrorBody = response.json().await.unwrap();
            assert_eq!(body.error.code, ErrorCode::Unauthorized);
        }
    }
    // A token in another scheme is not accepted either.
    let response = app
        .http
        .get(format!("{}/v1/info", app.base))
        .basic_auth("x", Some(TOKEN))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn refuses_to_start_without_a_token_unless_told_to() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = Settings::local(dir.path().into(), None);
    settings.insecure_no_auth = false;
    let err = Application::build(settings.clone())
        .await
        .err()
        .expect("must refuse");
    assert!(err.to_string().contains("SANDBOX_TOKEN"), "{err}");

    settings.token = Some("short".into());
    assert!(
        Application::build(settings.clone()).await.is_err(),
        "a short token must be refused"
    );

    settings.token = None;
    settings.insecure_no_auth = true;
    let app = Application::build(settings).await.unwrap();
    let base = format!("http://{}", app.address());
    tokio::spawn(app.run_until_stopped());
    let response = reqwest::get(format!("{base}/v1/info")).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn info_reports_user_workspace_and_resources() {
    let app = spawn_app().await;
    let info = app.client.info().await.unwrap();
    assert_eq!(info.workspace, app.root().display().to_string());
    assert_eq!(info.uid, nix::unistd::getuid().as_raw());
    assert!(!info.user.is_empty());
    assert!(info.memory.limit_bytes > 0 && info.memory.used_bytes > 0);
    assert!(info.memory.used_bytes <= info.memory.limit_bytes);
    assert!(info.disk.total_bytes > 0 && info.disk.available_bytes <= info.disk.total_bytes);
    assert!(info.cpu.cores >= 1);
}

#[tokio::test]
async fn unknown_routes_and_methods_get_json_errors() {
    let app = spawn_app().await;
    let response = app.request(Method::GET, "/v1/nope").send().await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert_eq!(
        response.json::<ErrorBody>().await.unwrap().error.code,
        ErrorCode::NotFound
    );

    let response = app.request(Method::DELETE, "/v1/info").send().await.unwrap();
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(
        response.json::<ErrorBody>().await.unwrap().error.code,
        ErrorCode::MethodNotAllowed
    );
}

#[tokio::test]
async fn openapi_document_lists_the_routes() {
    let app = spawn_app().await;
    let doc: serde_json::Value = reqwest::get(format!("{}/openapi.json", app.base))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let paths = doc["paths"].as_object().expect("paths");
    for route in [
        "/health",
        "/v1/info",
        "/v1/shell/sessions",
        "/v1/shell/sessions/{id}/exec",
        "/v1/shell/sessions/{id}/stream",
        "/v1/shell/terminal",
        "/v1/mcp/stdio",
        "/v1/browser/view",
        "/v1/browser/tabs/switch",
    ] {
        assert!(
            paths.contains_key(route),
            "{route} missing from {:?}",
            paths.keys().collect::<Vec<_>>()
        );
    }
    assert!(doc["components"]["schemas"]["ErrorBody"].is_object());
}

#[tokio::test]
async fn the_desktop_never_starts_on_a_bad_screen() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = Settings::local(dir.path().into(), Some(TOKEN.into()));
    settings.desktop.enabled = true;
    settings.desktop.screen = "huge".into();
    let err = Application::build(settings)
        .await
        .err()
        .expect("a bad screen is refused");
    assert!(err.to_string().contains("WIDTHxHEIGHTxDEPTH"), "{err}");
}

#[tokio::test]
async fn without_a_desktop_its_routes_say_so() {
    let app = spawn_app().await;
    let err = app.client.vnc().await.unwrap_err();
    assert_eq!(err.code(), Some(ErrorCode::NotConfigured), "{err}");
    assert!(err.to_string().contains("TOOL_API_DESKTOP__ENABLED"), "{err}");
    let err = app
        .client
        .navigate(&tool_api_contract::browser::NavigateRequest {
            url: "http://127.0.0.1:1/".into(),
            timeout_secs: None,
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(ErrorCode::NotConfigured), "{err}");
}

#[tokio::test]
async fn a_held_sandbox_runs_nothing_until_its_network_is_ready() {
    let app = support::spawn_app_with(|settings| settings.hold_until_network = true).await;
    let starting = app.client.health().await.unwrap();
    assert_eq!(starting.status, tool_api_contract::info::Readiness::Starting);
    let exec = tool_api_contract::shell::ExecRequest {
        command: "touch ran".into(),
        ..Default::default()
    };
    let held = support::expect_code(app.client.exec("early", &exec).await, ErrorCode::NetworkPending);
    assert!(held.contains("network rules"), "{held}");
    assert!(!app.path("ran").exists());

    // Only the token's holder opens it.
    let anonymous = app
        .http
        .post(format!("{}/v1/network-ready", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        app.client.health().await.unwrap().status,
        tool_api_contract::info::Readiness::Starting
    );

    app.client.network_ready().await.unwrap();
    app.client.network_ready().await.unwrap();
    assert_eq!(
        app.client.health().await.unwrap().status,
        tool_api_contract::info::Readiness::Ready
    );
    let ran = app.client.exec("early", &exec).await.unwrap();
    assert_eq!(ran.exit_code, Some(0), "{}", ran.output);
    assert!(app.path("ran").exists());
}
