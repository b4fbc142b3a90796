//! A sandbox that dies: replaced with its files kept, a death mid-run reported.

use super::*;

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
