//! Sub-agents' sandboxes: offline for an offline job's sub-agent, and none left behind
//! by a stop during delegation.

use super::*;

#[tokio::test]
async fn a_sub_agent_of_an_offline_job_gets_an_offline_sandbox() {
    let planner = FakeLlm::start_as(
        Provider::with_key("key-of-planner"),
        vec![Reply::tool(
            "delegate",
            json!({ "task": "Task S: wait", "own_sandbox": true }),
        )],
    )
    .await;
    let coder = FakeLlm::start_as(Provider::with_key("key-of-coder"), vec![]).await;
    coder.route(
        "Task S",
        vec![Reply::tool(
            "shell_exec",
            json!({ "command": "sleep 600", "timeout_secs": 600 }),
        )],
    );
    let manager = Manager::start();
    let app = sandboxed(&planner, &coder, &manager).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let key = app.jobs_key(&token).await;
    let job = app
        .create_job(&key, json!({ "prompt": "Wait", "network": "offline" }))
        .await;
    let session = job["session_id"].as_str().unwrap();

    // The sub-agent is in its `sleep`, in its own sandbox.
    let deadline = Instant::now() + WAIT;
    let sub = loop {
        if let Some(sub) = sub_sandboxes(&manager, session).await.pop() {
            break sub;
        }
        assert!(Instant::now() < deadline, "no sub-agent sandbox was made");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    manager.until_shell_runs(&sub, "agent").await;
    assert_eq!(manager.network_label_of(&sub), "offline");

    let cancel = format!("/api/v1/jobs/{}/cancel", job["id"].as_str().unwrap());
    app.expect(
        reqwest::StatusCode::OK,
        reqwest::Method::POST,
        &cancel,
        Some(&key),
        None,
    )
    .await;
    until_no_sub_sandbox(&manager, session).await;
}

#[tokio::test]
async fn stop_during_delegation_leaves_no_sub_agent_or_sub_sandbox() {
    let planner = FakeLlm::start_as(
        Provider::with_key("key-of-planner"),
        vec![Reply::Tools(vec![
            delegate("Task A: wait long", json!({ "own_sandbox": true })),
            delegate("Task B: wait long too", json!({})),
        ])],
    )
    .await;
    let coder = FakeLlm::start_as(Provider::with_key("key-of-coder"), vec![]).await;
    let sleep = || {
        Reply::tool(
            "shell_exec",
            json!({ "command": "sleep 600", "timeout_secs": 600 }),
        )
    };
    coder.route("Task A", vec![sleep()]);
    coder.route("Task B", vec![sleep()]);
    let manager = Manager::start();
    let app = sandboxed(&planner, &coder, &manager).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    app.post_message(&token, &id, "Wait twice").await;

    // Both sub-agents are in their `sleep`.
    let sleeping = std::cell::Cell::new(0);
    let started = stream
        .until(WAIT, |e| {
            if e["type"] == "delegated" && e["event"]["status"] == "calling" {
                sleeping.set(sleeping.get() + 1);
            }
            sleeping.get() == 2
        })
        .await;
    assert_eq!(sub_sandboxes(&manager, &id).await.len(), 1, "{started:#?}");
    // A `calling` is logged before the sandbox is asked for: B's sleep runs once the
    // session's sandbox (made for it) answers.
    manager.until_shell_runs(&id, "sub-agent-2").await;
    let stopped = app.stop_run(&token, &id).await;
    assert_ne!(stopped["status"], "running", "{stopped}");
    let rest = stream
        .until(Duration::from_secs(10), |e| {
            e["type"] == "status" && e["status"] != "running"
        })
        .await;
    let events: Vec<Value> = started.into_iter().chain(rest).collect();
    assert_every_call_closed(&events);
    let done = called(&events, "delegate");
    assert_eq!(done.len(), 2);
    assert!(
        done.iter().all(|e| e["view"]["message"] == "stopped"),
        "{done:#?}"
    );
    until_no_sub_sandbox(&manager, &id).await;
    // The shared sandbox's shell of sub-agent B no longer runs its sleep.
    let after = manager.shell_state(&id, "sub-agent-2").await;
    assert!(
        after.is_some_and(|state| state != CommandState::Running),
        "{after:?}"
    );
}
