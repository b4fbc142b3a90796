//! A key's use: shown once, acting as its owner, stopping at once when revoked or
//! expired, and a `jobs` key kept to its scope.

use super::*;

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
