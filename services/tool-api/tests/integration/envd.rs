//! E2B's envd protocol against the real server, spoken over plain HTTP as E2B's SDKs do:
//! the REST routes here, processes in [`process`], a request's time in [`deadlines`],
//! filesystem calls in [`filesystem`], and file transfer in [`files`].

mod deadlines;
mod files;
mod filesystem;
mod process;
mod wire;

use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::{alive, spawn_app, TestApp, TOKEN};

async fn envs(app: &TestApp) -> serde_json::Value {
    let response = app
        .request(reqwest::Method::GET, "/e2b/envd/envs")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

#[tokio::test]
async fn health_answers_204_and_needs_the_token() {
    let app = spawn_app().await;
    let health = app
        .request(reqwest::Method::GET, "/e2b/envd/health")
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 204);
    let anonymous = app
        .http
        .get(format!("{}/e2b/envd/health", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(
        anonymous.status(),
        401,
        "the envd routes sit behind the bearer token"
    );
    let wrong = app
        .http
        .get(format!("{}/e2b/envd/envs", app.base))
        .bearer_auth(format!("{TOKEN}x"))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 401);
}

#[tokio::test]
async fn init_sets_the_variables_that_envs_reports() {
    let app = spawn_app().await;
    assert_eq!(envs(&app).await, json!({}));
    let init = app
        .request(reqwest::Method::POST, "/e2b/envd/init")
        .json(&json!({ "envVars": { "GREETING": "hello", "LEVEL": "3" }, "accessToken": "ignored" }))
        .send()
        .await
        .unwrap();
    assert_eq!(init.status(), 204);
    assert_eq!(envs(&app).await, json!({ "GREETING": "hello", "LEVEL": "3" }));

    let bad = app
        .request(reqwest::Method::POST, "/e2b/envd/init")
        .json(&json!({ "envVars": { "A=B": "x" } }))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    let body: serde_json::Value = bad.json().await.unwrap();
    assert_eq!(body["code"], 400);
    assert!(body["message"].as_str().unwrap().contains("A=B"), "{body}");
    assert_eq!(
        envs(&app).await["GREETING"],
        "hello",
        "a refused init changes nothing"
    );

    let malformed = app
        .request(reqwest::Method::POST, "/e2b/envd/init")
        .header("content-type", "application/json")
        .body("{\"envVars\": 3}")
        .send()
        .await
        .unwrap();
    assert_eq!(malformed.status(), 400);
}

#[tokio::test]
async fn processes_end_with_the_server() {
    let workspace = tempfile::tempdir().unwrap();
    let (mut server, address) = crate::support::spawn_binary(workspace.path());
    let guard = KillOnDrop(server.id());
    let base = format!("http://{address}");
    let app = TestApp {
        client: tool_api_client::ToolApiClient::new(&base, TOKEN),
        http: reqwest::Client::new(),
        base,
        workspace,
    };
    // The server was given its token in its environment; a process it starts is not.
    let request = wire::run("printenv SANDBOX_TOKEN; echo end");
    let (events, _) = wire::open_stream(&app, "process.Process/Start", request, &[])
        .await
        .collect()
        .await;
    assert_eq!(wire::output(&events, "stdout"), "end\n", "the token leaked");

    let mut stream = wire::open_stream(
        &app,
        "process.Process/Start",
        wire::run("sleep 300 & echo $!; wait"),
        &[],
    )
    .await;
    let pid = stream.next().await.unwrap()["event"]["start"]["pid"]
        .as_u64()
        .unwrap() as u32;
    let child: u32 = wire::output(&[stream.next().await.unwrap()], "stdout")
        .trim()
        .parse()
        .unwrap();
    assert!(alive(pid) && alive(child));

    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(server.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    // The stream ends with the server, and the server ends.
    while stream.next().await.is_some() {}
    let status = tokio::task::spawn_blocking(move || server.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(status.success(), "{status:?}");
    std::mem::forget(guard); // reaped: its pid is no longer its own
    let deadline = Instant::now() + Duration::from_secs(5);
    while alive(pid) || alive(child) {
        assert!(Instant::now() < deadline, "a process outlived the server");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Kills a server a failed test leaves behind.
struct KillOnDrop(u32);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let pid = nix::unistd::Pid::from_raw(self.0 as i32);
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL);
    }
}
