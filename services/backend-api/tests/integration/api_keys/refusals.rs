//! Refusals: a key over its rate limit (429 with `Retry-After`) and bad input.

use super::*;

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
