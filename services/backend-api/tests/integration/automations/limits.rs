//! What holds an automation's runs to its person's limits: a run waits in the person's
//! job queue like any job of theirs and a full queue skips it (recorded), and a person
//! may have only so many automations; a deactivated owner's automations pause, as do those
//! made with a revoked API key; a
//! persistent automation runs one at a time; a delivery that made no job is 503 and its
//! key is released.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::{backend, create, deliver, runs, AUTOMATIONS};
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

/// Deactivating a person pauses their automations (a fire that races the pause is
/// skipped: a deactivated owner's automation never runs), their webhooks are not found,
/// and reactivating them leaves the pause for the person to lift.
#[tokio::test]
async fn a_deactivated_owners_automations_pause_and_its_webhook_is_not_found() {
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
    // Ada's automations are read once her account is back, with a key made before.
    let key = app.jobs_key(&token).await;
    let users = format!("/api/v1/users/{ada}");
    let admin_says = |action: &'static str| {
        let path = format!("{users}/{action}");
        let (app, admin) = (&app, &admin);
        async move {
            app.expect(StatusCode::OK, Method::POST, &path, Some(admin), None)
                .await
        }
    };
    admin_says("deactivate").await;
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

    admin_says("activate").await;
    let token = key;
    for made in [&every_second, &hook] {
        let id = made["id"].as_str().unwrap();
        let now = app
            .expect(
                StatusCode::OK,
                Method::GET,
                &format!("{AUTOMATIONS}/{id}"),
                Some(&token),
                None,
            )
            .await;
        assert_eq!(
            (&now["enabled"], &now["next_fire"]),
            (&json!(false), &Value::Null),
            "{now}"
        );
        let why = now["paused_reason"].as_str().unwrap_or_default();
        assert!(why.contains("account was deactivated"), "{now}");
        let history = runs(&app, &token, id).await;
        assert!(
            history
                .iter()
                .any(|r| r["trigger"] == "paused" && r["note"] == why),
            "{history:#?}"
        );
    }
    // Nothing of Ada's ran while she was away; one fire may have raced the pause.
    let history = runs(&app, &token, every_second["id"].as_str().unwrap()).await;
    let off = history.iter().position(|r| r["trigger"] == "paused").unwrap();
    for run in &history[..off] {
        assert_eq!(run["job_id"], Value::Null, "after the pause: {run}");
    }
}

/// Revoking an API key pauses the automations made with it, and only those.
#[tokio::test]
async fn revoking_a_key_pauses_the_automations_made_with_it() {
    let llm = FakeLlm::start(vec![]).await;
    let app = backend(&llm, &[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let key = app.jobs_key(&token).await;
    let schedule = || json!({ "type": "schedule", "cron": "0 9 * * MON" });
    let by_key = create(
        &app,
        &key,
        json!({ "name": "Scripted", "prompt": "Hi", "triggers": [schedule()] }),
    )
    .await;
    let by_hand = create(
        &app,
        &token,
        json!({ "name": "Mine", "prompt": "Hi", "triggers": [schedule()] }),
    )
    .await;
    let keys = app
        .expect(
            StatusCode::OK,
            Method::GET,
            "/api/v1/api-keys",
            Some(&token),
            None,
        )
        .await;
    let key_id = keys[0]["id"].as_str().unwrap();
    app.expect(
        StatusCode::NO_CONTENT,
        Method::DELETE,
        &format!("/api/v1/api-keys/{key_id}"),
        Some(&token),
        None,
    )
    .await;
    let read = |made: &Value| {
        let path = format!("{AUTOMATIONS}/{}", made["id"].as_str().unwrap());
        let token = token.clone();
        let app = &app;
        async move {
            app.expect(StatusCode::OK, Method::GET, &path, Some(&token), None)
                .await
        }
    };
    let paused = read(&by_key).await;
    assert_eq!(paused["enabled"], false, "{paused}");
    assert!(
        paused["paused_reason"]
            .as_str()
            .unwrap()
            .contains("API key it was made with (script) was revoked"),
        "{paused}"
    );
    let kept = read(&by_hand).await;
    assert_eq!(
        (&kept["enabled"], &kept["paused_reason"]),
        (&json!(true), &Value::Null),
        "{kept}"
    );
    assert!(kept["next_fire"].is_string(), "{kept}");
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
