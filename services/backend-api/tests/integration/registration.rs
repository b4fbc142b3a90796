//! Who may create an account: `open` registration admits anyone; `closed` only the
//! deployment's first account (its admin); `invite` someone with an admin's unused invite,
//! once, for the address it names if it names one.

use backend_api::config::AuthConfig;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{settings, TestApp, PASSWORD};

async fn register(app: &TestApp, email: &str, invite: Option<&str>) -> (StatusCode, Value) {
    let mut body = json!({ "email": email, "password": PASSWORD });
    if let Some(invite) = invite {
        body["invite"] = json!(invite);
    }
    let response = app
        .call(Method::POST, "/api/v1/auth/register", None, Some(body))
        .await;
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn invite(app: &TestApp, admin: &str, body: Value) -> Value {
    app.expect(
        StatusCode::CREATED,
        Method::POST,
        "/api/v1/admin/invites",
        Some(admin),
        Some(body),
    )
    .await
}

#[tokio::test]
async fn by_default_the_first_account_registers_and_a_stranger_after_it_is_refused() {
    // The suite's servers register openly; this one keeps the binary's default.
    let temp = tempfile::tempdir().unwrap();
    let mut settings = settings(temp.path(), &[]);
    settings.auth.registration = AuthConfig::default().registration;
    let app = TestApp::serve(temp.path(), settings).await;
    let mode = || app.expect(StatusCode::OK, Method::GET, "/api/v1/auth/mode", None, None);
    assert_eq!(
        mode().await["registration"],
        "open",
        "the first account may be made"
    );
    let (status, body) = register(&app, "admin@example.org", None).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["user"]["role"], "admin");
    assert_eq!(mode().await["registration"], "invite");
    let (status, body) = register(&app, "stranger@example.org", None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["error"]["code"], "forbidden", "{body}");
    assert_eq!(
        body["error"]["message"],
        "an invite is needed to create an account here"
    );
}

#[tokio::test]
async fn closed_registration_admits_the_first_account_only() {
    let app = TestApp::spawn(&[("auth.registration", "closed")]).await;
    let mode = || app.expect(StatusCode::OK, Method::GET, "/api/v1/auth/mode", None, None);
    assert_eq!(
        mode().await["registration"],
        "open",
        "the first account may be made"
    );
    let (admin, _, _) = app.register("admin@example.org").await;
    assert_eq!(mode().await["registration"], "closed");
    let (status, body) = register(&app, "eve@example.org", None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(
        body["error"]["message"].as_str().unwrap().contains("closed"),
        "{body}"
    );
    // An invite admits no one either.
    let made = invite(&app, &admin, json!({})).await;
    let (status, _) = register(&app, "eve@example.org", made["code"].as_str()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn an_invite_admits_one_registration_for_its_address() {
    let app = TestApp::spawn(&[("auth.registration", "invite")]).await;
    let (admin, _, _) = app.register("admin@example.org").await;
    let mode = app
        .expect(StatusCode::OK, Method::GET, "/api/v1/auth/mode", None, None)
        .await;
    assert_eq!(mode["registration"], "invite");

    let (status, body) = register(&app, "ada@example.org", None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(
        body["error"]["message"].as_str().unwrap().contains("invite"),
        "{body}"
    );

    let made = invite(&app, &admin, json!({})).await;
    let code = made["code"].as_str().unwrap();
    assert_eq!(code.len(), 24);
    assert!(made["expires_at"].is_string());
    let (status, body) = register(&app, "ada@example.org", Some(code)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["user"]["role"], "user");
    // Used up.
    let (status, body) = register(&app, "bob@example.org", Some(code)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(
        body["error"]["message"].as_str().unwrap().contains("not valid"),
        "{body}"
    );
    // Mistyped.
    let (status, _) = register(&app, "bob@example.org", Some("not-a-code")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // One for an address admits that address only, and a refusal does not use it up.
    let made = invite(
        &app,
        &admin,
        json!({ "email": "bob@example.org", "expires_in_hours": 1 }),
    )
    .await;
    let code = made["code"].as_str().unwrap();
    let (status, body) = register(&app, "eve@example.org", Some(code)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("another e-mail"),
        "{body}"
    );
    let (status, _) = register(&app, "bob@example.org", Some(code)).await;
    assert_eq!(status, StatusCode::CREATED);

    // A registration that fails (the address is taken) gives its invite back.
    let made = invite(&app, &admin, json!({})).await;
    let code = made["code"].as_str().unwrap();
    let (status, _) = register(&app, "ada@example.org", Some(code)).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _) = register(&app, "carol@example.org", Some(code)).await;
    assert_eq!(status, StatusCode::CREATED);

    // A revoked invite admits no one; revoking it again finds nothing.
    let made = invite(&app, &admin, json!({})).await;
    let path = format!("/api/v1/admin/invites/{}", made["code"].as_str().unwrap());
    app.expect(StatusCode::NO_CONTENT, Method::DELETE, &path, Some(&admin), None)
        .await;
    let (status, _) = register(&app, "dan@example.org", made["code"].as_str()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    app.expect(StatusCode::NOT_FOUND, Method::DELETE, &path, Some(&admin), None)
        .await;
}

#[tokio::test]
async fn only_admins_make_invites_and_their_input_is_checked() {
    let app = TestApp::spawn(&[]).await;
    let (admin, _, _) = app.register("admin@example.org").await;
    let (user, _, _) = app.register("ada@example.org").await;
    let path = "/api/v1/admin/invites";
    app.expect(
        StatusCode::FORBIDDEN,
        Method::POST,
        path,
        Some(&user),
        Some(json!({})),
    )
    .await;
    app.expect(
        StatusCode::UNAUTHORIZED,
        Method::POST,
        path,
        None,
        Some(json!({})),
    )
    .await;
    for bad in [
        json!({ "expires_in_hours": 0 }),
        json!({ "expires_in_hours": 721 }),
        json!({ "email": "not an address" }),
    ] {
        let refused = app
            .expect(
                StatusCode::UNPROCESSABLE_ENTITY,
                Method::POST,
                path,
                Some(&admin),
                Some(bad),
            )
            .await;
        assert!(refused["error"]["message"].is_string());
    }
    app.expect(
        StatusCode::NOT_FOUND,
        Method::DELETE,
        &format!("{path}/nope"),
        Some(&admin),
        None,
    )
    .await;
}

#[tokio::test]
async fn sign_ups_in_a_rush_wait_for_the_same_password_threads_and_all_succeed() {
    let app = TestApp::spawn(&[
        ("auth.password_threads", "1"),
        ("auth.password_queue", "100"),
        ("auth.password_wait_secs", "600"),
    ])
    .await;
    let app = &app;
    let rush = (0..16).map(|i| {
        let email = format!("person{i}@example.org");
        async move { register(app, &email, None).await.0 }
    });
    let statuses = futures::future::join_all(rush).await;
    assert!(
        statuses.iter().all(|status| *status == StatusCode::CREATED),
        "{statuses:?}"
    );
}
