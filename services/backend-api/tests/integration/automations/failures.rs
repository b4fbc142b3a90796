//! Failures that make no job: a prompt that cannot be filled in at fire time counts as
//! a failed run (and pauses the automation at the limit), where a full queue does not;
//! a delivery to an unknown webhook is refused before its body is read.

use reqwest::{Method, StatusCode};
use serde_json::json;

use super::{create, deliver, runs, AUTOMATIONS};
use crate::support::TestApp;

#[tokio::test]
async fn a_prompt_that_cannot_be_made_counts_as_a_failure_and_pauses_at_the_limit() {
    let app = TestApp::spawn(&[("automations.max_failures", "2")]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    // It parses, so it is saved; filling it in runs out of fuel at every fire.
    let created = create(
        &app,
        &token,
        json!({ "name": "Spinning", "prompt": "{% for i in range(1000000) %}x{% endfor %}",
                "triggers": [{ "type": "schedule", "cron": "0 9 * * MON" }] }),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let run_now = format!("{AUTOMATIONS}/{id}/run");
    for _ in 0..2 {
        let refused = app
            .expect(StatusCode::CONFLICT, Method::POST, &run_now, Some(&token), None)
            .await;
        let message = refused["error"]["message"].as_str().unwrap();
        assert!(message.contains("the prompt could not be made"), "{refused}");
    }
    let path = format!("{AUTOMATIONS}/{id}");
    let now = app
        .expect(StatusCode::OK, Method::GET, &path, Some(&token), None)
        .await;
    assert_eq!(now["enabled"], false, "{now}");
    assert_eq!(now["next_fire"], serde_json::Value::Null, "{now}");
    let why = now["paused_reason"].as_str().unwrap();
    assert!(why.contains("2 failed runs") && why.contains("prompt"), "{now}");
    let history = runs(&app, &token, id).await;
    let fired: Vec<&str> = history
        .iter()
        .map(|run| run["trigger"].as_str().unwrap())
        .collect();
    assert_eq!(fired, ["paused", "manual", "manual"], "{history:#?}");
}

#[tokio::test]
async fn a_delivery_to_an_unknown_webhook_is_not_found_before_its_body_is_read() {
    let app = TestApp::spawn(&[("automations.max_webhook_bytes", "1024")]).await;
    // Larger than allowed, yet small enough to sit in the socket buffers unread.
    let large = vec![b'x'; 16 * 1024];
    for trigger in ["0190a3c4-0000-7000-8000-000000000000", "not-an-id"] {
        let (status, body) = deliver(&app, &format!("/api/v1/hooks/{trigger}"), &large, &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{trigger}: {body}");
        assert!(body["error"]["message"].is_string(), "{body}");
    }
}
