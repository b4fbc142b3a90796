//! A sandbox-manager that crashes mid-turn: the turn and the next one complete, and
//! deleting the chat afterwards leaves nothing of it in the engine.

use super::*;

/// The engine's containers of the manager's namespace carrying `label`, running or not.
fn containers(manager: &Manager, label: &str) -> Vec<String> {
    let ps = std::process::Command::new("docker")
        .args(["ps", "-aq", "--filter"])
        .arg(format!("label=org.sandpiper.manager={}", manager.namespace))
        .arg("--filter")
        .arg(format!("label={label}"))
        .output()
        .unwrap();
    assert!(ps.status.success(), "{ps:?}");
    String::from_utf8_lossy(&ps.stdout)
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

/// The deployment's defaults (a warm pool, homes on volumes; the pool's sandbox the
/// crashed process made is an orphan to the next one), and the manager SIGKILLed while
/// the agent's command runs.
#[tokio::test]
async fn a_manager_killed_mid_turn_leaves_nothing_once_the_chat_is_deleted() {
    let llm = FakeLlm::start(vec![
        Reply::tool("shell_exec", json!({ "command": "sleep 4; echo slept" })),
        Reply::Text("Slept."),
        Reply::tool("shell_exec", json!({ "command": "echo again" })),
        Reply::Text("Again."),
    ])
    .await;
    let mut manager = Manager::start_with(&[
        ("SANDBOX_MANAGER_POOL__SIZE", "1"),
        ("SANDBOX_MANAGER_SANDBOX__STORAGE", "volume"),
    ]);
    let deadline = Instant::now() + WAIT;
    while containers(&manager, "org.sandpiper.sandbox").is_empty() {
        assert!(Instant::now() < deadline, "the pool made no sandbox");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let app = backend(&llm, &manager).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    let ended = |e: &Value| e["type"] == "status" && e["status"] != "running";

    app.post_message(&token, &id, "Sleep a little").await;
    manager.until_shell_runs(&id, "agent").await;
    manager.crash_and_restart();
    let first = stream.until(WAIT, ended).await;
    assert_eq!(first.last().unwrap()["status"], "completed", "{first:#?}");

    app.post_message(&token, &id, "Once more").await;
    let second = stream.until(WAIT, ended).await;
    assert_eq!(second.last().unwrap()["status"], "completed", "{second:#?}");
    let query = ListQuery {
        session_id: Some(id.clone()),
        ..Default::default()
    };
    let sandboxes = manager.client().list(&query).await.unwrap();
    assert_eq!(sandboxes.len(), 1, "{sandboxes:?}");
    let sandbox = format!("org.sandpiper.sandbox={}", sandboxes[0].id);
    assert_eq!(containers(&manager, &sandbox).len(), 1);

    app.expect(
        StatusCode::NO_CONTENT,
        Method::DELETE,
        &format!("/api/v1/sessions/{id}"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(containers(&manager, &sandbox), Vec::<String>::new());
    let left = manager.client().list(&query).await.unwrap();
    assert_eq!(left.len(), 0, "{left:?}");
}
