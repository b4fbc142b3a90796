//! A turn's tool calls: sent typed, their results reaching the model; a person's message
//! taken into the run once; a stop closing the call in flight; a call that cannot run
//! opened, closed and explained.

use super::*;

#[tokio::test]
async fn a_sandbox_call_is_sent_typed_and_its_result_reaches_the_model() {
    let model = ScriptedModel {
        replies: Mutex::new(VecDeque::from([
            call("shell_exec", r#"{"command": "ls -la"}"#),
            text("Listed."),
        ])),
        ..ScriptedModel::default()
    };
    let h = Harness::new(model);
    let session = h.session().await;
    h.say(&session, "What is here?").await;
    let log = h.until(&session, SessionStatus::Completed).await;

    let calls = h.sandbox.calls.lock().unwrap().clone();
    assert!(
        matches!(calls.as_slice(), [SandboxCall::ShellExec(exec)] if exec.command == "ls -la"),
        "{calls:?}"
    );
    let tools = tool_events(&log);
    assert_eq!(tools.len(), 2, "{tools:?}");
    assert_eq!(tools[0], (ToolStatus::Calling, None));
    assert_eq!(tools[1].0, ToolStatus::Called);
    let requests = h.model.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 2);
    let results = tool_results(&requests[1]);
    assert_eq!(results.len(), 1);
    assert_eq!(untrusted_block(&results[0]).1, "recorded output");
}

#[tokio::test]
async fn a_message_sent_during_a_request_reaches_the_next_one_once() {
    let model = ScriptedModel {
        replies: Mutex::new(VecDeque::from([
            call("set_title", r#"{"title": "Plans"}"#),
            text("Both done."),
        ])),
        hold_first: true,
        ..ScriptedModel::default()
    };
    let h = Harness::new(model);
    let session = h.session().await;
    h.say(&session, "First").await;
    h.model.asked.notified().await;
    h.say(&session, "Second").await;
    h.model.release.notify_one();
    h.until(&session, SessionStatus::Completed).await;

    let requests = h.model.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 2, "one run took both messages");
    let person = |request: &[ChatMessage]| -> Vec<String> {
        request
            .iter()
            .filter(|m| m.role == ChatRole::User)
            .filter_map(|m| m.content.clone())
            .collect()
    };
    assert_eq!(person(&requests[0]), ["First"]);
    assert_eq!(person(&requests[1]), ["First", "Second"]);
}

#[tokio::test]
async fn a_stop_mid_call_closes_it_and_kills_the_command() {
    let model = ScriptedModel {
        replies: Mutex::new(VecDeque::from([call(
            "shell_exec",
            r#"{"command": "sleep 600"}"#,
        )])),
        ..ScriptedModel::default()
    };
    let h = Harness::new(model);
    let session = h.session().await;
    h.say(&session, "Wait a long time").await;
    while h.sandbox.calls.lock().unwrap().is_empty() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    h.agent.stop(&h.owner, session.id.as_str()).await.unwrap();
    let log = h.events.page(&session.id, 0, 1000).await.unwrap();

    assert_eq!(h.sandbox.interrupted.load(Ordering::SeqCst), 1);
    let tools = tool_events(&log);
    assert_eq!(
        tools,
        [
            (ToolStatus::Calling, None),
            (ToolStatus::Called, Some(ToolView::error("stopped")))
        ]
    );
    let remembered = log.iter().rev().find_map(|e| match &e.event {
        AgentEvent::Memory { messages, .. } => Some(tool_results(messages)),
        _ => None,
    });
    assert_eq!(remembered, Some(vec!["[stopped]".to_owned()]));
}

#[tokio::test]
async fn a_call_of_no_tool_or_with_misfit_arguments_is_opened_closed_and_explained() {
    let model = ScriptedModel {
        replies: Mutex::new(VecDeque::from([
            call("teleport", "{}"),
            call("file_read", r#"{"lines": 3}"#),
            text("Gave up."),
        ])),
        ..ScriptedModel::default()
    };
    let h = Harness::new(model);
    let session = h.session().await;
    h.say(&session, "Do the impossible").await;
    let log = h.until(&session, SessionStatus::Completed).await;

    assert!(
        h.sandbox.calls.lock().unwrap().is_empty(),
        "nothing reached the sandbox"
    );
    let statuses: Vec<ToolStatus> = tool_events(&log).into_iter().map(|(s, _)| s).collect();
    assert_eq!(
        statuses,
        [
            ToolStatus::Calling,
            ToolStatus::Called,
            ToolStatus::Calling,
            ToolStatus::Called
        ]
    );
    let requests = h.model.requests.lock().unwrap().clone();
    let told = tool_results(&requests[2]);
    assert!(told[0].contains("no tool named teleport"), "{told:?}");
    assert!(
        told[1].contains("do not fit file_read") && told[1].contains("path"),
        "{told:?}"
    );
}
