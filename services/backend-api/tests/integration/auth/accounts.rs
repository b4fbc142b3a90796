//! Accounts: registering, signing in and `me`, with the rules on emails and passwords;
//! an admin listing, deactivating and activating users.

use super::*;

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
