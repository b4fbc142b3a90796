//! Kill, connect, pause and autoPause of a rented sandbox.

use super::*;

#[tokio::test]
async fn kill_removes_the_container_at_once_and_connect_extends_but_never_shortens() {
    let manager = Manager::start();
    let app = backend(&manager).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let ada = key(&app, &token, "sandboxes").await;
    let (_, made) = e2b(
        &app,
        Method::POST,
        "/sandboxes",
        Some(&ada),
        Some(json!({ "templateID": "base", "timeout": 600 })),
    )
    .await;
    let id = made["sandboxID"].as_str().unwrap().to_owned();
    let path = format!("/sandboxes/{id}");
    let end = |detail: &Value| detail["endAt"].as_str().unwrap().to_owned();
    let before = end(&e2b(&app, Method::GET, &path, Some(&ada), None).await.1);

    let (status, connected) = e2b(
        &app,
        Method::POST,
        &format!("/v2{path}/connect"),
        Some(&ada),
        Some(json!({ "timeout": 10 })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{connected}");
    assert_eq!(
        connected["envdAccessToken"], made["envdAccessToken"],
        "the same token, shown again"
    );
    assert_eq!(
        end(&e2b(&app, Method::GET, &path, Some(&ada), None).await.1),
        before,
        "a shorter timeout does not shorten"
    );

    let (status, _) = e2b(&app, Method::DELETE, &path, Some(&ada), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(containers_of(&manager, &id).await, 0);
    assert_eq!(
        e2b(&app, Method::DELETE, &path, Some(&ada), None).await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn a_paused_sandbox_keeps_its_files_resumes_on_connect_and_auto_pause_pauses_it() {
    let manager = Manager::start();
    let app = backend(&manager).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let ada = key(&app, &token, "sandboxes").await;
    let body = json!({
        "templateID": "base", "timeout": 600, "autoPause": true,
        "envVars": { "KEPT": "yes" }, "metadata": { "suite": "pause" },
    });
    let (status, made) = e2b(&app, Method::POST, "/sandboxes", Some(&ada), Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["sandboxID"].as_str().unwrap().to_owned();
    let access = made["envdAccessToken"].as_str().unwrap().to_owned();
    let path = format!("/sandboxes/{id}");
    let detail = e2b(&app, Method::GET, &path, Some(&ada), None).await.1;
    assert_eq!(detail["lifecycle"]["onTimeout"], "pause", "{detail}");
    // `base` runs no code first: no kernel is started for it.
    assert_eq!(kernels_in(&manager, &id).await, 0);
    let [sandbox] = &running_of(&manager, &id).await[..] else {
        panic!("one sandbox runs")
    };
    let tool_api = sandbox.tool_api.clone().unwrap();
    let tools = tool_api_client::ToolApiClient::new(&tool_api.url, &tool_api.token);
    let note = tool_api_client::contract::files::WriteFileRequest {
        path: "kept.txt".into(),
        content: "kept across a pause".into(),
        append: false,
    };
    tools.write_file(&note).await.unwrap();

    // Paused: the container ends, the record stays, the data plane says so.
    let pause = format!("{path}/pause");
    let (status, _) = e2b(&app, Method::POST, &pause, Some(&ada), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, again) = e2b(&app, Method::POST, &pause, Some(&ada), None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{again}");
    assert!(running_of(&manager, &id).await.is_empty(), "the container ended");
    // A pause that could not stop the container (the manager was away) is finished by
    // the next pause, which still answers 409.
    let of_session = ListQuery {
        session_id: Some(id.clone()),
        ..Default::default()
    };
    let owner = manager.client().list(&of_session).await.unwrap()[0].owner.clone();
    let revive = CreateSandbox {
        session_id: id.clone(),
        owner,
        storage: Some(StorageKind::Volume),
        ..Default::default()
    };
    manager.client().create(&revive).await.unwrap();
    assert_eq!(running_of(&manager, &id).await.len(), 1);
    let (status, _) = e2b(&app, Method::POST, &pause, Some(&ada), None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        running_of(&manager, &id).await.is_empty(),
        "stopped by the second pause"
    );
    assert_eq!(
        e2b(&app, Method::GET, &path, Some(&ada), None).await.1["state"],
        "paused"
    );
    let listed = |state: &'static str| {
        let app = &app;
        let ada = &ada;
        async move {
            let query = format!("/v2/sandboxes?state={state}");
            e2b(app, Method::GET, &query, Some(ada), None)
                .await
                .1
                .as_array()
                .unwrap()
                .len()
        }
    };
    assert_eq!((listed("paused").await, listed("running").await), (1, 0));
    let asleep = data_plane(&app, Method::GET, "/health", &id, &access, "49983").await;
    assert_eq!(asleep.status(), StatusCode::BAD_GATEWAY);
    let message: Value = asleep.json().await.unwrap();
    assert!(
        message["message"].as_str().unwrap().contains("is paused"),
        "{message}"
    );
    let readings = e2b(&app, Method::GET, &format!("{path}/metrics"), Some(&ada), None)
        .await
        .1;
    assert_eq!(readings, json!([]), "no reading while paused");
    let (status, _) = e2b(
        &app,
        Method::POST,
        &format!("{path}/timeout"),
        Some(&ada),
        Some(json!({ "timeout": 60 })),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "a paused sandbox's time is not set");

    // Connect resumes it (201) with its files and variables; connecting again is 200.
    let kept = "/files?path=/home/user/workspace/kept.txt";
    let connect = format!("{path}/connect");
    let (status, resumed) = e2b(
        &app,
        Method::POST,
        &connect,
        Some(&ada),
        Some(json!({ "timeout": 600 })),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{resumed}");
    let file = data_plane(&app, Method::GET, kept, &id, &access, "49983").await;
    assert_eq!(file.status(), StatusCode::OK);
    assert_eq!(file.text().await.unwrap(), "kept across a pause");
    let envs: Value = data_plane(&app, Method::GET, "/envs", &id, &access, "49983")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(envs["KEPT"], "yes", "{envs}");
    let (status, _) = e2b(
        &app,
        Method::POST,
        &connect,
        Some(&ada),
        Some(json!({ "timeout": 600 })),
    )
    .await;
    assert_eq!(status, StatusCode::OK);

    // A running sandbox the manager ended (its maximum lifetime) comes back on connect,
    // its files with it.
    let [sandbox] = &running_of(&manager, &id).await[..] else {
        panic!("one sandbox runs")
    };
    manager.client().stop(&sandbox.id).await.unwrap();
    let (status, _) = e2b(
        &app,
        Method::POST,
        &connect,
        Some(&ada),
        Some(json!({ "timeout": 600 })),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let file = data_plane(&app, Method::GET, kept, &id, &access, "49983").await;
    assert_eq!(file.text().await.unwrap(), "kept across a pause");

    // Its time running out pauses it (autoPause) rather than ending it.
    let (status, _) = e2b(
        &app,
        Method::POST,
        &format!("{path}/timeout"),
        Some(&ada),
        Some(json!({ "timeout": 1 })),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let deadline = Instant::now() + Duration::from_secs(60);
    while e2b(&app, Method::GET, &path, Some(&ada), None).await.1["state"] != "paused" {
        assert!(Instant::now() < deadline, "not paused a minute after its time");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    while !running_of(&manager, &id).await.is_empty() {
        assert!(
            Instant::now() < deadline,
            "the paused sandbox's container still runs"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }

    // Killing a paused sandbox removes it, files and all.
    let (status, _) = e2b(&app, Method::DELETE, &path, Some(&ada), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(containers_of(&manager, &id).await, 0);
}
