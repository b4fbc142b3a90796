//! Automations against the real server, its stores and the scripted model: a cron
//! schedule with seconds fires on time and each run is a job; a signed webhook runs
//! once, a replay, a bad or missing signature, an oversized body and a filter that does
//! not match run nothing; failures in a row pause the automation; missed times run once
//! or are skipped after a restart; a persistent automation's second run sees the first
//! run's file in a real sandbox; two replicas (processes, shared stores) fire each due
//! time once, each of them firing, while one is killed; and bad input (422 naming the
//! field, 404 for another person's automation). Waits poll with deadlines; nothing
//! asserts a duration.

use std::time::{Duration, Instant};

use hmac::{Hmac, KeyInit, Mac};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use sha2::Sha256;

use crate::support::fake_llm::{FakeLlm, Reply};
use crate::support::manager::Manager;
use crate::support::process::BackendProcess;
use crate::support::servers::ServerProcess;
use crate::support::{borrowed, TestApp};

mod failures;
mod limits;
mod preview;
mod records;

const AUTOMATIONS: &str = "/api/v1/automations";
/// How long a fire or a run may take to show (a sandbox's first start included).
const WAIT: Duration = Duration::from_secs(120);

/// What lets the tests' schedules fire every second or two (60 s is the default's
/// shortest gap).
const FAST_SCHEDULES: (&str, &str) = ("automations.min_interval_secs", "1");

async fn backend(llm: &FakeLlm, extra: &[(&'static str, String)]) -> TestApp {
    let mut settings = llm.settings();
    settings.push((FAST_SCHEDULES.0, FAST_SCHEDULES.1.into()));
    settings.extend_from_slice(extra);
    TestApp::spawn(&borrowed(&settings)).await
}

async fn create(app: &TestApp, token: &str, body: Value) -> Value {
    app.expect(
        StatusCode::CREATED,
        Method::POST,
        AUTOMATIONS,
        Some(token),
        Some(body),
    )
    .await
}

async fn runs(app: &TestApp, token: &str, id: &str) -> Vec<Value> {
    let path = format!("{AUTOMATIONS}/{id}/runs?limit=100");
    let list = app
        .expect(StatusCode::OK, Method::GET, &path, Some(token), None)
        .await;
    list["runs"].as_array().unwrap().clone()
}

/// Polls the history until `done` holds for it; fails after [`WAIT`].
async fn until_runs(app: &TestApp, token: &str, id: &str, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let deadline = Instant::now() + WAIT;
    loop {
        let history = runs(app, token, id).await;
        if done(&history) {
            return history;
        }
        assert!(
            Instant::now() < deadline,
            "the history never got there: {history:#?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn sign(secret: &str, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(body);
    let hex: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256={hex}")
}

async fn deliver(app: &TestApp, url: &str, body: &[u8], headers: &[(&str, String)]) -> (StatusCode, Value) {
    let mut request = app.http.post(format!("{}{url}", app.base)).body(body.to_vec());
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

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
    let job = app.job(&token, fired[0]["job_id"].as_str().unwrap()).await;
    assert_eq!(job["status"], "succeeded");
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
    let edited = app
        .expect(
            StatusCode::OK,
            Method::PATCH,
            &format!("{AUTOMATIONS}/{id}"),
            Some(&token),
            Some(json!({ "enabled": false })),
        )
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

fn fired_at(run: &Value) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339(run["fired_at"].as_str().unwrap())
        .unwrap()
        .into()
}

#[tokio::test]
async fn a_signed_webhook_runs_once_and_bad_deliveries_run_nothing() {
    let llm = FakeLlm::start(vec![]).await;
    let app = backend(&llm, &[("automations.max_webhook_bytes", "2048".into())]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let created = create(
        &app,
        &token,
        json!({ "name": "PR review", "prompt": "Review {{ body.repository.name }}",
                "triggers": [{ "type": "webhook", "filter": "body.action == \"opened\"" }] }),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let trigger = &created["triggers"][0];
    let (url, secret) = (
        trigger["url"].as_str().unwrap(),
        trigger["secret"].as_str().unwrap(),
    );
    assert!(url.starts_with("/api/v1/hooks/"), "{trigger}");
    // The secret is shown once.
    let again = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("{AUTOMATIONS}/{id}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(again["triggers"][0]["secret"], Value::Null);

    let body = br#"{"action":"opened","repository":{"name":"sandpiper"}}"#;
    let wrong = sign("not-the-secret", body);
    for headers in [
        vec![],
        vec![("X-Sandpiper-Signature", wrong.clone())],
        vec![("X-Hub-Signature-256", wrong)],
    ] {
        let (status, answer) = deliver(&app, url, body, &headers).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{answer}");
    }
    // Signed right, but another body than the one signed.
    let signature = sign(secret, body);
    let (status, _) = deliver(&app, url, b"{}", &[("X-Sandpiper-Signature", signature.clone())]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let big = vec![b' '; 4096];
    let (status, _) = deliver(&app, url, &big, &[("X-Sandpiper-Signature", sign(secret, &big))]).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let closed = br#"{"action":"closed","repository":{"name":"sandpiper"}}"#;
    let (status, answer) = deliver(
        &app,
        url,
        closed,
        &[("X-Hub-Signature-256", sign(secret, closed))],
    )
    .await;
    assert_eq!(
        (status, answer["job_id"].clone()),
        (StatusCode::OK, Value::Null),
        "{answer}"
    );
    assert!(runs(&app, &token, id).await.is_empty(), "nothing ran so far");

    let headers = [
        ("X-Sandpiper-Signature", signature.clone()),
        ("Idempotency-Key", "delivery-1".to_owned()),
    ];
    let (status, first) = deliver(&app, url, body, &headers).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{first}");
    let job = first["job_id"].as_str().unwrap();
    let (status, replay) = deliver(&app, url, body, &headers).await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    assert_eq!(
        (replay["job_id"].as_str(), replay["repeated"].as_bool()),
        (Some(job), Some(true))
    );
    app.until_job(&token, job, "succeeded").await;
    let history = runs(&app, &token, id).await;
    assert_eq!(history.len(), 1, "{history:#?}");
    assert_eq!(history[0]["trigger"], "webhook");
    let asked = llm
        .requests()
        .iter()
        .map(|r| r.to_string())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(asked.contains("Review sandpiper"), "{asked}");

    // A rotated secret replaces the old one.
    let rotate = format!(
        "{AUTOMATIONS}/{id}/triggers/{}/rotate",
        trigger["id"].as_str().unwrap()
    );
    let rotated = app
        .expect(StatusCode::OK, Method::POST, &rotate, Some(&token), None)
        .await;
    let (status, _) = deliver(&app, url, body, &[("X-Sandpiper-Signature", signature)]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let fresh = sign(rotated["secret"].as_str().unwrap(), body);
    let (status, _) = deliver(&app, url, body, &[("X-Sandpiper-Signature", fresh)]).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    // A trigger's key expression names a delivery sent without the header.
    let keyed = create(
        &app,
        &token,
        json!({ "name": "Keyed", "prompt": "Once per id",
                "triggers": [{ "type": "webhook", "key": "body.id" }] }),
    )
    .await;
    let (url, secret) = (
        keyed["triggers"][0]["url"].as_str().unwrap(),
        keyed["triggers"][0]["secret"].as_str().unwrap(),
    );
    let delivery = br#"{"id":"d-7"}"#;
    let signed_delivery = [("X-Hub-Signature-256", sign(secret, delivery))];
    let (status, first) = deliver(&app, url, delivery, &signed_delivery).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{first}");
    let (status, again) = deliver(&app, url, delivery, &signed_delivery).await;
    assert_eq!(
        (status, again["job_id"].clone()),
        (StatusCode::OK, first["job_id"].clone()),
        "{again}"
    );
    assert_eq!(runs(&app, &token, keyed["id"].as_str().unwrap()).await.len(), 1);
    // An unknown hook is simply not found.
    let (status, _) = deliver(
        &app,
        "/api/v1/hooks/7b0c5c4e-8a39-4d5e-9d7e-3d2f1a0b9c8d",
        body,
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn failures_in_a_row_pause_the_automation_and_say_why() {
    // The provider refuses every request outright (no retry on a 400).
    let llm = FakeLlm::start((0..8).map(|_| Reply::Status(400)).collect()).await;
    let app = backend(&llm, &[("automations.max_failures", "2".into())]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let created = create(
        &app,
        &token,
        json!({ "name": "Doomed", "prompt": "Try", "triggers": [{ "type": "schedule", "cron": "0 9 * * MON" }] }),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let run = format!("{AUTOMATIONS}/{id}/run");
    for _ in 0..2 {
        let started = app
            .expect(StatusCode::ACCEPTED, Method::POST, &run, Some(&token), None)
            .await;
        app.until_job(&token, started["job_id"].as_str().unwrap(), "failed")
            .await;
    }
    let history = until_runs(&app, &token, id, |runs| {
        runs.first().is_some_and(|r| r["status"] == "paused")
    })
    .await;
    assert!(
        history[0]["note"]
            .as_str()
            .unwrap()
            .contains("paused after 2 failed runs"),
        "{history:#?}"
    );
    let paused = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("{AUTOMATIONS}/{id}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(
        (paused["enabled"].clone(), paused["next_fire"].clone()),
        (json!(false), Value::Null)
    );
    assert!(paused["paused_reason"].is_string(), "{paused}");
    // Enabling it again clears the count and the reason.
    let enabled = app
        .expect(
            StatusCode::OK,
            Method::PATCH,
            &format!("{AUTOMATIONS}/{id}"),
            Some(&token),
            Some(json!({ "enabled": true })),
        )
        .await;
    assert_eq!(
        (enabled["failures"].clone(), enabled["paused_reason"].clone()),
        (json!(0), Value::Null)
    );
    assert!(enabled["next_fire"].is_string());
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
async fn bad_input_names_the_field_and_another_persons_automation_is_not_found() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let schedule = |cron: &str, zone: &str| json!([{ "type": "schedule", "cron": cron, "timezone": zone }]);
    let long = "x".repeat(101 * 1024);
    for (triggers, prompt, field) in [
        (schedule("61 * * * *", "UTC"), "x", "cron"),
        (schedule("* * *", "UTC"), "x", "cron"),
        (schedule("0 9 * * *", "Mars/Olympus"), "x", "timezone"),
        (json!([{ "type": "at", "at": "next tuesday" }]), "x", "at"),
        (json!([{ "type": "at", "at": "2020-01-01T09:00:00Z" }]), "x", "at"),
        (schedule("0 9 * * *", "UTC"), long.as_str(), "prompt"),
        (
            json!([{ "type": "webhook", "filter": "body.action ==" }]),
            "x",
            "filter",
        ),
        (json!([{ "type": "webhook", "key": "body.id ==" }]), "x", "key"),
        (json!([]), "x", "triggers"),
        (schedule("0 9 * * *", "UTC"), "{{ body.x ", "prompt"),
    ] {
        let body = json!({ "name": "n", "prompt": prompt, "triggers": triggers });
        let refused = app
            .expect(
                StatusCode::UNPROCESSABLE_ENTITY,
                Method::POST,
                AUTOMATIONS,
                Some(&token),
                Some(body),
            )
            .await;
        assert_eq!(refused["error"]["field"], field, "{refused}");
    }
    let late =
        json!({ "name": "n", "prompt": "x", "timeout_secs": 5, "triggers": schedule("0 9 * * *", "UTC") });
    let refused = app
        .expect(
            StatusCode::UNPROCESSABLE_ENTITY,
            Method::POST,
            AUTOMATIONS,
            Some(&token),
            Some(late),
        )
        .await;
    assert_eq!(refused["error"]["field"], "timeout_secs", "{refused}");
    let created = create(
        &app,
        &token,
        json!({ "name": "Mine", "prompt": "x", "triggers": [{ "type": "schedule", "cron": "0 9 * * *" }] }),
    )
    .await;
    let mine = format!("{AUTOMATIONS}/{}", created["id"].as_str().unwrap());
    // A `jobs` key of its owner may manage it; another person may not see it at all.
    let key = app.jobs_key(&token).await;
    app.expect(StatusCode::OK, Method::GET, &mine, Some(&key), None)
        .await;
    let (other, _, _) = app.register("eve@example.org").await;
    for (method, path) in [
        (Method::GET, mine.clone()),
        (Method::PATCH, mine.clone()),
        (Method::DELETE, mine.clone()),
        (Method::POST, format!("{mine}/run")),
        (Method::GET, format!("{mine}/runs")),
    ] {
        let body = (method == Method::PATCH).then(|| json!({ "enabled": false }));
        app.expect(StatusCode::NOT_FOUND, method, &path, Some(&other), body)
            .await;
    }
    let listed = app
        .expect(StatusCode::OK, Method::GET, AUTOMATIONS, Some(&other), None)
        .await;
    assert_eq!(listed["automations"], json!([]));
    app.expect(
        StatusCode::NOT_FOUND,
        Method::GET,
        &format!("{AUTOMATIONS}/not-an-id"),
        Some(&token),
        None,
    )
    .await;
    app.expect(StatusCode::NO_CONTENT, Method::DELETE, &mine, Some(&key), None)
        .await;
    app.expect(StatusCode::NOT_FOUND, Method::GET, &mine, Some(&token), None)
        .await;
}

#[tokio::test]
async fn a_persistent_automations_second_run_sees_the_first_runs_file() {
    let llm = FakeLlm::start(vec![
        Reply::tool(
            "file_write",
            json!({ "path": "notes.txt", "content": "from run one\n" }),
        ),
        Reply::Text("Wrote it."),
        Reply::tool("shell_exec", json!({ "command": "cat notes.txt" })),
        Reply::Text("Read it."),
    ])
    .await;
    let manager = Manager::start();
    let app = backend(&llm, &manager.settings()).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let created = create(
        &app,
        &token,
        json!({ "name": "Diary", "prompt": "Keep notes", "session": "persistent", "network": "offline",
                "triggers": [{ "type": "schedule", "cron": "0 9 * * MON" }] }),
    )
    .await;
    let run = format!("{AUTOMATIONS}/{}/run", created["id"].as_str().unwrap());
    let (mut sessions, mut files) = (Vec::new(), Vec::new());
    for _ in 0..2 {
        let started = app
            .expect(StatusCode::ACCEPTED, Method::POST, &run, Some(&token), None)
            .await;
        let job = app
            .until_job(&token, started["job_id"].as_str().unwrap(), "succeeded")
            .await;
        sessions.push(job["session_id"].clone());
        files.push(job["files"].clone());
    }
    assert_eq!(sessions[0], sessions[1], "both runs continue one session");
    // Each run's result is its own: the second wrote nothing.
    assert_eq!(files, [json!(["notes.txt"]), json!([])], "{files:?}");
    let read = llm.last_message_text(3);
    assert!(read.contains("from run one"), "the second run read: {read}");
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

#[tokio::test]
async fn the_agent_makes_an_automation_for_its_person_shown_as_a_tool_line() {
    let standup = |cron: &str| json!({ "name": "Standup", "prompt": "Remind me of the standup", "cron": cron, "timezone": "Europe/Berlin" });
    let llm = FakeLlm::start(vec![
        Reply::tool("automation_create", standup("0 25 * * MON")),
        Reply::tool("automation_create", standup("0 9 * * MON")),
        Reply::Text("Done: every Monday at 9."),
    ])
    .await;
    let app = backend(&llm, &[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let session = app.new_session(&token).await;
    let events = app
        .turn(&token, &session, "Remind me of the standup every Monday at 9")
        .await;
    let lines: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "tool" && e["status"] == "called" && e["name"] == "automation_create")
        .collect();
    assert_eq!(lines.len(), 2, "{events:#?}");
    // The bad cron is the model's to read and fix; nothing was made of it.
    let refused = llm.last_message_text(1);
    assert!(
        refused.contains("not made") && refused.contains("cron"),
        "{refused}"
    );
    let listed = app
        .expect(StatusCode::OK, Method::GET, AUTOMATIONS, Some(&token), None)
        .await;
    let automations = listed["automations"].as_array().unwrap();
    assert_eq!(automations.len(), 1, "{listed}");
    assert_eq!(automations[0]["name"], "Standup");
    assert_eq!(automations[0]["triggers"][0]["cron"], "0 9 * * MON");
    assert_eq!(automations[0]["triggers"][0]["timezone"], "Europe/Berlin");
    assert!(automations[0]["next_fire"].is_string(), "{listed}");
    let made = llm.last_message_text(2);
    assert!(made.contains("Made the automation \"Standup\""), "{made}");
}
