//! The agent writing a file and running it, stopped mid-command.

use super::*;

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
