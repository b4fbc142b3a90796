//! A rented sandbox reached through the data plane, for its owner only, until its time
//! is up.

use super::*;

#[tokio::test]
async fn a_rented_sandbox_is_reached_through_the_data_plane_and_ends_when_its_time_is_up() {
    let manager = Manager::start();
    let app = backend(&manager).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let ada = key(&app, &token, "sandboxes").await;
    let (stranger_token, _, _) = app.register("eve@example.org").await;
    let eve = key(&app, &stranger_token, "sandboxes").await;

    let body = json!({
        "templateID": "code-interpreter-v1", "timeout": 120,
        "metadata": { "suite": "rust" }, "envVars": { "FROM_CREATE": "made" },
    });
    let (status, made) = e2b(&app, Method::POST, "/v2/sandboxes", Some(&ada), Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["sandboxID"].as_str().unwrap().to_owned();
    let access = made["envdAccessToken"].as_str().unwrap().to_owned();
    assert_eq!(made["templateID"], "code-interpreter-v1");
    assert!(
        made["envdVersion"].is_string() && made["clientID"].is_string(),
        "{made}"
    );
    assert_eq!(containers_of(&manager, &id).await, 1);
    // The code interpreter's kernel started with it, before any cell.
    assert_eq!(kernels_in(&manager, &id).await, 1);

    // The data plane reaches its tool-api: envd's health, and the variables it was given.
    let health = data_plane(&app, Method::GET, "/health", &id, &access, "49983").await;
    assert_eq!(health.status(), StatusCode::NO_CONTENT);
    let envs: Value = data_plane(&app, Method::GET, "/envs", &id, &access, "49983")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(envs["FROM_CREATE"], "made", "{envs}");
    // The traffic token opens the code interpreter, and nothing else.
    let traffic = made["trafficAccessToken"].as_str().unwrap();
    assert_ne!(traffic, access);
    let with_traffic = |port: &'static str| {
        reqwest::Client::new()
            .get(format!("{}/e2b/sandbox/health", app.base))
            .header("e2b-sandbox-id", &id)
            .header("e2b-sandbox-port", port)
            .header("e2b-traffic-access-token", traffic)
            .send()
    };
    assert_eq!(with_traffic("49999").await.unwrap().status(), StatusCode::OK);
    assert_eq!(
        with_traffic("49983").await.unwrap().status(),
        StatusCode::UNAUTHORIZED
    );

    // Another person finds nothing, by any route.
    let path = format!("/sandboxes/{id}");
    assert_eq!(
        e2b(&app, Method::GET, &path, Some(&eve), None).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        e2b(&app, Method::DELETE, &path, Some(&eve), None).await.0,
        StatusCode::NOT_FOUND
    );
    let timeout = Some(json!({ "timeout": 1 }));
    assert_eq!(
        e2b(
            &app,
            Method::POST,
            &format!("{path}/timeout"),
            Some(&eve),
            timeout
        )
        .await
        .0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        e2b(&app, Method::GET, "/v2/sandboxes", Some(&eve), None).await.1,
        json!([])
    );

    // Its own: found, listed, and its end moved to 2 s from now.
    let (status, detail) = e2b(&app, Method::GET, &path, Some(&ada), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(detail["metadata"], json!({ "suite": "rust" }));
    assert_eq!(detail["state"], "running");
    assert!(
        detail["cpuCount"].as_u64().unwrap() >= 1 && detail["memoryMB"].as_u64().unwrap() >= 128,
        "{detail}"
    );
    let (_, listed) = e2b(
        &app,
        Method::GET,
        "/v2/sandboxes?metadata=suite%3Drust",
        Some(&ada),
        None,
    )
    .await;
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    // What it uses now, read from its tool-api; another person's is not found.
    let metrics = format!("{path}/metrics");
    let (status, readings) = e2b(&app, Method::GET, &metrics, Some(&ada), None).await;
    assert_eq!(status, StatusCode::OK, "{readings}");
    let [reading] = readings.as_array().unwrap().as_slice() else {
        panic!("one reading: {readings}")
    };
    assert!(reading["cpuCount"].as_u64().unwrap() >= 1, "{reading}");
    let (used, total) = (
        reading["memUsed"].as_u64().unwrap(),
        reading["memTotal"].as_u64().unwrap(),
    );
    assert!(used > 0 && used < total, "{reading}");
    assert!(reading["diskTotal"].as_u64().unwrap() > 0, "{reading}");
    assert!(reading["cpuUsedPct"].is_number(), "{reading}");
    // A span that ended before the sandbox began holds no reading; a malformed one is
    // 400, one out of order or before 1970 422.
    let before = format!("{metrics}?start=1000000000&end=1000001800");
    let (status, readings) = e2b(&app, Method::GET, &before, Some(&ada), None).await;
    assert_eq!((status, readings), (StatusCode::OK, json!([])));
    for (bad, expected) in [
        ("start=soon", StatusCode::BAD_REQUEST),
        ("start=20&end=10", StatusCode::UNPROCESSABLE_ENTITY),
        ("end=-1", StatusCode::UNPROCESSABLE_ENTITY),
    ] {
        let query = format!("{metrics}?{bad}");
        let (status, body) = e2b(&app, Method::GET, &query, Some(&ada), None).await;
        assert_eq!(status, expected, "{bad}: {body}");
        assert_eq!(body["code"], expected.as_u16(), "{bad}: {body}");
    }
    assert_eq!(
        e2b(&app, Method::GET, &metrics, Some(&eve), None).await.0,
        StatusCode::NOT_FOUND
    );
    let (status, _) = e2b(
        &app,
        Method::POST,
        &format!("{path}/timeout"),
        Some(&ada),
        Some(json!({ "timeout": 2 })),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);

    // The sweep ends it: record, container and data plane.
    let deadline = Instant::now() + Duration::from_secs(60);
    while e2b(&app, Method::GET, &path, Some(&ada), None).await.0 != StatusCode::NOT_FOUND {
        assert!(
            Instant::now() < deadline,
            "the sandbox outlived its time by a minute"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    // The record goes first, then the container.
    while containers_of(&manager, &id).await > 0 {
        assert!(
            Instant::now() < deadline,
            "the ended sandbox's container was never removed"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let gone = data_plane(&app, Method::GET, "/health", &id, &access, "49983").await;
    assert_eq!(
        gone.status(),
        StatusCode::BAD_GATEWAY,
        "E2B's SDKs read 502 as a sandbox that is gone"
    );
    let body: Value = gone.json().await.unwrap();
    assert!(
        body["message"].as_str().unwrap().contains("was not found"),
        "E2B's SDKs tell a sandbox that is gone by these words: {body}"
    );
}

/// Deactivating a person ends their running sandbox at once: its container is gone and
/// its access token, still held by their code, reaches nothing.
#[tokio::test]
async fn a_deactivated_persons_running_sandbox_ends_and_its_token_reaches_nothing() {
    let manager = Manager::start();
    let app = backend(&manager).await;
    let (admin, _, _) = app.register("admin@example.org").await;
    let (token, _, ada) = app.register("ada@example.org").await;
    let key = key(&app, &token, "sandboxes").await;
    let body = json!({ "templateID": "base", "timeout": 600 });
    let (status, made) = e2b(&app, Method::POST, "/sandboxes", Some(&key), Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["sandboxID"].as_str().unwrap().to_owned();
    let access = made["envdAccessToken"].as_str().unwrap().to_owned();
    let health = data_plane(&app, Method::GET, "/health", &id, &access, "49983").await;
    assert_eq!(health.status(), StatusCode::NO_CONTENT);

    app.expect(
        StatusCode::OK,
        Method::POST,
        &format!("/api/v1/users/{ada}/deactivate"),
        Some(&admin),
        None,
    )
    .await;
    assert_eq!(containers_of(&manager, &id).await, 0);
    let refused = data_plane(&app, Method::GET, "/health", &id, &access, "49983").await;
    assert_eq!(refused.status(), StatusCode::BAD_GATEWAY);
    let (status, _) = e2b(&app, Method::GET, &format!("/sandboxes/{id}"), Some(&key), None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}
