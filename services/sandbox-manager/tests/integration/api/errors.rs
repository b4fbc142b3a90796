//! Errors: bad input answered clearly and changing nothing, and a missing image or engine
//! answered 503 with the manager recovering.

use super::*;

#[tokio::test(flavor = "multi_thread")]
async fn bad_input_gets_clear_errors_and_changes_nothing() {
    let manager = Manager::start(&[]);
    let client = &manager.client;
    let post = |body: &'static str| {
        client
            .request(reqwest::Method::POST, "/v1/sandboxes")
            .header("content-type", "application/json")
            .body(body)
    };
    for (body, status, expected) in [
        ("{not json", 400, "malformed_request"),
        (r#"{"owner":"a"}"#, 400, "malformed_request"),
        (
            r#"{"session_id":"s","owner":"a","colour":"red"}"#,
            400,
            "malformed_request",
        ),
        (r#"{"session_id":"../etc","owner":"a"}"#, 422, "invalid_input"),
        (r#"{"session_id":"s","owner":""}"#, 422, "invalid_input"),
        (
            r#"{"session_id":"s","owner":"a","limits":{"memory_mb":100000000}}"#,
            422,
            "invalid_input",
        ),
        (
            r#"{"session_id":"s","owner":"a","limits":{"cpus":0}}"#,
            422,
            "invalid_input",
        ),
        (
            r#"{"session_id":"s","owner":"a","limits":{"pids":10}}"#,
            422,
            "invalid_input",
        ),
        (
            r#"{"session_id":"s","owner":"a","network":"moon"}"#,
            400,
            "malformed_request",
        ),
    ] {
        let response = post(body).send().await.unwrap();
        assert_eq!(response.status(), status, "{body}");
        let json: Value = response.json().await.unwrap();
        assert_eq!(json["error"]["code"], expected, "{body}: {json}");
        assert!(!json["error"]["message"].as_str().unwrap().is_empty());
    }
    let huge = "x".repeat(100_000);
    let response = client
        .request(reqwest::Method::POST, "/v1/sandboxes")
        .header("content-type", "application/json")
        .body(format!(r#"{{"session_id":"s","owner":"{huge}"}}"#))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 413);

    assert_eq!(
        code(client.get("sbx-nope").await.unwrap_err()),
        (404, ErrorCode::NotFound)
    );
    assert_eq!(code(client.keep_alive("sbx-nope").await.unwrap_err()).0, 404);
    assert_eq!(code(client.logs("sbx-nope", None).await.unwrap_err()).0, 404);
    let bad_tail = client
        .request(reqwest::Method::GET, "/v1/sandboxes/x/logs?tail=abc")
        .send()
        .await
        .unwrap();
    assert_eq!(bad_tail.status(), 400);
    let bad_state = client
        .request(reqwest::Method::GET, "/v1/sandboxes?state=sleepy")
        .send()
        .await
        .unwrap();
    assert_eq!(bad_state.status(), 400);
    let anonymous = reqwest::get(format!("{}/v1/sandboxes", manager.base))
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);
    let json: Value = anonymous.json().await.unwrap();
    assert_eq!(json["error"]["code"], "unauthorized");
    let unknown = client
        .request(reqwest::Method::GET, "/v2/whatever")
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 404);
    let wrong_method = client
        .request(reqwest::Method::PUT, "/v1/sandboxes")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_method.status(), 405);
    // The health check and the document need no token.
    let health = manager.health().await;
    assert_eq!(health["status"], "ok");
    let doc: Value = reqwest::get(format!("{}/openapi.json", manager.base))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(doc["paths"]["/v1/sandboxes/{id}/keepalive"]["post"].is_object());

    assert!(client.list(&ListQuery::default()).await.unwrap().is_empty());
    assert!(manager.containers().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_missing_image_or_engine_is_a_503_and_the_manager_recovers() {
    let missing = Manager::start(&[("SANDBOX__IMAGE", "sandpiper-sandbox:does-not-exist")]);
    let err = missing.client.create(&request("m-1", "alice")).await.unwrap_err();
    let message = err.to_string();
    assert_eq!(code(err), (503, ErrorCode::ImageMissing));
    assert!(message.contains("./build.sh"), "{message}");
    assert!(missing
        .client
        .list(&ListQuery::default())
        .await
        .unwrap()
        .is_empty());

    // An engine that is not there yet: DOCKER_HOST points at a socket that appears later.
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("docker.sock");
    let docker_host = format!("unix://{}", socket.display());
    let manager = Manager::start_with(&[], &[("DOCKER_HOST", &docker_host)]);
    let err = manager.client.create(&request("e-1", "alice")).await.unwrap_err();
    assert_eq!(code(err), (503, ErrorCode::EngineUnavailable));
    let health = manager.health().await;
    assert_eq!(health["status"], "degraded");
    std::os::unix::fs::symlink("/var/run/docker.sock", &socket).unwrap();
    let sandbox = manager.client.create(&request("e-1", "alice")).await.unwrap();
    assert_eq!(sandbox.state, SandboxState::Ready);
}
