//! Keys private to their owner; admins see and revoke all.

use super::*;

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
