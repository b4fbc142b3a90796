//! What holds an automation's runs to its person's limits: a run waits in the person's
//! job queue like any job of theirs and a full queue skips it (recorded), and a person
//! may have only so many automations; a deactivated owner's automations do not run; a
//! persistent automation runs one at a time; a delivery that made no job is 503 and its
//! key is released.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::{backend, create, deliver, fired_at, runs, until_runs, AUTOMATIONS};
use crate::support::fake_llm::{FakeLlm, Reply};
use crate::support::signatures::{signed_at, signed_now};

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
    // Creations racing for the last place may all be refused: the message says so.
    let message = capped["error"]["message"].as_str().unwrap();
    assert!(message.contains("the most one person may have"), "{capped}");
    assert!(message.contains("try again"), "{capped}");
}

#[tokio::test]
async fn a_deactivated_owners_automations_do_not_run_and_its_webhook_is_not_found() {
    let llm = FakeLlm::start(vec![]).await;
    let app = backend(&llm, &[]).await;
    let (admin, _, _) = app.register("admin@example.org").await;
    let (token, _, ada) = app.register("ada@example.org").await;
    let every_second = create(
        &app,
        &token,
        json!({ "name": "Tick", "prompt": "Tick", "triggers": [{ "type": "schedule", "cron": "* * * * * *" }] }),
    )
    .await;
    let hook = create(
        &app,
        &token,
        json!({ "name": "Hook", "prompt": "Hook", "triggers": [{ "type": "webhook" }] }),
    )
    .await;
    // Bob's automation, firing every second, tells when the scheduler's rounds are past
    // a time; Ada's history is read once her account is back (with a key made before).
    let (bob, _, _) = app.register("bob@example.org").await;
    let witness = create(
        &app,
        &bob,
        json!({ "name": "Witness", "prompt": "Tock", "triggers": [{ "type": "schedule", "cron": "* * * * * *" }] }),
    )
    .await;
    let key = app.jobs_key(&token).await;
    let users = format!("/api/v1/users/{ada}");
    app.expect(
        StatusCode::OK,
        Method::POST,
        &format!("{users}/deactivate"),
        Some(&admin),
        None,
    )
    .await;
    let from = chrono::Utc::now() + chrono::Duration::seconds(1);
    let past = from + chrono::Duration::seconds(2);
    until_runs(&app, &bob, witness["id"].as_str().unwrap(), |runs| {
        runs.iter().any(|r| fired_at(r) > past)
    })
    .await;
    let trigger = &hook["triggers"][0];
    let body = b"{}";
    let (status, answer) = deliver(
        &app,
        trigger["url"].as_str().unwrap(),
        body,
        &[(
            "X-Sandpiper-Signature",
            signed_now(trigger["secret"].as_str().unwrap(), body),
        )],
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");

    app.expect(
        StatusCode::OK,
        Method::POST,
        &format!("{users}/activate"),
        Some(&admin),
        None,
    )
    .await;
    let history = runs(&app, &key, every_second["id"].as_str().unwrap()).await;
    let while_off: Vec<&Value> = history
        .iter()
        .filter(|r| fired_at(r) > from && fired_at(r) <= past)
        .collect();
    assert!(!while_off.is_empty(), "{history:#?}");
    for run in while_off {
        assert_eq!(run["job_id"], Value::Null, "{run}");
        assert!(run["note"].as_str().unwrap().contains("deactivated"), "{run}");
    }
}

#[tokio::test]
async fn a_persistent_automation_runs_one_at_a_time_whatever_was_skipped_since() {
    let llm = FakeLlm::start(vec![Reply::Hang]).await;
    let app = backend(&llm, &[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let created = create(
        &app,
        &token,
        json!({ "name": "Diary", "prompt": "Keep notes", "session": "persistent",
                "triggers": [{ "type": "schedule", "cron": "0 9 * * MON" }] }),
    )
    .await;
    let run = format!("{AUTOMATIONS}/{}/run", created["id"].as_str().unwrap());
    app.expect(StatusCode::ACCEPTED, Method::POST, &run, Some(&token), None)
        .await;
    // The first run hangs; every fire after it is skipped, the skipped ones between
    // included.
    for _ in 0..3 {
        let refused = app
            .expect(StatusCode::CONFLICT, Method::POST, &run, Some(&token), None)
            .await;
        assert!(refused.to_string().contains("still going"), "{refused}");
    }
}

#[tokio::test]
async fn a_delivery_that_made_no_job_is_503_and_its_retry_is_not_a_repeat() {
    let llm = FakeLlm::start(vec![Reply::Hang, Reply::Hang]).await;
    let app = backend(
        &llm,
        &[
            ("jobs.max_running_per_person", "1".into()),
            ("jobs.max_queued_per_person", "1".into()),
        ],
    )
    .await;
    let (token, _, _) = app.register("ada@example.org").await;
    let hook = create(
        &app,
        &token,
        json!({ "name": "Hook", "prompt": "Hook", "triggers": [{ "type": "webhook" }] }),
    )
    .await;
    let trigger = &hook["triggers"][0];
    let (url, body) = (trigger["url"].as_str().unwrap(), b"{}");
    // Each delivery signed at its own second, so each is another delivery.
    let now = chrono::Utc::now().timestamp();
    let headers = |key: &str, ago: i64| {
        vec![
            (
                "X-Sandpiper-Signature",
                signed_at(trigger["secret"].as_str().unwrap(), now - ago, body),
            ),
            ("Idempotency-Key", key.to_owned()),
        ]
    };
    // One runs, one waits queued; the queue is full for the third, which is released
    // (both its keys), so the same delivery sent again is tried again.
    for (key, ago) in [("d-1", 1), ("d-2", 2)] {
        let (status, answer) = deliver(&app, url, body, &headers(key, ago)).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{answer}");
    }
    for _ in 0..2 {
        let (status, answer) = deliver(&app, url, body, &headers("d-3", 3)).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{answer}");
        assert!(answer.to_string().contains("queue full"), "{answer}");
    }
}
