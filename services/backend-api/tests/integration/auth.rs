//! Auth flows against the real server: register, login, tokens (tampered, expired,
//! revoked), logout, sign-in limits, roles, the three modes, and the production secret
//! check; the refresh cookie (rotation, reuse, cross-site requests) in `refresh_cookie`.

mod addresses;
mod refresh_cookie;

use crate::support;

use reqwest::{Method, StatusCode};
use serde_json::json;
use std::time::Duration;
use support::{settings, TestApp, PASSWORD, REFRESH_COOKIE};

#[tokio::test]
async fn register_login_me_and_the_rules_on_emails_and_passwords() {
    let app = TestApp::spawn(&[]).await;
    let mode = app
        .expect(StatusCode::OK, Method::GET, "/api/v1/auth/mode", None, None)
        .await;
    assert_eq!(mode, json!({ "mode": "password", "registration": "open" }));
    let (token, _, id) = app.register("Ada@Example.org").await;
    let me = app
        .expect(StatusCode::OK, Method::GET, "/api/v1/auth/me", Some(&token), None)
        .await;
    assert_eq!(me["id"], id.as_str());
    assert_eq!(me["email"], "ada@example.org", "emails are normalised");
    assert_eq!(me["role"], "admin", "the first account is the admin");
    assert!(me.get("password_hash").is_none());

    let (second, _, _) = app.register("bob@example.org").await;
    let me = app
        .expect(
            StatusCode::OK,
            Method::GET,
            "/api/v1/auth/me",
            Some(&second),
            None,
        )
        .await;
    assert_eq!(me["role"], "user");

    let register = |email: &str, password: &str| json!({ "email": email, "password": password });
    let body = app
        .expect(
            StatusCode::CONFLICT,
            Method::POST,
            "/api/v1/auth/register",
            None,
            Some(register("ada@example.org", PASSWORD)),
        )
        .await;
    assert_eq!(body["error"]["code"], "conflict");
    for (email, password) in [
        ("not-an-email", PASSWORD),
        ("c@example.org", "short"),
        ("c@example.org", "aaaaaaaaaaaaaa"),
    ] {
        let body = app
            .expect(
                StatusCode::UNPROCESSABLE_ENTITY,
                Method::POST,
                "/api/v1/auth/register",
                None,
                Some(register(email, password)),
            )
            .await;
        assert_eq!(body["error"]["code"], "invalid");
        assert!(!body["error"]["message"].as_str().unwrap().is_empty());
    }

    let login = |password: &str| json!({ "email": "ADA@example.org", "password": password });
    let body = app
        .expect(
            StatusCode::UNAUTHORIZED,
            Method::POST,
            "/api/v1/auth/login",
            None,
            Some(login("wrong password!!")),
        )
        .await;
    assert_eq!(body["error"]["message"], "wrong email or password");
    let body = app
        .expect(
            StatusCode::UNAUTHORIZED,
            Method::POST,
            "/api/v1/auth/login",
            None,
            Some(json!({ "email": "nobody@example.org", "password": PASSWORD })),
        )
        .await;
    assert_eq!(
        body["error"]["message"], "wrong email or password",
        "unknown accounts look the same"
    );
    let body = app
        .expect(
            StatusCode::OK,
            Method::POST,
            "/api/v1/auth/login",
            None,
            Some(login(PASSWORD)),
        )
        .await;
    assert_eq!(body["user"]["id"], id.as_str());
    assert_eq!(body["tokens"]["token_type"], "Bearer");

    // Malformed bodies are 400 with the JSON error body.
    let response = app
        .http
        .post(format!("{}/api/v1/auth/login", app.base))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "malformed_request");
}

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

/// Signs in as if through a proxy that says the client is `address` (the proxy's hops
/// are `X-Forwarded-For`'s, which the server believes from [`TRUST_PROXY`]'s peers only).
pub(crate) async fn login_from(
    app: &TestApp,
    address: &str,
    email: &str,
    password: &str,
) -> reqwest::Response {
    app.http
        .post(format!("{}/api/v1/auth/login", app.base))
        .header("x-forwarded-for", address)
        .json(&json!({ "email": email, "password": password }))
        .send()
        .await
        .unwrap()
}

pub(crate) fn retry_after(response: &reqwest::Response) -> u64 {
    response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

/// The test client, on loopback, is the trusted proxy.
pub(crate) const TRUST_PROXY: (&str, &str) = ("http.trusted_proxies", "127.0.0.1");

#[tokio::test]
async fn twenty_correct_logins_in_a_row_all_succeed() {
    let app = TestApp::spawn(&[TRUST_PROXY]).await;
    app.register("ada@example.org").await;
    for _ in 0..20 {
        let response = login_from(&app, "192.0.2.1", "ada@example.org", PASSWORD).await;
        assert_eq!(response.status(), StatusCode::OK);
    }
}

#[tokio::test]
async fn failures_from_other_addresses_never_keep_the_owner_out() {
    let app = TestApp::spawn(&[TRUST_PROXY]).await;
    app.register("ada@example.org").await;
    // 20 failures from rotating addresses, and 20 from one.
    for i in 0..20 {
        let response = login_from(
            &app,
            &format!("198.51.100.{i}"),
            "ada@example.org",
            "wrong password!",
        )
        .await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    let mut refused = 0;
    for _ in 0..20 {
        let response = login_from(&app, "203.0.113.9", "ada@example.org", "wrong password!").await;
        if response.status() == StatusCode::TOO_MANY_REQUESTS {
            refused += 1;
            // The README's longest back-off.
            assert!((1..=60).contains(&retry_after(&response)));
        }
    }
    assert!(refused > 0, "the guessing address was never backed off");
    // The owner, from their own address, at once.
    let response = login_from(&app, "192.0.2.1", "ada@example.org", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn one_account_from_one_address_backs_off_after_five_failures_doubling() {
    let app = TestApp::spawn(&[TRUST_PROXY]).await;
    app.register("ada@example.org").await;
    let (guesser, email) = ("203.0.113.9", "ada@example.org");
    for _ in 0..5 {
        let response = login_from(&app, guesser, email, "wrong password!").await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    // Refused even with the right password, for the first back-off (1 s).
    let response = login_from(&app, guesser, email, PASSWORD).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(retry_after(&response), 1);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "rate_limited");
    tokio::time::sleep(Duration::from_millis(1100)).await;
    // The next failure doubles it.
    let response = login_from(&app, guesser, email, "wrong password!").await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    let response = login_from(&app, guesser, email, PASSWORD).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(retry_after(&response), 2);
    tokio::time::sleep(Duration::from_millis(2100)).await;
    // A success clears the pair: a new mistake is not backed off.
    let response = login_from(&app, guesser, email, PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
    let response = login_from(&app, guesser, email, "wrong password!").await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    let response = login_from(&app, guesser, email, PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn an_address_spraying_many_accounts_is_refused() {
    let app = TestApp::spawn(&[TRUST_PROXY, ("auth.login_failures_per_address", "6")]).await;
    app.register("ada@example.org").await;
    for i in 0..6 {
        let response = login_from(
            &app,
            "203.0.113.9",
            &format!("person{i}@example.org"),
            "wrong password!",
        )
        .await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    let response = login_from(&app, "203.0.113.9", "ada@example.org", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(retry_after(&response), 900);
    // Another address is not affected.
    let response = login_from(&app, "192.0.2.1", "ada@example.org", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn admins_list_deactivate_and_activate_users() {
    let app = TestApp::spawn(&[]).await;
    let (admin, _, admin_id) = app.register("ada@example.org").await;
    let (user, _, user_id) = app.register("bob@example.org").await;
    let users = app
        .expect(StatusCode::OK, Method::GET, "/api/v1/users", Some(&admin), None)
        .await;
    let emails: Vec<&str> = users
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["email"].as_str().unwrap())
        .collect();
    assert_eq!(emails, ["ada@example.org", "bob@example.org"]);
    let body = app
        .expect(
            StatusCode::FORBIDDEN,
            Method::GET,
            "/api/v1/users",
            Some(&user),
            None,
        )
        .await;
    assert_eq!(body["error"]["code"], "forbidden");
    app.expect(
        StatusCode::FORBIDDEN,
        Method::POST,
        &format!("/api/v1/users/{admin_id}/deactivate"),
        Some(&user),
        None,
    )
    .await;
    app.expect(
        StatusCode::UNPROCESSABLE_ENTITY,
        Method::POST,
        &format!("/api/v1/users/{admin_id}/deactivate"),
        Some(&admin),
        None,
    )
    .await;
    app.expect(
        StatusCode::NOT_FOUND,
        Method::POST,
        "/api/v1/users/nope/deactivate",
        Some(&admin),
        None,
    )
    .await;

    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let body = app
        .expect(
            StatusCode::OK,
            Method::POST,
            &format!("/api/v1/users/{user_id}/deactivate"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(body["active"], false);
    app.expect(
        StatusCode::UNAUTHORIZED,
        Method::GET,
        "/api/v1/auth/me",
        Some(&user),
        None,
    )
    .await;
    let login = json!({ "email": "bob@example.org", "password": PASSWORD });
    let body = app
        .expect(
            StatusCode::FORBIDDEN,
            Method::POST,
            "/api/v1/auth/login",
            None,
            Some(login.clone()),
        )
        .await;
    assert_eq!(body["error"]["message"], "this account is deactivated");
    app.expect(
        StatusCode::OK,
        Method::POST,
        &format!("/api/v1/users/{user_id}/activate"),
        Some(&admin),
        None,
    )
    .await;
    app.expect(
        StatusCode::OK,
        Method::POST,
        "/api/v1/auth/login",
        None,
        Some(login),
    )
    .await;
}

#[tokio::test]
async fn local_and_none_modes() {
    let local = TestApp::spawn(&[
        ("auth.mode", "local"),
        ("auth.local_email", "owner@example.org"),
        ("auth.local_password", "the configured passphrase"),
    ])
    .await;
    let mode = local
        .expect(StatusCode::OK, Method::GET, "/api/v1/auth/mode", None, None)
        .await;
    assert_eq!(mode, json!({ "mode": "local", "registration": "closed" }));
    let register = json!({ "email": "x@example.org", "password": PASSWORD });
    local
        .expect(
            StatusCode::FORBIDDEN,
            Method::POST,
            "/api/v1/auth/register",
            None,
            Some(register),
        )
        .await;
    let body = local
        .expect(
            StatusCode::OK,
            Method::POST,
            "/api/v1/auth/login",
            None,
            Some(json!({ "email": "owner@example.org", "password": "the configured passphrase" })),
        )
        .await;
    assert_eq!(body["user"]["role"], "admin");

    let none = TestApp::spawn(&[("auth.mode", "none")]).await;
    let mode = none
        .expect(StatusCode::OK, Method::GET, "/api/v1/auth/mode", None, None)
        .await;
    assert_eq!(mode, json!({ "mode": "none", "registration": "closed" }));
    let me = none
        .expect(StatusCode::OK, Method::GET, "/api/v1/auth/me", None, None)
        .await;
    assert_eq!(me["role"], "admin");
    let session = none
        .expect(StatusCode::CREATED, Method::POST, "/api/v1/sessions", None, None)
        .await;
    assert_eq!(session["title"], "New chat");
}

#[tokio::test]
async fn production_refuses_a_default_or_short_jwt_secret() {
    let dir = tempfile::tempdir().unwrap();
    for secret in [None, Some("too short")] {
        let mut overrides = vec![("environment", "production")];
        if let Some(secret) = secret {
            overrides.push(("auth.jwt_secret", secret));
        }
        let refused = backend_api::Application::build(settings(dir.path(), &overrides)).await;
        let message = refused.err().expect("refused").to_string();
        assert!(message.contains("JWT secret"), "{message}");
    }
    let overrides = [
        ("environment", "production"),
        ("auth.jwt_secret", "0123456789abcdef0123456789abcdef"),
    ];
    assert!(backend_api::Application::build(settings(dir.path(), &overrides))
        .await
        .is_ok());
}

/// One password check at a time; the rest wait their turn (long enough never to run out).
const ONE_AT_A_TIME: [(&str, &str); 3] = [
    ("auth.password_threads", "1"),
    ("auth.password_queue", "100"),
    ("auth.password_wait_secs", "600"),
];

#[tokio::test]
async fn correct_passwords_in_a_rush_all_get_in_while_a_guesser_is_still_stopped() {
    let settings = [
        &ONE_AT_A_TIME[..],
        &[TRUST_PROXY, ("auth.login_backoff_base_secs", "600")],
    ]
    .concat();
    let app = TestApp::spawn(&settings).await;
    for i in 0..4 {
        app.register(&format!("person{i}@example.org")).await;
    }
    // 24 correct sign-ins from 24 addresses, and a guesser's 8 at once, all together:
    // the correct ones are never refused however many checks run beside them.
    let app = &app;
    let correct = (0..24).map(|i| {
        let (address, email) = (format!("192.0.2.{i}"), format!("person{}@example.org", i % 4));
        async move { login_from(app, &address, &email, PASSWORD).await.status() }
    });
    let guesses = (0..8).map(|_| async {
        login_from(app, "203.0.113.9", "person0@example.org", "wrong password!")
            .await
            .status()
    });
    let (correct, guesses) = tokio::join!(
        futures::future::join_all(correct),
        futures::future::join_all(guesses)
    );
    assert!(
        correct.iter().all(|status| *status == StatusCode::OK),
        "{correct:?}"
    );
    assert!(
        guesses
            .iter()
            .all(|status| [StatusCode::UNAUTHORIZED, StatusCode::TOO_MANY_REQUESTS].contains(status)),
        "{guesses:?}"
    );
    // The guesser's failures counted: even the right password is refused from there now.
    let response = login_from(app, "203.0.113.9", "person0@example.org", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(retry_after(&response) > 1);
}

#[tokio::test]
async fn checks_past_the_queue_are_refused_with_503_and_count_as_no_failure() {
    // One check runs (a costly one) and none may wait: of sign-ins sent together, those
    // that find the thread busy are refused at once.
    let app = TestApp::spawn(&[
        TRUST_PROXY,
        ("auth.password_threads", "1"),
        ("auth.password_queue", "0"),
        ("auth.argon2_memory_kib", "8192"),
        ("auth.argon2_iterations", "2"),
        ("auth.login_failures_per_address", "1"),
    ])
    .await;
    app.register("ada@example.org").await;
    let rush = (0..16).map(|_| login_from(&app, "192.0.2.1", "ada@example.org", PASSWORD));
    let responses = futures::future::join_all(rush).await;
    let mut refused = 0;
    for response in responses {
        match response.status() {
            StatusCode::OK => {}
            StatusCode::SERVICE_UNAVAILABLE => {
                refused += 1;
                assert!(retry_after(&response) >= 1);
                let body: serde_json::Value = response.json().await.unwrap();
                assert_eq!(body["error"]["code"], "unavailable");
                assert!(
                    body["error"]["message"].as_str().unwrap().contains("retry"),
                    "{body}"
                );
            }
            other => panic!("unexpected {other}"),
        }
    }
    assert!(refused > 0, "no sign-in found the one thread busy");
    // A refusal is no failure: one failure would have shut this address out.
    let response = login_from(&app, "192.0.2.1", "ada@example.org", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
}
