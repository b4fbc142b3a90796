//! The agent acting in a real sandbox: the real backend, the real sandbox-manager binary
//! against the Docker engine with the sandbox image, and a scripted model. A run that
//! plans, writes a file and runs it in the shell; stop in the middle of a command (the
//! command is killed); deleting the session removes its sandbox; later turns, also after
//! a restart, remember what earlier ones did and saw.
//!
//! Needs the Docker engine and the sandbox-manager binary (built by `cargo test
//! --workspace`, or `cargo build -p sandbox-manager`).

use crate::support;

use std::time::{Duration, Instant};

use backend_api::domain::image::ImageId;
use backend_api::domain::session::SessionId;
use backend_api::infrastructure::stores::StoragePorts;
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
        Reply::tool(
            "plan_update",
            json!({ "steps": [{ "id": "1", "description": "Write and run a script" }] }),
        ),
        Reply::tool(
            "file_write",
            json!({ "path": "hello.py", "content": "print('hello from the sandbox')\n" }),
        ),
        Reply::tool("shell_exec", json!({ "command": "python3 hello.py" })),
        Reply::Text("It printed: hello from the sandbox"),
        // The second turn: a command that would run for ten minutes.
        Reply::tool(
            "shell_exec",
            json!({ "command": "sleep 600", "timeout_secs": 600 }),
        ),
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

    // Stop while `sleep 600` runs: answered without waiting for it, the command killed.
    app.post_message(&token, &id, "Now wait ten minutes").await;
    stream
        .until(WAIT, |e| e["type"] == "tool" && e["status"] == "calling")
        .await;
    manager.until_shell_runs(&id, "agent").await;
    let stopped = app.stop_run(&token, &id).await;
    assert_eq!(stopped["status"], "completed");
    // The log is consistent: the interrupted call is closed, then the status.
    let after_stop = stream
        .until(WAIT, |e| e["type"] == "status" && e["status"] == "completed")
        .await;
    let closed = after_stop
        .iter()
        .find(|e| e["type"] == "tool" && e["status"] == "called")
        .expect("the interrupted call's `called` event");
    assert_eq!(closed["name"], "shell_exec");
    assert_eq!(closed["view"]["message"], "stopped");
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
        Reply::tool(
            "file_write",
            json!({ "path": "notes.txt", "content": "kept across sandboxes\n" }),
        ),
        Reply::Text("Saved."),
        // Second turn, after the sandbox was removed between turns: a new one, same volume.
        Reply::tool("shell_exec", json!({ "command": "cat notes.txt" })),
        Reply::Text("It still says: kept across sandboxes"),
        // Third turn: the sandbox goes away under this command.
        Reply::tool("shell_exec", json!({ "command": "sleep 60", "timeout_secs": 90 })),
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
    manager.until_shell_runs(&id, "agent").await;
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

#[tokio::test]
async fn the_agent_browses_a_local_page_and_the_person_sees_its_screenshots() {
    let page = "<title>Local page</title><h1>Sandpiper test page</h1><p>The secret word is heron.</p>";
    let llm = FakeLlm::start(vec![
        Reply::tool("file_write", json!({ "path": "page.html", "content": page })),
        Reply::tool(
            "browser_navigate",
            json!({ "url": "file:///home/sandbox/workspace/page.html" }),
        ),
        Reply::tool("browser_view", json!({})),
        Reply::Text("The secret word is heron."),
    ])
    .await;
    let manager = Manager::start();
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    let mut app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let (bob, _, _) = app.register("bob@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    app.post_message(&token, &id, "What is the secret word on my page?")
        .await;
    let events = stream
        .until(WAIT, |e| e["type"] == "status" && e["status"] != "running")
        .await;
    assert_eq!(events.last().unwrap()["status"], "completed", "{events:#?}");
    let called: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "tool" && e["status"] == "called")
        .collect();
    let (navigate, view) = (called[1], called[2]);
    assert_eq!(navigate["view"]["title"], "Local page");
    for event in [navigate, view] {
        assert_eq!(event["view"]["kind"], "browser");
        assert!(
            event.to_string().len() < 4096,
            "the event carries a reference, not the image: {} bytes",
            event.to_string().len()
        );
    }
    let url = view["view"]["screenshot"]["url"]
        .as_str()
        .expect("a screenshot URL");
    // The page did not change between the two calls: one image, stored once.
    assert_eq!(navigate["view"]["screenshot"], view["view"]["screenshot"]);

    let image = app
        .http
        .get(format!("{}{url}", app.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(image.status(), StatusCode::OK);
    assert_eq!(image.headers()["content-type"], "image/jpeg");
    let bytes = image.bytes().await.unwrap();
    assert!(bytes.starts_with(&[0xFF, 0xD8]), "a JPEG");
    assert!(bytes.len() > 1000);

    // The model read the page's text, without the image.
    let text = llm.last_message_text(3);
    let text = text.as_str();
    assert!(text.contains("heron"), "{text}");
    assert!(
        !text.contains("\"screenshot\""),
        "the model got the image: {} bytes",
        text.len()
    );

    // Only the owner sees it — and a shared replay.
    app.expect(StatusCode::NOT_FOUND, Method::GET, url, Some(&bob), None)
        .await;
    let shared = app
        .expect(
            StatusCode::OK,
            Method::POST,
            &format!("/api/v1/sessions/{id}/share"),
            Some(&token),
            None,
        )
        .await;
    let shot = url.rsplit('/').next().unwrap();
    let replay = format!(
        "/api/v1/shared/{}/screenshots/{shot}",
        shared["share_token"].as_str().unwrap()
    );
    let replayed = app.call(Method::GET, &replay, None, None).await;
    assert_eq!(replayed.status(), StatusCode::OK);
    assert_eq!(replayed.bytes().await.unwrap(), bytes);
    let unknown = app
        .expect(
            StatusCode::NOT_FOUND,
            Method::GET,
            &format!("/api/v1/sessions/{id}/screenshots/nope.jpg"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(unknown["error"]["code"], "not_found");

    // Deleting the session deletes its screenshots: the store itself no longer has it.
    app.expect(
        StatusCode::NO_CONTENT,
        Method::DELETE,
        &format!("/api/v1/sessions/{id}"),
        Some(&token),
        None,
    )
    .await;
    app.stop().await;
    let stores = StoragePorts::open(&support::settings(&app.data_dir, &borrowed(&settings)))
        .await
        .unwrap();
    let session = SessionId::parse(&id).unwrap();
    let shot = ImageId::parse(shot).unwrap();
    assert_eq!(stores.images.get(&session, &shot).await.unwrap(), None);
}

#[tokio::test]
async fn later_turns_remember_earlier_calls_and_results_also_after_a_restart() {
    let llm = FakeLlm::start(vec![
        Reply::tool(
            "file_write",
            json!({ "path": "notes.txt", "content": "The code word is heron.\n" }),
        ),
        Reply::tool("file_read", json!({ "path": "notes.txt" })),
        Reply::Text("I wrote notes.txt and read it back."),
        Reply::Text("It says the code word is heron."),
        Reply::Text("Still heron."),
    ])
    .await;
    let manager = Manager::start();
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    let overrides = borrowed(&settings);
    let data = tempfile::tempdir().unwrap();
    let mut first = TestApp::spawn_on(data.path(), &overrides).await;
    let (token, _, _) = first.register("ada@example.org").await;
    let id = first.new_session(&token).await;
    let completed = |e: &Value| e["type"] == "status" && e["status"] == "completed";

    let seq = first.post_message(&token, &id, "Note the code word heron").await;
    first
        .events(&token, &id, Some(seq))
        .await
        .until(WAIT, completed)
        .await;
    let seq = first.post_message(&token, &id, "What does notes.txt say?").await;
    first
        .events(&token, &id, Some(seq))
        .await
        .until(WAIT, completed)
        .await;
    let second_turn = llm.requests()[3]["messages"].as_array().unwrap().clone();
    let read_at = second_turn
        .iter()
        .position(|m| m["tool_calls"][0]["function"]["name"] == "file_read")
        .expect("the earlier file_read call is in the second turn's request");
    let call_id = &second_turn[read_at]["tool_calls"][0]["id"];
    let result = &second_turn[read_at + 1];
    assert_eq!(result["role"], "tool");
    assert_eq!(&result["tool_call_id"], call_id);
    assert!(
        result["content"]
            .as_str()
            .unwrap()
            .contains("The code word is heron."),
        "{result}"
    );
    let last = second_turn.last().unwrap();
    assert_eq!(
        (&last["role"], &last["content"]),
        (&json!("user"), &json!("What does notes.txt say?"))
    );

    // A restarted backend starts the next turn from the same memory.
    first.stop().await;
    let second = TestApp::spawn_on(data.path(), &overrides).await;
    let seq = second.post_message(&token, &id, "And now?").await;
    second
        .events(&token, &id, Some(seq))
        .await
        .until(WAIT, completed)
        .await;
    let third_turn = llm.requests()[4]["messages"].as_array().unwrap().clone();
    assert_eq!(third_turn[..second_turn.len()], second_turn[..]);
    let added: Vec<(&str, &str)> = third_turn[second_turn.len()..]
        .iter()
        .map(|m| (m["role"].as_str().unwrap(), m["content"].as_str().unwrap()))
        .collect();
    assert_eq!(
        added,
        [
            ("assistant", "It says the code word is heron."),
            ("user", "And now?")
        ]
    );
}
