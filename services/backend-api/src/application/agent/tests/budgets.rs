//! A turn's budgets end it, and say so: its time (even in the middle of a call, which is
//! closed and its command killed), its model requests, and the code cells that may fail
//! in a row.

use super::*;

/// The error events of the log.
fn errors(log: &[StoredEvent]) -> Vec<String> {
    log.iter()
        .filter_map(|e| match &e.event {
            AgentEvent::Error { message } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn the_time_budget_ends_a_turn_in_the_middle_of_a_call() {
    let model = ScriptedModel {
        replies: Mutex::new(VecDeque::from([call(
            "shell_exec",
            r#"{"command": "sleep 600"}"#,
        )])),
        ..ScriptedModel::default()
    };
    let h = Harness::with_budgets(
        model,
        Budgets {
            max_run: Duration::from_millis(200),
            ..budgets()
        },
    );
    let session = h.session().await;
    h.say(&session, "Wait a long time").await;
    let log = h.until(&session, SessionStatus::Failed).await;

    assert_eq!(
        h.sandbox.interrupted.load(Ordering::SeqCst),
        1,
        "the command was killed"
    );
    assert_eq!(
        tool_events(&log),
        [
            (ToolStatus::Calling, None),
            (
                ToolStatus::Called,
                Some(ToolView::error("the run's time budget ended"))
            )
        ]
    );
    let errors = errors(&log);
    assert!(
        matches!(errors.as_slice(), [one] if one.contains("time budget (0 s)")),
        "{errors:?}"
    );
    assert_eq!(h.model.requests.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn the_step_budget_ends_a_turn_after_so_many_model_requests() {
    let title = || call("set_title", r#"{"title": "Again"}"#);
    let model = ScriptedModel {
        replies: Mutex::new(VecDeque::from([
            title(),
            title(),
            title(),
            title(),
            text("Done."),
        ])),
        ..ScriptedModel::default()
    };
    let h = Harness::with_budgets(
        model,
        Budgets {
            max_steps: 3,
            ..budgets()
        },
    );
    let session = h.session().await;
    h.say(&session, "Name this session, again and again").await;
    let log = h.until(&session, SessionStatus::Failed).await;

    assert_eq!(
        h.model.requests.lock().unwrap().len(),
        3,
        "three requests, no more"
    );
    let errors = errors(&log);
    assert!(
        matches!(errors.as_slice(), [one] if one.contains("step budget (3 model requests")),
        "{errors:?}"
    );
}

#[tokio::test]
async fn the_turn_ends_after_so_many_failed_cells_in_a_row_and_a_good_cell_starts_the_count_again() {
    let cell = |code: &str| call("code_run", &serde_json::json!({ "code": code }).to_string());
    let model = ScriptedModel {
        replies: Mutex::new(VecDeque::from([
            cell("raise ValueError"),
            cell("raise ValueError"),
            cell("1 + 1"),
            cell("raise ValueError"),
            cell("raise ValueError"),
            cell("raise ValueError"),
            text("Never asked for."),
        ])),
        ..ScriptedModel::default()
    };
    let h = Harness::with_budgets(
        model,
        Budgets {
            failed_cells: 3,
            ..budgets()
        },
    );
    let session = h.session().await;
    h.say(&session, "Compute something").await;
    let log = h.until(&session, SessionStatus::Failed).await;

    let cells = h.sandbox.calls.lock().unwrap().len();
    assert_eq!(
        cells, 6,
        "two failed, one good, three failed: then the turn ended"
    );
    assert_eq!(h.model.requests.lock().unwrap().len(), 6);
    let errors = errors(&log);
    assert!(
        matches!(errors.as_slice(), [one] if one.contains("failed 3 times in a row")),
        "{errors:?}"
    );
}
