//! Replay links as an attacker would try them: an anonymous client with the link never
//! gets the model's memory, its context, token counts or the session's internals; a
//! revoked link is not found at once and sharing again makes a new one; an expired link
//! is refused (also after a restart); another person can neither change nor revoke a
//! share; bad expiries are `422` JSON and change nothing.

use crate::support;

use std::time::Duration;

use backend_api::domain::session::SessionId;
use backend_api::infrastructure::stores::StoragePorts;
use chrono::{DateTime, Utc};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::{borrowed, TestApp};

fn share_path(id: &str) -> String {
    format!("/api/v1/sessions/{id}/share")
}

async fn share(app: &TestApp, token: &str, id: &str, body: Option<Value>) -> Value {
    app.expect(StatusCode::OK, Method::POST, &share_path(id), Some(token), body)
        .await
}

/// Every event of the replay, read `limit` at a time as the replay page reads them.
async fn replay(app: &TestApp, link: &str, limit: usize) -> Vec<Value> {
    let mut events = Vec::new();
    let mut after = 0;
    loop {
        let path = format!("/api/v1/shared/{link}/events?after={after}&limit={limit}");
        let page = app.expect(StatusCode::OK, Method::GET, &path, None, None).await;
        let page = page.as_array().unwrap().clone();
        events.extend(page.iter().cloned());
        match page.last() {
            Some(last) if page.len() == limit => after = last["seq"].as_u64().unwrap(),
            _ => return events,
        }
    }
}

/// The link's routes answer `status` with the error `code`, to anyone.
async fn link_refused(app: &TestApp, link: &str, status: StatusCode, code: &str) {
    for suffix in ["", "/events", "/screenshots/0123456789abcdef0123456789abcdef.png"] {
        let path = format!("/api/v1/shared/{link}{suffix}");
        let body = app.expect(status, Method::GET, &path, None, None).await;
        assert_eq!(body["error"]["code"], code, "{path}: {body}");
    }
}

#[tokio::test]
async fn a_replay_never_carries_the_models_memory_or_context() {
    let llm = FakeLlm::start(vec![
        Reply::Tools(vec![
            ("set_title", json!({ "title": "Greeting" }).to_string()),
            (
                "plan_update",
                json!({ "steps": [{ "id": "1", "description": "Say hello" }] }).to_string(),
            ),
        ]),
        Reply::tool("step_update", json!({ "step_id": "1", "status": "completed" })),
        Reply::Text("Hello, Ada!"),
    ])
    .await;
    let settings = llm.settings();
    let app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let owners = app.turn(&token, &id, "Say hello to me").await;
    // The session has them: the owner's log holds the model's memory and usage.
    for kind in ["memory", "usage", "status"] {
        assert!(owners.iter().any(|e| e["type"] == kind), "{kind} in {owners:#?}");
    }
    let system_prompt = llm.requests()[0]["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    let context: String = system_prompt.chars().take(80).collect();
    // And what tools answered the model, as it saw them.
    let answers: Vec<String> = owners
        .iter()
        .filter(|e| e["type"] == "memory")
        .flat_map(|e| e["messages"].as_array().unwrap().clone())
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect();
    assert!(!answers.is_empty(), "{owners:#?}");

    let link = share(&app, &token, &id, None).await["share_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let public = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("/api/v1/shared/{link}"),
            None,
            None,
        )
        .await;
    assert_eq!(
        public,
        json!({ "title": "Greeting" }),
        "only what the replay shows"
    );

    let events = replay(&app, &link, 1000).await;
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["event"]["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["message", "title", "plan", "step", "message", "done"]);
    for event in &events {
        let mut keys: Vec<&String> = event.as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(keys, ["event", "seq"], "{event}");
    }
    assert_eq!(events[4]["event"]["content"], "Hello, Ada!");
    let text = serde_json::to_string(&events).unwrap();
    let fixed = [context.as_str(), "\"memory\"", "tool_calls", "prompt_tokens", &id];
    for secret in fixed.into_iter().chain(answers.iter().map(String::as_str)) {
        assert!(!text.contains(secret), "the replay holds {secret:?}: {text}");
    }
    // Pages skip what is not shown yet stay full until the end, so a reader that
    // stops at a short page sees everything.
    for limit in [1, 2, 5] {
        assert_eq!(replay(&app, &link, limit).await, events, "pages of {limit}");
    }
}

#[tokio::test]
async fn a_revoked_link_is_gone_at_once_and_sharing_again_makes_a_new_one() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    app.post_message(&token, &id, "hello").await;
    let first = share(&app, &token, &id, None).await;
    let old = first["share_token"].as_str().unwrap().to_owned();
    assert!(first["share_expires_at"].is_null(), "{first}");
    assert_eq!(replay(&app, &old, 1000).await.len(), 1);

    let revoked = app
        .expect(
            StatusCode::OK,
            Method::DELETE,
            &share_path(&id),
            Some(&token),
            None,
        )
        .await;
    assert!(revoked["share_token"].is_null() && revoked["share_expires_at"].is_null());
    link_refused(&app, &old, StatusCode::NOT_FOUND, "not_found").await;
    // Revoking again is harmless.
    app.expect(
        StatusCode::OK,
        Method::DELETE,
        &share_path(&id),
        Some(&token),
        None,
    )
    .await;

    let again = share(&app, &token, &id, None).await;
    let new = again["share_token"].as_str().unwrap();
    assert_ne!(new, old);
    assert_eq!(replay(&app, new, 1000).await.len(), 1);
    link_refused(&app, &old, StatusCode::NOT_FOUND, "not_found").await;
    link_refused(&app, "short", StatusCode::NOT_FOUND, "not_found").await;
}

#[tokio::test]
async fn an_expired_link_is_refused_and_sharing_again_makes_a_new_one() {
    let mut app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    app.post_message(&token, &id, "hello").await;

    let asked = Utc::now();
    let shared = share(&app, &token, &id, Some(json!({ "expires_in_secs": 3600 }))).await;
    let link = shared["share_token"].as_str().unwrap().to_owned();
    let expires: DateTime<Utc> = serde_json::from_value(shared["share_expires_at"].clone()).unwrap();
    let hour = chrono::Duration::hours(1);
    assert!(
        expires >= asked + hour && expires <= Utc::now() + hour,
        "{expires}"
    );
    assert_eq!(replay(&app, &link, 1000).await.len(), 1);
    // Sharing again changes the expiry and keeps the link.
    let forever = share(&app, &token, &id, Some(json!({}))).await;
    assert_eq!(forever["share_token"], link.as_str());
    assert!(forever["share_expires_at"].is_null());
    let day = share(&app, &token, &id, Some(json!({ "expires_in_secs": 86400 }))).await;
    assert_eq!(day["share_token"], link.as_str());
    assert!(day["share_expires_at"].is_string());

    // Its time passes (written in the store, rather than waited for); after a restart
    // the link is refused, and says why.
    let data = app.take_data().unwrap();
    app.stop().await;
    let stores = StoragePorts::open(&support::settings(data.path(), &[]))
        .await
        .unwrap();
    let session_id = SessionId::parse(&id).unwrap();
    let mut session = stores.sessions.get(&session_id).await.unwrap().unwrap();
    session.share_expires_at = Some(Utc::now() - chrono::Duration::seconds(1));
    stores.sessions.update(&session).await.unwrap();
    drop(stores);
    let app = TestApp::spawn_on(data.path(), &[]).await;
    link_refused(&app, &link, StatusCode::GONE, "gone").await;
    let body = app
        .expect(
            StatusCode::GONE,
            Method::GET,
            &format!("/api/v1/shared/{link}"),
            None,
            None,
        )
        .await;
    assert!(
        body["error"]["message"].as_str().unwrap().contains("expired"),
        "{body}"
    );
    // Its owner sees it expired and shares anew: a new link; the old stays dead.
    let owners = app.session(&token, &id).await;
    assert_eq!(owners["share_token"], link.as_str());
    let renewed = share(&app, &token, &id, Some(json!({ "expires_in_secs": 600 }))).await;
    let new = renewed["share_token"].as_str().unwrap();
    assert_ne!(new, link);
    assert_eq!(replay(&app, new, 1000).await.len(), 1);
    link_refused(&app, &link, StatusCode::NOT_FOUND, "not_found").await;
}

#[tokio::test]
async fn another_person_can_neither_change_nor_revoke_a_share() {
    let app = TestApp::spawn(&[]).await;
    let (ada, _, _) = app.register("ada@example.org").await;
    let (bob, _, _) = app.register("bob@example.org").await;
    let id = app.new_session(&ada).await;
    let shared = share(&app, &ada, &id, Some(json!({ "expires_in_secs": 3600 }))).await;
    let link = shared["share_token"].as_str().unwrap();
    let path = share_path(&id);
    for (method, body) in [
        (Method::POST, None),
        (Method::POST, Some(json!({ "expires_in_secs": 60 }))),
        (Method::DELETE, None),
    ] {
        let answer = app
            .expect(
                StatusCode::NOT_FOUND,
                method.clone(),
                &path,
                Some(&bob),
                body.clone(),
            )
            .await;
        assert_eq!(answer["error"]["code"], "not_found", "{method}");
        let anonymous = app
            .expect(StatusCode::UNAUTHORIZED, method, &path, None, body)
            .await;
        assert_eq!(anonymous["error"]["code"], "unauthorized");
    }
    // Ada's link is as she left it.
    let session = app.session(&ada, &id).await;
    assert_eq!(session["share_token"], link);
    assert_eq!(session["share_expires_at"], shared["share_expires_at"]);
    app.expect(
        StatusCode::OK,
        Method::GET,
        &format!("/api/v1/shared/{link}"),
        None,
        None,
    )
    .await;
}

#[tokio::test]
async fn bad_expiries_are_422_and_change_nothing() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let path = share_path(&id);
    for (body, field) in [
        (json!({ "expires_in_secs": 0 }), Some("expires_in_secs")),
        (json!({ "expires_in_secs": 59 }), Some("expires_in_secs")),
        (json!({ "expires_in_secs": 31_536_001 }), Some("expires_in_secs")),
        (json!({ "expires_in_secs": u64::MAX }), Some("expires_in_secs")),
        (json!({ "expires_in_secs": -60 }), None),
        (json!({ "expires_in_secs": 60.5 }), None),
        (json!({ "expires_in_secs": "1h" }), None),
        (json!({ "expires_at": "2030-01-01T00:00:00Z" }), None),
    ] {
        let answer = app
            .expect(
                StatusCode::UNPROCESSABLE_ENTITY,
                Method::POST,
                &path,
                Some(&token),
                Some(body.clone()),
            )
            .await;
        assert_eq!(answer["error"]["code"], "invalid", "{body}: {answer}");
        assert_eq!(answer["error"]["field"].as_str(), field, "{body}: {answer}");
    }
    let garbled = app
        .http
        .post(format!("{}{path}", app.base))
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .body("{\"expires_in_secs\": ")
        .timeout(Duration::from_secs(30))
        .send()
        .await
        .unwrap();
    assert_eq!(garbled.status(), StatusCode::BAD_REQUEST);
    let answer: Value = garbled.json().await.unwrap();
    assert_eq!(answer["error"]["code"], "malformed_request");
    let session = app.session(&token, &id).await;
    assert!(session["share_token"].is_null(), "{session}");
}
