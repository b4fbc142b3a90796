//! The `local` and `none` modes, and production refusing a default or short JWT secret.

use super::*;

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
