//! Rented sandboxes in a real sandbox: the real backend (on the embedded store here, on
//! MongoDB and Redis in the shared-stores run) and the real sandbox-manager over the
//! sandbox image. Created with its variables and reached through the one-host data
//! plane; another person's key finds nothing; set_timeout and its time running out; kill
//! removes its container at once; pause keeps its files for connect to resume, and
//! autoPause pauses it when its time is up.
//!
//! Needs the Docker engine and the sandbox-manager binary, like `agent_sandbox`.

use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use sandbox_manager_client::contract::{CreateSandbox, ListQuery, SandboxState, StorageKind};
use serde_json::{json, Value};

use crate::e2b::{e2b, key};
use crate::support::manager::Manager;
use crate::support::{borrowed, TestApp};

pub async fn backend(manager: &Manager) -> TestApp {
    let settings = manager.settings();
    TestApp::spawn(&borrowed(&settings)).await
}

/// A request through the data plane to port `port` of sandbox `id` with `token`.
async fn data_plane(
    app: &TestApp,
    method: Method,
    path: &str,
    id: &str,
    token: &str,
    port: &str,
) -> reqwest::Response {
    reqwest::Client::new()
        .request(method, format!("{}/e2b/sandbox{path}", app.base))
        .header("e2b-sandbox-id", id)
        .header("e2b-sandbox-port", port)
        .header("x-access-token", token)
        .send()
        .await
        .unwrap()
}

/// How many sandboxes the manager runs for the rented sandbox `id`.
pub async fn containers_of(manager: &Manager, id: &str) -> usize {
    let query = ListQuery {
        session_id: Some(id.to_owned()),
        ..Default::default()
    };
    manager.client().list(&query).await.unwrap().len()
}

/// How many Jupyter kernels run in the rented sandbox `id` (its one manager sandbox).
async fn kernels_in(manager: &Manager, id: &str) -> usize {
    let sandbox = running_of(manager, id).await.pop().expect("a sandbox runs");
    let tool_api = sandbox.tool_api.unwrap();
    let tools = tool_api_client::ToolApiClient::new(&tool_api.url, &tool_api.token);
    let request = tool_api_client::contract::shell::ExecRequest {
        command: "pgrep -fc ipykernel || true".into(),
        ..Default::default()
    };
    let done = tools.exec("test", &request).await.unwrap();
    done.output.trim().parse().unwrap()
}

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

/// The manager's sandboxes of the rented sandbox `id` that run.
pub async fn running_of(manager: &Manager, id: &str) -> Vec<sandbox_manager_client::contract::Sandbox> {
    let query = ListQuery {
        session_id: Some(id.to_owned()),
        state: Some(SandboxState::Ready),
        ..Default::default()
    };
    manager.client().list(&query).await.unwrap()
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
