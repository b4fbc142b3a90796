//! Automations against the real server, its stores and the scripted model: failures in
//! a row pause the automation; bad input is 422 naming the field, another person's
//! automation 404; a persistent automation's second run sees the first run's file in a
//! real sandbox; the agent makes one for its person. Waits poll with deadlines; nothing
//! asserts a duration.
//!
//! # Layout
//! `scheduling.rs` (fires on time, missed times, two replicas), `edits.rs` (saved again
//! unchanged, as the editor saves), `webhooks.rs` (signed
//! deliveries), `failures.rs` (fires that make no job), `notify.rs` (the automation's own webhook), `files.rs` (the files each run gets), `limits.rs` (queue, cap, owner,
//! one run at a time), `preview.rs` (the editor's next runs), `records.rs` (both stores
//! directly).

use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::fake_llm::{FakeLlm, Reply};
use crate::support::manager::Manager;
use crate::support::{borrowed, TestApp};

mod edits;
mod failures;
mod files;
mod limits;
mod notify;
mod preview;
mod records;
mod scheduling;
mod webhooks;

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

async fn deliver(app: &TestApp, url: &str, body: &[u8], headers: &[(&str, String)]) -> (StatusCode, Value) {
    let mut request = app.http.post(format!("{}{url}", app.base)).body(body.to_vec());
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

fn fired_at(run: &Value) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339(run["fired_at"].as_str().unwrap())
        .unwrap()
        .into()
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
    assert_eq!(lines[0]["view"]["kind"], "error", "{:#?}", lines[0]);
    // The made one's line shows it by its typed view, its call typed too.
    let made_view = &lines[1]["view"];
    assert_eq!(made_view["kind"], "automation", "{:#?}", lines[1]);
    assert_eq!(made_view["name"], "Standup");
    assert_eq!(
        made_view["next_runs"].as_array().map(Vec::len),
        Some(3),
        "{made_view}"
    );
    assert_eq!(lines[1]["args"]["cron"], "0 9 * * MON");
    assert!(lines[1].get("written").is_none(), "{:#?}", lines[1]);
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
