//! Personal API keys against the real server: made once, used as a bearer wherever an
//! access token is, listed with their use, revoked and expired at once (401), a `jobs`
//! key kept to its scope (403), keys private to their owner (404) but not to admins, the
//! rate limit (429), bad input (422, 409), and only the digest in the store.

use std::time::Duration;

use backend_api::infrastructure::stores::StoragePorts;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{self, TestApp};

const KEYS: &str = "/api/v1/api-keys";
const ADMIN_KEYS: &str = "/api/v1/admin/api-keys";

async fn create(app: &TestApp, token: &str, body: Value) -> Value {
    app.expect(StatusCode::CREATED, Method::POST, KEYS, Some(token), Some(body))
        .await
}

async fn list(app: &TestApp, token: &str) -> Vec<Value> {
    let listed = app
        .expect(StatusCode::OK, Method::GET, KEYS, Some(token), None)
        .await;
    listed.as_array().unwrap().clone()
}

/// Calls `GET /api/v1/auth/me` with `key`; the status and the error's message.
async fn me(app: &TestApp, key: &str) -> (StatusCode, Value) {
    let response = app.call(Method::GET, "/api/v1/auth/me", Some(key), None).await;
    (response.status(), response.json().await.unwrap())
}

fn message(body: &Value) -> &str {
    body["error"]["message"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn a_key_is_shown_once_acts_as_its_owner_and_stops_at_once_when_revoked() {
    let mut app = TestApp::spawn(&[("api_keys.usage_write_secs", "1")]).await;
    let (token, _, ada) = app.register("ada@example.org").await;
    let made = create(&app, &token, json!({ "name": "  nightly CI  " })).await;
    let key = made["key"].as_str().unwrap().to_owned();
    assert!(key.starts_with("sp_") && key.len() == 43, "{key}");
    assert!(key[3..].bytes().all(|b| b.is_ascii_alphanumeric()));
    assert_eq!(made["name"], "nightly CI");
    assert_eq!(made["scope"], "full", "the default scope");
    assert_eq!(made["prefix"], &key[3..11]);
    assert!(made["expires_at"].is_null());
    assert!(made["created_at"].is_string());

    // The key is a bearer like an access token: the same person, on any route.
    let (status, me_by_key) = me(&app, &key).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me_by_key["id"], ada.as_str());
    let session = app.new_session(&key).await;
    app.expect(
        StatusCode::OK,
        Method::GET,
        &format!("/api/v1/sessions/{session}"),
        Some(&token),
        None,
    )
    .await;
    // A `full` key may make keys.
    let second = create(&app, &key, json!({ "name": "made by a key" })).await;
    let (status, _) = me(&app, second["key"].as_str().unwrap()).await;
    assert_eq!(status, StatusCode::OK);

    // Listed with its use (written every second here), never with its secret.
    let mut listed = Vec::new();
    for _ in 0..50 {
        listed = list(&app, &token).await;
        if listed[0]["requests"] == 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0]["id"], made["id"]);
    assert_eq!(listed[0]["requests"], 3, "{listed:?}");
    assert!(listed[0]["last_used_at"].is_string());
    assert!(listed[1]["last_used_at"].is_string());
    assert_eq!(listed[1]["requests"], 1);
    let text = serde_json::to_string(&listed).unwrap();
    assert!(!text.contains(&key[3..]) && !text.contains("digest") && !text.contains("\"key\""));

    // Revoked: refused at once, with a reason; revoking again finds nothing.
    let path = format!("{KEYS}/{}", made["id"].as_str().unwrap());
    app.expect(StatusCode::NO_CONTENT, Method::DELETE, &path, Some(&token), None)
        .await;
    let (status, body) = me(&app, &key).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["error"]["code"], "unauthorized");
    assert!(message(&body).contains("revoked"), "{body}");
    app.expect(StatusCode::NOT_FOUND, Method::DELETE, &path, Some(&token), None)
        .await;
    assert_eq!(list(&app, &token).await.len(), 1);
    // A key that is not one, or mistyped.
    let mistyped = format!("{}{}", &key[..42], if key.ends_with('a') { 'b' } else { 'a' });
    for bad in [mistyped.as_str(), "sp_short"] {
        let (status, body) = me(&app, bad).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert!(message(&body).contains("not valid"), "{body}");
    }

    // The store holds the key's digest, never the key.
    app.stop().await;
    let stores = StoragePorts::open(&support::settings(&app.data_dir, &[]))
        .await
        .unwrap();
    let stored = stores
        .api_keys
        .by_digest(&service_kit::sha256_hex(&key))
        .await
        .unwrap()
        .expect("found by its digest");
    assert!(stored.revoked_at.is_some());
    let record = serde_json::to_string(&stored).unwrap();
    assert!(!record.contains(&key[3..]), "{record}");
    if support::shared_stores().is_none() {
        drop(stores);
        let file = std::fs::read(app.data_dir.join("sandpiper.redb")).unwrap();
        let find = |needle: &[u8]| file.windows(needle.len()).any(|w| w == needle);
        assert!(find(stored.digest.as_bytes()));
        assert!(!find(&key.as_bytes()[3..]), "the key is nowhere in the file");
    }
}

#[tokio::test]
async fn an_expired_key_is_refused_and_says_so() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let soon = chrono::Utc::now() + chrono::Duration::seconds(2);
    let made = create(&app, &token, json!({ "name": "short", "expires_at": soon })).await;
    let key = made["key"].as_str().unwrap();
    assert!(made["expires_at"].is_string());
    let (status, _) = me(&app, key).await;
    assert_eq!(status, StatusCode::OK);
    let wait = (soon - chrono::Utc::now()).to_std().unwrap_or_default();
    tokio::time::sleep(wait + Duration::from_millis(100)).await;
    let (status, body) = me(&app, key).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert!(message(&body).contains("expired"), "{body}");
    // Still listed, so its owner sees why, and can revoke it.
    assert_eq!(list(&app, &token).await.len(), 1);
}

#[tokio::test]
async fn a_jobs_key_reaches_only_the_jobs_api_and_who_it_belongs_to() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, ada) = app.register("ada@example.org").await;
    let made = create(&app, &token, json!({ "name": "runner", "scope": "jobs" })).await;
    assert_eq!(made["scope"], "jobs");
    let key = made["key"].as_str().unwrap();
    let (status, me_by_key) = me(&app, key).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me_by_key["id"], ada.as_str());
    for (method, path) in [
        (Method::GET, "/api/v1/sessions"),
        (Method::POST, "/api/v1/sessions"),
        (Method::GET, KEYS),
        (Method::POST, KEYS),
    ] {
        let response = app
            .call(method.clone(), path, Some(key), Some(json!({ "name": "x" })))
            .await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{method} {path}");
        let body: Value = response.json().await.unwrap();
        assert!(message(&body).contains("scope is `jobs`"), "{body}");
    }
    // Refused before it does anything: no session was made.
    let sessions = app
        .expect(
            StatusCode::OK,
            Method::GET,
            "/api/v1/sessions",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(sessions["sessions"], json!([]));
}

#[tokio::test]
async fn keys_are_private_to_their_owner_and_admins_see_and_revoke_all() {
    let app = TestApp::spawn(&[]).await;
    let (admin, _, _) = app.register("admin@example.org").await;
    let (ada, _, ada_id) = app.register("ada@example.org").await;
    let (bob, _, bob_id) = app.register("bob@example.org").await;
    let adas = create(&app, &ada, json!({ "name": "ada's" })).await;
    let bobs = create(&app, &bob, json!({ "name": "bob's", "expires_in_days": 30 })).await;
    let bobs_key = bobs["key"].as_str().unwrap();

    // Bob neither sees nor revokes Ada's key: it looks like none.
    let listed = list(&app, &bob).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["id"], bobs["id"]);
    let adas_path = format!("{KEYS}/{}", adas["id"].as_str().unwrap());
    let refused = app
        .expect(
            StatusCode::NOT_FOUND,
            Method::DELETE,
            &adas_path,
            Some(&bob),
            None,
        )
        .await;
    assert_eq!(refused["error"]["code"], "not_found");
    app.expect(
        StatusCode::NOT_FOUND,
        Method::DELETE,
        &format!("{KEYS}/not-an-id"),
        Some(&bob),
        None,
    )
    .await;
    let (status, _) = me(&app, adas["key"].as_str().unwrap()).await;
    assert_eq!(status, StatusCode::OK, "Ada's key still works");

    // Only admins reach the admin routes.
    for token in [ada.as_str(), bobs_key] {
        let refused = app
            .expect(StatusCode::FORBIDDEN, Method::GET, ADMIN_KEYS, Some(token), None)
            .await;
        assert!(message(&refused).contains("admin"), "{refused}");
    }
    let bobs_admin_path = format!("{ADMIN_KEYS}/{}", bobs["id"].as_str().unwrap());
    app.expect(
        StatusCode::FORBIDDEN,
        Method::DELETE,
        &bobs_admin_path,
        Some(&ada),
        None,
    )
    .await;
    app.expect(StatusCode::UNAUTHORIZED, Method::GET, ADMIN_KEYS, None, None)
        .await;

    let all = app
        .expect(StatusCode::OK, Method::GET, ADMIN_KEYS, Some(&admin), None)
        .await;
    let owners: Vec<(&str, &str)> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|key| {
            (
                key["owner_email"].as_str().unwrap(),
                key["owner_id"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        owners,
        [
            ("ada@example.org", ada_id.as_str()),
            ("bob@example.org", bob_id.as_str())
        ]
    );
    assert!(all[1]["expires_at"].is_string() && all[1].get("key").is_none());
    app.expect(
        StatusCode::NO_CONTENT,
        Method::DELETE,
        &bobs_admin_path,
        Some(&admin),
        None,
    )
    .await;
    let (status, body) = me(&app, bobs_key).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(message(&body).contains("revoked"), "{body}");
    app.expect(
        StatusCode::NOT_FOUND,
        Method::DELETE,
        &bobs_admin_path,
        Some(&admin),
        None,
    )
    .await;
    assert!(list(&app, &bob).await.is_empty());

    // A deactivated account's keys stop working with it.
    app.expect(
        StatusCode::OK,
        Method::POST,
        &format!("/api/v1/users/{ada_id}/deactivate"),
        Some(&admin),
        None,
    )
    .await;
    let (status, body) = me(&app, adas["key"].as_str().unwrap()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(message(&body).contains("deactivated"), "{body}");
}

#[tokio::test]
async fn a_key_over_its_rate_limit_gets_429_with_retry_after() {
    const LIMIT: usize = 5;
    let app = TestApp::spawn(&[("api_keys.requests_per_minute", "5")]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let first = create(&app, &token, json!({ "name": "busy" })).await;
    let other = create(&app, &token, json!({ "name": "quiet" })).await;
    // Windows are the clock's minutes: of 2 × LIMIT + 1 requests, some minute gets more
    // than LIMIT whenever the test runs.
    let mut statuses = Vec::new();
    let mut refused = None;
    for _ in 0..=2 * LIMIT {
        let response = app
            .call(Method::GET, "/api/v1/auth/me", first["key"].as_str(), None)
            .await;
        statuses.push(response.status());
        if response.status() == StatusCode::TOO_MANY_REQUESTS {
            refused = Some(response);
            break;
        }
    }
    let refused = refused.unwrap_or_else(|| panic!("no 429 in {statuses:?}"));
    assert!(statuses.len() > LIMIT, "{statuses:?}");
    let retry_after: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "rate_limited");
    assert!(message(&body).contains("5 requests a minute"), "{body}");
    // Per key: another key of the same person, and the person's sign-in, go on.
    let (status, _) = me(&app, other["key"].as_str().unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    app.expect(StatusCode::OK, Method::GET, "/api/v1/auth/me", Some(&token), None)
        .await;
}

#[tokio::test]
async fn bad_input_is_refused_with_the_reason() {
    let app = TestApp::spawn(&[("api_keys.per_person", "2")]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let past = chrono::Utc::now() - chrono::Duration::minutes(1);
    for (body, says) in [
        (json!({ "name": "" }), "name"),
        (json!({ "name": "   " }), "name"),
        (json!({ "name": "x".repeat(101) }), "name"),
        (json!({}), "name"),
        (json!({ "name": "ci", "scope": "admin" }), "scope"),
        (json!({ "name": "ci", "expires_at": past }), "expires_at"),
        (json!({ "name": "ci", "expires_at": "next week" }), "expires_at"),
        (json!({ "name": "ci", "expires_in_days": 0 }), "expires_in_days"),
        (json!({ "name": "ci", "expires_in_days": -1 }), "expires_in_days"),
        (
            json!({ "name": "ci", "expires_in_days": 3651 }),
            "expires_in_days",
        ),
        (
            json!({ "name": "ci", "expires_in_days": 1, "expires_at": chrono::Utc::now() + chrono::Duration::days(1) }),
            "not both",
        ),
    ] {
        let refused = app
            .expect(
                StatusCode::UNPROCESSABLE_ENTITY,
                Method::POST,
                KEYS,
                Some(&token),
                Some(body.clone()),
            )
            .await;
        assert!(refused.to_string().contains(says), "{body}: {refused}");
    }
    app.expect(
        StatusCode::UNAUTHORIZED,
        Method::POST,
        KEYS,
        None,
        Some(json!({ "name": "ci" })),
    )
    .await;

    // At most `per_person` keys; revoking one makes room.
    let first = create(&app, &token, json!({ "name": "one" })).await;
    create(&app, &token, json!({ "name": "two" })).await;
    let refused = app
        .expect(
            StatusCode::CONFLICT,
            Method::POST,
            KEYS,
            Some(&token),
            Some(json!({ "name": "three" })),
        )
        .await;
    assert!(message(&refused).contains("revoke one"), "{refused}");
    app.expect(
        StatusCode::NO_CONTENT,
        Method::DELETE,
        &format!("{KEYS}/{}", first["id"].as_str().unwrap()),
        Some(&token),
        None,
    )
    .await;
    create(&app, &token, json!({ "name": "three" })).await;
}
