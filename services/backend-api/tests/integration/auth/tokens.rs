//! Tokens: tampered, missing, foreign and expired ones refused; logout of one sign-in
//! or every one; a password change signing out elsewhere.

use super::*;

#[tokio::test]
async fn tampered_missing_and_foreign_tokens_are_refused() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let response = app.call(Method::GET, "/api/v1/auth/me", None, None).await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(response.headers()["www-authenticate"], "Bearer");

    let mut parts: Vec<String> = token.split('.').map(str::to_owned).collect();
    // Claim to be someone else: the signature no longer matches.
    let forged_payload = {
        use base64::Engine;
        let engine = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let mut claims: serde_json::Value =
            serde_json::from_slice(&engine.decode(&parts[1]).unwrap()).unwrap();
        claims["role"] = json!("admin");
        claims["sub"] = json!("someone-else");
        engine.encode(serde_json::to_vec(&claims).unwrap())
    };
    parts[1] = forged_payload;
    let forged = parts.join(".");
    for bad in [forged.as_str(), "garbage", ""] {
        let body = app
            .expect(
                StatusCode::UNAUTHORIZED,
                Method::GET,
                "/api/v1/auth/me",
                Some(bad),
                None,
            )
            .await;
        assert_eq!(body["error"]["code"], "unauthorized");
    }

    // A token from a server with another secret.
    let other = TestApp::spawn(&[("auth.jwt_secret", "another secret that is long enough to use")]).await;
    let (foreign, _, _) = other.register("ada@example.org").await;
    app.expect(
        StatusCode::UNAUTHORIZED,
        Method::GET,
        "/api/v1/auth/me",
        Some(&foreign),
        None,
    )
    .await;
}

#[tokio::test]
async fn access_tokens_expire() {
    let app = TestApp::spawn(&[("auth.access_ttl_secs", "1")]).await;
    let (token, refresh, _) = app.register("ada@example.org").await;
    app.expect(StatusCode::OK, Method::GET, "/api/v1/auth/me", Some(&token), None)
        .await;
    // One second of life plus the five seconds of clock-skew leeway.
    tokio::time::sleep(std::time::Duration::from_millis(7_500)).await;
    let body = app
        .expect(
            StatusCode::UNAUTHORIZED,
            Method::GET,
            "/api/v1/auth/me",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(body["error"]["message"], "the access token is invalid or expired");
    let refreshed = app.refresh(&refresh).await;
    assert_eq!(refreshed.status(), StatusCode::OK);
    let pair: serde_json::Value = refreshed.json().await.unwrap();
    app.expect(
        StatusCode::OK,
        Method::GET,
        "/api/v1/auth/me",
        pair["access_token"].as_str(),
        None,
    )
    .await;
}

#[tokio::test]
async fn logout_ends_one_sign_in_and_logout_all_ends_every_one() {
    let app = TestApp::spawn(&[]).await;
    let (first, first_refresh, _) = app.register("ada@example.org").await;
    let login = || async {
        let body = app
            .expect(
                StatusCode::OK,
                Method::POST,
                "/api/v1/auth/login",
                None,
                Some(json!({ "email": "ada@example.org", "password": PASSWORD })),
            )
            .await;
        body["tokens"]["access_token"].as_str().unwrap().to_owned()
    };
    let second = login().await;
    let logout = app
        .http
        .post(format!("{}/api/v1/auth/logout", app.base))
        .bearer_auth(&first)
        .header("cookie", format!("{REFRESH_COOKIE}={first_refresh}"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(logout.status(), StatusCode::NO_CONTENT);
    app.expect(
        StatusCode::UNAUTHORIZED,
        Method::GET,
        "/api/v1/auth/me",
        Some(&first),
        None,
    )
    .await;
    assert_eq!(
        app.refresh(&first_refresh).await.status(),
        StatusCode::UNAUTHORIZED
    );
    app.expect(
        StatusCode::OK,
        Method::GET,
        "/api/v1/auth/me",
        Some(&second),
        None,
    )
    .await;

    let third = login().await;
    // Tokens are stamped to the millisecond; the cut-off must come after them.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    app.expect(
        StatusCode::NO_CONTENT,
        Method::POST,
        "/api/v1/auth/logout-all",
        Some(&second),
        None,
    )
    .await;
    for token in [&second, &third] {
        app.expect(
            StatusCode::UNAUTHORIZED,
            Method::GET,
            "/api/v1/auth/me",
            Some(token),
            None,
        )
        .await;
    }
    let fresh = login().await;
    app.expect(StatusCode::OK, Method::GET, "/api/v1/auth/me", Some(&fresh), None)
        .await;
}

#[tokio::test]
async fn changing_the_password_signs_out_elsewhere() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let change =
        |current: &str| json!({ "current_password": current, "new_password": "a much better passphrase" });
    app.expect(
        StatusCode::UNAUTHORIZED,
        Method::POST,
        "/api/v1/auth/password",
        Some(&token),
        Some(change("not it at all")),
    )
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let pair = app
        .expect(
            StatusCode::OK,
            Method::POST,
            "/api/v1/auth/password",
            Some(&token),
            Some(change(PASSWORD)),
        )
        .await;
    app.expect(
        StatusCode::UNAUTHORIZED,
        Method::GET,
        "/api/v1/auth/me",
        Some(&token),
        None,
    )
    .await;
    app.expect(
        StatusCode::OK,
        Method::GET,
        "/api/v1/auth/me",
        pair["access_token"].as_str(),
        None,
    )
    .await;
    let login = |password: &str| json!({ "email": "ada@example.org", "password": password });
    app.expect(
        StatusCode::UNAUTHORIZED,
        Method::POST,
        "/api/v1/auth/login",
        None,
        Some(login(PASSWORD)),
    )
    .await;
    app.expect(
        StatusCode::OK,
        Method::POST,
        "/api/v1/auth/login",
        None,
        Some(login("a much better passphrase")),
    )
    .await;
}
