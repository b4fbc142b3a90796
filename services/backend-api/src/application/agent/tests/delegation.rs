//! A `delegate` call runs a sub-agent: its own conversation holding only the task, its own
//! shell in the lead's sandbox, its events nested under the call, its answer the call's
//! result.

use super::*;

#[tokio::test]
async fn a_delegated_task_runs_in_a_sub_agent_whose_events_nest_under_the_call() {
    let model = ScriptedModel {
        replies: Mutex::new(VecDeque::from([
            call("delegate", r#"{"task": "List the files"}"#),
            call("shell_exec", r#"{"command": "ls"}"#),
            text("Two files."),
            text("The sub-agent found two files."),
        ])),
        ..ScriptedModel::default()
    };
    let h = Harness::new(model);
    let session = h.session().await;
    h.say(&session, "Look around").await;
    let log = h.until(&session, SessionStatus::Completed).await;

    let requests = h.model.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 4, "lead, sub-agent twice, lead");
    let person = |request: &[ChatMessage]| -> Vec<String> {
        request
            .iter()
            .filter(|m| m.role == ChatRole::User)
            .filter_map(|m| m.content.clone())
            .collect()
    };
    assert_eq!(person(&requests[1]), ["List the files"], "the task, nothing else");
    assert_eq!(*h.sandbox.shells.lock().unwrap(), ["sub-agent-1"]);

    // The lead's log shows the call, closed with the sub-agent's answer.
    assert_eq!(
        tool_events(&log),
        [
            (ToolStatus::Calling, None),
            (
                ToolStatus::Called,
                Some(ToolView::Delegation {
                    model: "scripted".into(),
                    own_sandbox: false,
                    answer: "Two files.".into(),
                    files: Vec::new(),
                })
            )
        ]
    );
    // The sub-agent's own events are nested under it.
    let nested: Vec<&str> = log
        .iter()
        .filter_map(|e| match &e.event {
            AgentEvent::Delegated { call_id, event } if call_id == "call-delegate" => Some(event.kind()),
            _ => None,
        })
        .collect();
    assert_eq!(nested, ["tool", "tool", "message"]);
    let results = tool_results(&requests[3]);
    assert_eq!(results.len(), 1, "{results:?}");
    assert_eq!(untrusted_block(&results[0]).1, "Two files.");
}
