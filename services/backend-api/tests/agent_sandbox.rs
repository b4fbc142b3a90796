//! The agent acting in a real sandbox: the real backend, the real sandbox-manager binary
//! against the Docker engine with the sandbox image, and a scripted model. A run that
//! plans, writes a file and runs it in the shell; stop in the middle of a command (the
//! command is killed); deleting the session removes its sandbox.
//!
//! Needs the Docker engine and the sandbox-manager binary (built by `cargo test
//! --workspace`, or `cargo build -p sandbox-manager`).

mod support;

use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use sandbox_manager_client::contract::ListQuery;
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::manager::Manager;
use support::{borrowed, TestApp};
use tool_api_client::contract::shell::CommandState;

/// How long a sandbox step may take (the first one starts a container).
const WAIT: Duration = Duration::from_secs(120);

async fn backend(llm: &FakeLlm, manager: &Manager) -> TestApp {
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    let overrides = borrowed(&settings);
    TestApp::spawn(&overrides).await
}

#[tokio::test]
async fn the_agent_writes_a_file_runs_it_and_is_stopped_mid_command() {
    let llm = FakeLlm::start(vec![
        Reply::Tools(vec![(
            "plan_update",
            json!({ "steps": [{ "id": "1", "description": "Write and run a script" }] }).to_string(),
        )]),
        Reply::Tools(vec![(
            "file_write",
            json!({ "path": "hello.py", "content": "print('hello from the sandbox')\n" }).to_string(),
        )]),
        Reply::Tools(vec![(
            "shell_exec",
            json!({ "command": "python3 hello.py" }).to_string(),
        )]),
        Reply::Text("It printed: hello from the sandbox"),
        // The second turn: a command that would run for ten minutes.
        Reply::Tools(vec![(
            "shell_exec",
            json!({ "command": "sleep 600", "timeout_secs": 600 }).to_string(),
        )]),
    ])
    .await;
    let manager = Manager::start();
    let app = backend(&llm, &manager).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;

    app.post_message(&token, &id, "Write hello.py and run it").await;
    let events = stream
        .until(WAIT, |e| e["type"] == "status" && e["status"] != "running")
        .await;
    let tools: Vec<&Value> = events.iter().filter(|e| e["type"] == "tool").collect();
    assert_eq!(tools.len(), 4, "calling and called for each tool: {events:#?}");
    assert_eq!(tools[0]["status"], "calling");
    assert_eq!(tools[1]["name"], "file_write");
    assert_eq!(tools[1]["view"]["kind"], "file");
    assert_eq!(tools[3]["name"], "shell_exec");
    assert_eq!(tools[3]["view"]["kind"], "shell");
    assert!(
        tools[3]["view"]["output"]
            .as_str()
            .unwrap()
            .contains("hello from the sandbox"),
        "{}",
        tools[3]
    );
    assert_eq!(events.last().unwrap()["status"], "completed");
    // The model read the command's real output.
    let fourth = &llm.requests()[3];
    let result = fourth["messages"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|m| m["role"] == "tool")
        .unwrap();
    assert!(
        result["content"]
            .as_str()
            .unwrap()
            .contains("hello from the sandbox"),
        "{result}"
    );
    // The file is in the sandbox.
    let tool_api = manager.tool_api(&id).await;
    let listing = tool_api.list(".").await.unwrap();
    assert!(listing.entries.iter().any(|e| e.name == "hello.py"));

    // Stop while `sleep 600` runs: answered within a second, the command killed.
    app.post_message(&token, &id, "Now wait ten minutes").await;
    stream
        .until(WAIT, |e| e["type"] == "tool" && e["status"] == "calling")
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let started = Instant::now();
    let stopped = app
        .expect(
            StatusCode::OK,
            Method::POST,
            &format!("/api/v1/sessions/{id}/stop"),
            Some(&token),
            None,
        )
        .await;
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "stopped in {:?}",
        started.elapsed()
    );
    assert_eq!(stopped["status"], "completed");
    let shell = tool_api.view("agent", false).await.unwrap();
    assert_ne!(
        shell.state,
        CommandState::Running,
        "the command was killed: {shell:?}"
    );

    // Deleting the session removes its sandbox.
    app.expect(
        StatusCode::NO_CONTENT,
        Method::DELETE,
        &format!("/api/v1/sessions/{id}"),
        Some(&token),
        None,
    )
    .await;
    let query = ListQuery {
        session_id: Some(id.clone()),
        ..Default::default()
    };
    let left = manager.client().list(&query).await.unwrap();
    assert!(left.iter().all(|s| !s.state.is_live()), "{left:?}");
}

#[tokio::test]
async fn a_sandbox_that_dies_is_replaced_with_its_files_kept_and_a_death_mid_run_is_reported() {
    let llm = FakeLlm::start(vec![
        Reply::Tools(vec![(
            "file_write",
            json!({ "path": "notes.txt", "content": "kept across sandboxes\n" }).to_string(),
        )]),
        Reply::Text("Saved."),
        // Second turn, after the sandbox was removed between turns: a new one, same volume.
        Reply::Tools(vec![(
            "shell_exec",
            json!({ "command": "cat notes.txt" }).to_string(),
        )]),
        Reply::Text("It still says: kept across sandboxes"),
        // Third turn: the sandbox goes away under this command.
        Reply::Tools(vec![(
            "shell_exec",
            json!({ "command": "sleep 60", "timeout_secs": 90 }).to_string(),
        )]),
    ])
    .await;
    let manager = Manager::start_with(&[("SANDBOX_MANAGER_SANDBOX__STORAGE", "volume")]);
    let app = backend(&llm, &manager).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    let ended = |e: &Value| e["type"] == "status" && e["status"] != "running";
    let sandboxes = || {
        let client = manager.client();
        let query = ListQuery {
            session_id: Some(id.clone()),
            ..Default::default()
        };
        async move { client.list(&query).await.unwrap() }
    };
    // Removes the session's container and waits until the manager has seen it go (from
    // the engine's events).
    let kill = || async {
        manager.remove_container_of(&id);
        let deadline = Instant::now() + Duration::from_secs(15);
        while sandboxes().await.iter().any(|s| s.state.is_live()) {
            assert!(
                Instant::now() < deadline,
                "the manager still counts the removed sandbox"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    };

    app.post_message(&token, &id, "Write notes.txt").await;
    let first = stream.until(WAIT, ended).await;
    assert_eq!(first.last().unwrap()["status"], "completed", "{first:#?}");
    let original = sandboxes().await.pop().unwrap();
    kill().await;

    app.post_message(&token, &id, "What does notes.txt say?").await;
    let second = stream.until(WAIT, ended).await;
    assert_eq!(second.last().unwrap()["status"], "completed", "{second:#?}");
    let called = second
        .iter()
        .find(|e| e["type"] == "tool" && e["status"] == "called")
        .unwrap();
    assert!(
        called["view"]["output"]
            .as_str()
            .unwrap()
            .contains("kept across sandboxes"),
        "{called}"
    );
    let replacement = sandboxes().await.pop().unwrap();
    assert_ne!(replacement.id, original.id, "a new sandbox was made");

    app.post_message(&token, &id, "Wait a minute").await;
    stream
        .until(WAIT, |e| e["type"] == "tool" && e["status"] == "calling")
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    kill().await;
    let third = stream.until(Duration::from_secs(30), ended).await;
    assert_eq!(third.last().unwrap()["status"], "failed", "{third:#?}");
    let error = third
        .iter()
        .find(|e| e["type"] == "error")
        .expect("an error event");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("sandbox stopped answering"),
        "{error}"
    );
}
