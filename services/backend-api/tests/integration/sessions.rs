//! Sessions over HTTP: the lifecycle, paging, privacy between users, bad input, and the
//! system routes. (Replay links: `sharing`.)

use crate::support;

use reqwest::{Method, StatusCode};
use serde_json::json;
use support::TestApp;

#[tokio::test]
async fn create_list_rename_stop_read_delete() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let t = Some(token.as_str());
    let named = app
        .expect(
            StatusCode::CREATED,
            Method::POST,
            "/api/v1/sessions",
            t,
            Some(json!({ "title": "Trip to Lisbon" })),
        )
        .await;
    assert_eq!(named["title"], "Trip to Lisbon");
    assert_eq!(named["status"], "pending");
    assert_eq!(named["last_seq"], 0);
    let id = named["id"].as_str().unwrap();

    let mut ids = vec![id.to_owned()];
    for _ in 0..4 {
        ids.push(app.new_session(&token).await);
    }
    ids.reverse(); // newest first

    let page = app
        .expect(StatusCode::OK, Method::GET, "/api/v1/sessions?limit=2", t, None)
        .await;
    let listed: Vec<&str> = page["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, &ids[..2]);
    let next = page["next_before"].as_str().unwrap();
    let page = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("/api/v1/sessions?limit=3&before={next}"),
            t,
            None,
        )
        .await;
    let listed: Vec<&str> = page["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, &ids[2..]);

    let path = format!("/api/v1/sessions/{id}");
    app.post_message(&token, id, "Find me a hotel near the river, under 150 € a night.")
        .await;
    let session = app.expect(StatusCode::OK, Method::GET, &path, t, None).await;
    assert_eq!(session["last_seq"], 1);
    assert_eq!(
        session["last_message_preview"],
        "Find me a hotel near the river, under 150 € a night."
    );
    assert_eq!(session["status"], "pending", "until an agent picks it up");

    let renamed = app
        .expect(
            StatusCode::OK,
            Method::PATCH,
            &path,
            t,
            Some(json!({ "title": "Lisbon hotels" })),
        )
        .await;
    assert_eq!(renamed["title"], "Lisbon hotels");
    let body = app
        .expect(
            StatusCode::UNPROCESSABLE_ENTITY,
            Method::PATCH,
            &path,
            t,
            Some(json!({ "title": "   " })),
        )
        .await;
    assert_eq!(body["error"]["code"], "invalid");

    // Nothing runs: stopping changes nothing and logs nothing.
    let stopped = app
        .expect(StatusCode::OK, Method::POST, &format!("{path}/stop"), t, None)
        .await;
    assert_eq!(stopped["status"], "pending");
    assert_eq!(stopped["last_seq"], 1);
    let read = app
        .expect(StatusCode::OK, Method::POST, &format!("{path}/read"), t, None)
        .await;
    assert_eq!(read["unread_count"], 0);

    app.expect(StatusCode::NO_CONTENT, Method::DELETE, &path, t, None)
        .await;
    app.expect(StatusCode::NOT_FOUND, Method::GET, &path, t, None)
        .await;
    app.expect(StatusCode::NOT_FOUND, Method::DELETE, &path, t, None)
        .await;
}

#[tokio::test]
async fn another_users_sessions_do_not_exist_for_you() {
    let app = TestApp::spawn(&[]).await;
    let (ada, _, _) = app.register("ada@example.org").await;
    let (bob, _, _) = app.register("bob@example.org").await;
    let id = app.new_session(&ada).await;
    app.post_message(&ada, &id, "private").await;
    let b = Some(bob.as_str());
    let path = format!("/api/v1/sessions/{id}");
    for (method, suffix, body) in [
        (Method::GET, "", None),
        (Method::PATCH, "", Some(json!({ "title": "mine now" }))),
        (Method::DELETE, "", None),
        (Method::POST, "/stop", None),
        (Method::POST, "/share", None),
        (Method::POST, "/read", None),
        (Method::POST, "/messages", Some(json!({ "content": "hi" }))),
        (Method::GET, "/events", None),
    ] {
        let body = app
            .expect(
                StatusCode::NOT_FOUND,
                method.clone(),
                &format!("{path}{suffix}"),
                b,
                body,
            )
            .await;
        assert_eq!(body["error"]["code"], "not_found", "{method} {suffix}");
    }
    let page = app
        .expect(StatusCode::OK, Method::GET, "/api/v1/sessions", b, None)
        .await;
    assert!(page["sessions"].as_array().unwrap().is_empty());
    // Ada's session is untouched.
    let session = app
        .expect(StatusCode::OK, Method::GET, &path, Some(&ada), None)
        .await;
    assert_eq!(session["last_seq"], 1);
    assert_eq!(session["title"], "New chat");
}

#[tokio::test]
async fn bad_input_gets_clear_errors() {
    let app = TestApp::spawn(&[("http.body_limit_bytes", "200000")]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let t = Some(token.as_str());
    let id = app.new_session(&token).await;
    let messages = format!("/api/v1/sessions/{id}/messages");

    let body = app
        .expect(
            StatusCode::UNPROCESSABLE_ENTITY,
            Method::POST,
            &messages,
            t,
            Some(json!({ "content": "  " })),
        )
        .await;
    assert_eq!(body["error"]["message"], "the message is empty");
    let body = app
        .expect(
            StatusCode::UNPROCESSABLE_ENTITY,
            Method::POST,
            &messages,
            t,
            Some(json!({ "text": "hi" })),
        )
        .await;
    assert!(body["error"]["message"].as_str().unwrap().contains("content"));
    let big = "x".repeat(150 * 1024);
    let body = app
        .expect(
            StatusCode::PAYLOAD_TOO_LARGE,
            Method::POST,
            &messages,
            t,
            Some(json!({ "content": big })),
        )
        .await;
    assert_eq!(body["error"]["code"], "payload_too_large");
    let huge = "x".repeat(300 * 1024);
    let body = app
        .expect(
            StatusCode::PAYLOAD_TOO_LARGE,
            Method::POST,
            &messages,
            t,
            Some(json!({ "content": huge })),
        )
        .await;
    assert_eq!(body["error"]["code"], "payload_too_large");
    let body = app
        .expect(
            StatusCode::BAD_REQUEST,
            Method::GET,
            "/api/v1/sessions?limit=many",
            t,
            None,
        )
        .await;
    assert_eq!(body["error"]["code"], "malformed_request");
    let body = app
        .expect(
            StatusCode::UNPROCESSABLE_ENTITY,
            Method::GET,
            "/api/v1/sessions?before=%20",
            t,
            None,
        )
        .await;
    assert_eq!(body["error"]["code"], "invalid");
    let body = app
        .expect(
            StatusCode::NOT_FOUND,
            Method::GET,
            "/api/v1/sessions/not-a-session",
            t,
            None,
        )
        .await;
    assert_eq!(body["error"]["code"], "not_found");
    let body = app
        .expect(
            StatusCode::NOT_FOUND,
            Method::GET,
            "/api/v1/nothing-here",
            t,
            None,
        )
        .await;
    assert_eq!(body["error"]["code"], "not_found");
    let body = app
        .expect(
            StatusCode::METHOD_NOT_ALLOWED,
            Method::PUT,
            "/api/v1/sessions",
            t,
            None,
        )
        .await;
    assert_eq!(body["error"]["code"], "method_not_allowed");
    let response = app
        .http
        .get(format!("{}/api/v1/sessions/{id}/events", app.base))
        .bearer_auth(&token)
        .header("Last-Event-ID", "yesterday")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);

    // Nothing stored was harmed.
    let session = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("/api/v1/sessions/{id}"),
            t,
            None,
        )
        .await;
    assert_eq!(session["last_seq"], 0);
}

#[tokio::test]
async fn system_routes_ids_cors_and_documentation() {
    let app = TestApp::spawn(&[("http.cors_origins", "http://localhost:5173")]).await;
    let health = app
        .expect(StatusCode::OK, Method::GET, "/health", None, None)
        .await;
    assert_eq!(health["status"], "ok");
    let ready = app
        .expect(StatusCode::OK, Method::GET, "/ready", None, None)
        .await;
    assert_eq!(ready["status"], "ready");
    assert!(ready["checks"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["status"] == "ok"));

    let response = app.call(Method::GET, "/health", None, None).await;
    assert_eq!(
        response.headers()["x-request-id"].len(),
        36,
        "a request id is made"
    );
    let response = app
        .http
        .get(format!("{}/health", app.base))
        .header("x-request-id", "abc-123")
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.headers()["x-request-id"],
        "abc-123",
        "a client's id is kept"
    );

    let preflight = app
        .http
        .request(Method::OPTIONS, format!("{}/api/v1/sessions", app.base))
        .header("origin", "http://localhost:5173")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "authorization,content-type")
        .send()
        .await
        .unwrap();
    assert_eq!(
        preflight.headers()["access-control-allow-origin"],
        "http://localhost:5173"
    );
    let foreign = app
        .http
        .get(format!("{}/health", app.base))
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert!(foreign.headers().get("access-control-allow-origin").is_none());

    let metrics = app
        .http
        .get(format!("{}/metrics", app.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(metrics.contains("http_requests_total{"), "{metrics}");
    assert!(metrics.contains("route=\"/health\""), "{metrics}");

    let doc = app
        .expect(StatusCode::OK, Method::GET, "/openapi.json", None, None)
        .await;
    for path in [
        "/api/v1/auth/login",
        "/api/v1/sessions/{id}/events",
        "/api/v1/users",
        "/api/v1/shared/{token}",
    ] {
        assert!(doc["paths"].get(path).is_some(), "{path} is documented");
    }
    let page = app.http.get(format!("{}/docs", app.base)).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(
        page.text().await.unwrap().contains("Sandpiper API"),
        "the page is the API reference"
    );
}
