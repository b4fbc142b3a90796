//! What holds an automation's runs to its person's limits: a run waits in the person's
//! job queue like any job of theirs and a full queue skips it (recorded), and a person
//! may have only so many automations.

use reqwest::{Method, StatusCode};
use serde_json::json;

use super::{backend, create, runs, AUTOMATIONS};
use crate::support::fake_llm::{FakeLlm, Reply};

#[tokio::test]
async fn a_full_queue_skips_a_run_and_the_number_of_automations_is_capped() {
    // The first job hangs at the model, the second waits queued behind it.
    let llm = FakeLlm::start(vec![Reply::Hang, Reply::Hang]).await;
    let app = backend(
        &llm,
        &[
            ("jobs.max_running_per_person", "1".into()),
            ("jobs.max_queued_per_person", "1".into()),
            ("automations.max_per_person", "1".into()),
        ],
    )
    .await;
    let (token, _, _) = app.register("ada@example.org").await;
    let created = create(
        &app,
        &token,
        json!({ "name": "Busy", "prompt": "Work", "triggers": [{ "type": "schedule", "cron": "0 9 * * MON" }] }),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let run = format!("{AUTOMATIONS}/{id}/run");
    for _ in 0..2 {
        app.expect(StatusCode::ACCEPTED, Method::POST, &run, Some(&token), None)
            .await;
    }
    let refused = app
        .expect(StatusCode::CONFLICT, Method::POST, &run, Some(&token), None)
        .await;
    assert!(refused.to_string().contains("queue full"), "{refused}");
    let history = runs(&app, &token, id).await;
    assert_eq!(history.len(), 3, "{history:#?}");
    assert_eq!(history[0]["status"], "skipped", "{history:#?}");
    assert!(
        history[0]["note"].as_str().unwrap().contains("queue full"),
        "{history:#?}"
    );

    let second = json!({ "name": "One more", "prompt": "x", "triggers": [{ "type": "schedule", "cron": "0 9 * * MON" }] });
    let capped = app
        .expect(
            StatusCode::CONFLICT,
            Method::POST,
            AUTOMATIONS,
            Some(&token),
            Some(second),
        )
        .await;
    assert!(
        capped["error"]["message"]
            .as_str()
            .unwrap()
            .contains("the most one person may have"),
        "{capped}"
    );
}
