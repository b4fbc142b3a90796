//! When automations fire: a schedule with seconds on time, each fire a job; a time
//! missed while no replica ran, run once or skipped; two replicas firing each due time
//! once while one is killed.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::{backend, create, fired_at, runs, until_runs, AUTOMATIONS, FAST_SCHEDULES};
use crate::support::fake_llm::FakeLlm;
use crate::support::process::BackendProcess;
use crate::support::servers::ServerProcess;
use crate::support::{borrowed, TestApp};

#[tokio::test]
async fn a_schedule_with_seconds_fires_on_time_and_each_run_is_a_job() {
    let llm = FakeLlm::start(vec![]).await;
    let app = backend(&llm, &[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let created = create(
        &app,
        &token,
        json!({ "name": "Tick", "prompt": "Fired by {{ trigger }} at {{ fired_at }}",
                "triggers": [{ "type": "schedule", "cron": "*/2 * * * * *", "timezone": "Europe/Berlin" }] }),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let next: Vec<&str> = created["next_runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert_eq!(next.len(), 5, "{created}");
    assert!(next.windows(2).all(|w| w[0] < w[1]), "{next:?}");

    let history = until_runs(&app, &token, id, |runs| {
        runs.iter().filter(|r| r["status"] == "succeeded").count() >= 2
    })
    .await;
    let fired: Vec<&Value> = history.iter().filter(|r| r["job_id"].is_string()).collect();
    for run in &fired {
        assert_eq!(run["trigger"], "schedule", "{run}");
        let at = chrono::DateTime::parse_from_rfc3339(run["fired_at"].as_str().unwrap()).unwrap();
        assert_eq!(at.timestamp() % 2, 0, "a due time of */2: {run}");
    }
    // A run that succeeded is a job that did (a newer one may still be running).
    let succeeded = fired
        .iter()
        .find(|run| run["status"] == "succeeded")
        .expect("a run that succeeded has its job");
    let job = app.job(&token, succeeded["job_id"].as_str().unwrap()).await;
    assert_eq!(job["status"], "succeeded", "{succeeded}");
    let prompts: Vec<String> = llm
        .requests()
        .iter()
        .filter_map(|r| {
            r["messages"]
                .as_array()?
                .iter()
                .find(|m| m["role"] == "user")
                .cloned()
        })
        .map(|m| m["content"].to_string())
        .collect();
    assert!(
        prompts.iter().any(|p| p.contains("Fired by schedule at 20")),
        "{prompts:?}"
    );

    // Disabled, it fires no more: once a witness firing every second has fired two
    // seconds past the change (so the scheduler's rounds went past this one's next due
    // time), this one's history holds no time after it.
    let disabled_at = chrono::Utc::now();
    // Neither a fire nor a run's end between the edit's read and its write stops it (the
    // unit tests in application/automations/tests/races.rs make both happen there): it
    // lands at the first try, however often this one fires.
    let one = format!("{AUTOMATIONS}/{id}");
    let disable = Some(json!({ "enabled": false }));
    let edited = app
        .expect(StatusCode::OK, Method::PATCH, &one, Some(&token), disable)
        .await;
    assert_eq!(edited["next_fire"], Value::Null);
    let listed = app
        .expect(StatusCode::OK, Method::GET, AUTOMATIONS, Some(&token), None)
        .await;
    assert_eq!(listed["automations"][0]["enabled"], false);
    assert!(
        listed["automations"][0]["last_run"]["status"].is_string(),
        "{listed}"
    );
    let witness = create(
        &app,
        &token,
        json!({ "name": "Witness", "prompt": "Tock", "triggers": [{ "type": "schedule", "cron": "* * * * * *" }] }),
    )
    .await;
    let past = disabled_at + chrono::Duration::seconds(2);
    until_runs(&app, &token, witness["id"].as_str().unwrap(), |runs| {
        runs.iter().any(|r| fired_at(r) > past)
    })
    .await;
    let after: Vec<Value> = runs(&app, &token, id)
        .await
        .into_iter()
        .filter(|r| fired_at(r) > disabled_at)
        .collect();
    assert!(after.is_empty(), "it fired while disabled: {after:#?}");
}

#[tokio::test]
async fn a_missed_time_runs_once_on_recovery_or_is_skipped_as_told() {
    let llm = FakeLlm::start(vec![]).await;
    let mut settings = llm.settings();
    settings.push(("automations.missed_after_secs", "1".into()));
    let mut app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    // A key outlives the restart (an access token's signing secret may not).
    let token = app.jobs_key(&token).await;
    // Far enough ahead that making both and stopping the replica is done before it,
    // however loaded the machine; checked below rather than assumed.
    let at = (chrono::Utc::now() + chrono::Duration::seconds(20)).to_rfc3339();
    let mut ids = Vec::new();
    for policy in ["run_once", "skip"] {
        let created = create(
            &app,
            &token,
            json!({ "name": policy, "prompt": "Catch up", "missed_runs": policy, "triggers": [{ "type": "at", "at": at }] }),
        )
        .await;
        ids.push(created["id"].as_str().unwrap().to_owned());
    }
    let data = app.take_data().unwrap();
    app.stop().await;
    let at_time = chrono::DateTime::parse_from_rfc3339(&at).unwrap();
    assert!(
        chrono::Utc::now() < at_time,
        "the replica was stopped only after the time: the test cannot show a missed run"
    );
    // No replica runs at the time; one starts well after it.
    while chrono::Utc::now() < at_time + chrono::Duration::seconds(3) {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let app = TestApp::spawn_on(data.path(), &borrowed(&settings)).await;
    let caught_up = until_runs(&app, &token, &ids[0], |runs| !runs.is_empty()).await;
    assert!(caught_up[0]["job_id"].is_string(), "{caught_up:#?}");
    assert!(caught_up[0]["note"]
        .as_str()
        .unwrap()
        .contains("run once on recovery"));
    let skipped = until_runs(&app, &token, &ids[1], |runs| !runs.is_empty()).await;
    assert_eq!(skipped[0]["status"], "skipped", "{skipped:#?}");
    assert!(skipped[0]["note"]
        .as_str()
        .unwrap()
        .starts_with("skipped: missed at"));
    // A one-shot time has no next fire after it fired.
    let done = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("{AUTOMATIONS}/{}", ids[0]),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(done["next_fire"], Value::Null);
}

#[tokio::test]
async fn two_replicas_fire_each_due_time_once_while_one_is_killed() {
    let (mongodb, redis) = (ServerProcess::mongodb(), ServerProcess::redis());
    let llm = FakeLlm::start(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let mut settings = llm.settings();
    settings.extend([
        ("mongodb_uri", mongodb.mongodb_uri()),
        ("redis_url", redis.redis_url()),
        ("automations.poll_secs", "1".into()),
        ("automations.max_failures", "1000".into()),
        (FAST_SCHEDULES.0, FAST_SCHEDULES.1.into()),
        ("jobs.max_queued_per_person", "100".into()),
    ]);
    let overrides = borrowed(&settings);
    // B runs alone first, so what fires then is B's; then A joins; after B is killed
    // what fires is A's. Each due time fires at most once throughout.
    let mut b = BackendProcess::start(dir.path(), &overrides).await;
    let only_b = TestApp::client_of(&b.base);
    let (token, _, _) = only_b.register("ada@example.org").await;
    let created = create(
        &only_b,
        &token,
        json!({ "name": "Every second", "prompt": "Tick",
                "triggers": [{ "type": "schedule", "cron": "* * * * * *" }] }),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let by_b = until_runs(&only_b, &token, id, |runs| runs.len() >= 3).await;
    let a = BackendProcess::start(dir.path(), &overrides).await;
    let app = TestApp::client_of(&a.base);
    until_runs(&app, &token, id, |runs| runs.len() >= by_b.len() + 5).await;
    b.kill();
    let killed_at = chrono::Utc::now();
    let history = until_runs(&app, &token, id, |runs| {
        runs.iter().filter(|r| fired_at(r) > killed_at).count() >= 3
    })
    .await;
    let mut fired: Vec<i64> = history.iter().map(|r| fired_at(r).timestamp()).collect();
    fired.sort_unstable();
    let distinct = fired.windows(2).all(|w| w[0] < w[1]);
    assert!(distinct, "a due time fired twice: {fired:?}");
}
