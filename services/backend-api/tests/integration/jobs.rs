//! Headless jobs against the real server and a scripted model: a job that writes a file
//! in a real sandbox (its answer, files and zip), run with a `jobs` API key that may do
//! nothing else and is charged the job's tokens; cancel mid-run; a job that asks and is answered; the queue in order, also
//! across a restart; a full queue refusing more (429 with `Retry-After`); the time limit; a webhook on waiting and on the end, signed and
//! retried; attachments the run reads; and bad input.
//!
//! The first test needs the Docker engine and the sandbox-manager binary (see
//! `agent_sandbox`); the others need no sandbox, since their runs call no sandbox tool.

use std::io::Read;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::HeaderMap;
use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use reqwest::{Method, StatusCode};
use sandbox_manager_client::contract::{ListQuery, NetworkMode};
use serde_json::{json, Value};

use crate::support::fake_llm::{FakeLlm, Reply};
use crate::support::manager::Manager;
use crate::support::{borrowed, TestApp};

const JOBS: &str = "/api/v1/jobs";

/// How long a job may take to get somewhere (the first sandbox starts a container).
const WAIT: Duration = Duration::from_secs(120);

async fn backend(llm: &FakeLlm, extra: &[(&'static str, String)]) -> TestApp {
    let mut settings = llm.settings();
    settings.extend_from_slice(extra);
    TestApp::spawn(&borrowed(&settings)).await
}

/// A `jobs` API key of a new account, and the account's access token.
async fn jobs_key(app: &TestApp, email: &str) -> (String, String) {
    let (token, _, _) = app.register(email).await;
    (app.jobs_key(&token).await, token)
}

#[tokio::test]
async fn a_job_writes_a_file_in_a_sandbox_and_its_result_holds_it() {
    let llm = FakeLlm::start(vec![
        Reply::tool(
            "file_write",
            json!({ "path": "fib.py", "content": "print([0, 1, 1, 2, 3, 5])\n" }),
        ),
        // Files made by a command count too; hidden ones (caches, tool state) do not.
        Reply::tool(
            "shell_exec",
            json!({ "command": "mkdir -p out .cache && python3 fib.py > out/fib.txt && touch .cache/junk" }),
        ),
        Reply::Text("Wrote fib.py."),
    ])
    .await;
    let manager = Manager::start();
    let app = backend(&llm, &manager.settings()).await;
    let (key, token) = jobs_key(&app, "ada@example.org").await;

    let created = app
        .create_job(
            &key,
            json!({ "prompt": "Write fib.py", "title": "Fibonacci", "network": "offline" }),
        )
        .await;
    assert!(
        ["queued", "running"].contains(&created["status"].as_str().unwrap()),
        "{created}"
    );
    let id = created["id"].as_str().unwrap();
    let done = app.until_job(&key, id, "succeeded").await;
    assert_eq!(done["answer"], "Wrote fib.py.");
    assert_eq!(done["files"], json!(["fib.py", "out/fib.txt"]), "{done}");
    assert_eq!(done["files_truncated"], false);
    assert_eq!(done["network"], "offline");
    // The scripted model reports 100 prompt and 20 completion tokens per request; the
    // job's three requests are added to the key it was made with.
    assert_eq!(
        done["usage"],
        json!({ "prompt_tokens": 300, "completion_tokens": 60 }),
        "{done}"
    );
    app.until_key_tokens(&token, &done["usage"]).await;
    assert!(
        done["started_at"].is_string() && done["finished_at"].is_string(),
        "{done}"
    );
    assert!(done["error"].is_null());
    // Its sandbox was made with the network the job asked for (the manager's default is
    // the internet).
    let query = ListQuery {
        session_id: created["session_id"].as_str().map(str::to_owned),
        ..Default::default()
    };
    let sandboxes = manager.client().list(&query).await.unwrap();
    assert_eq!(sandboxes[0].network, NetworkMode::Offline);

    // The job is a session in the person's list.
    let sessions = app
        .expect(
            StatusCode::OK,
            Method::GET,
            "/api/v1/sessions",
            Some(&token),
            None,
        )
        .await;
    let session = &sessions["sessions"][0];
    assert_eq!(session["id"], created["session_id"]);
    assert_eq!(session["title"], "Fibonacci");

    // The workspace as a zip, with the file.
    let zip = app
        .call(Method::GET, &format!("{JOBS}/{id}/result"), Some(&key), None)
        .await;
    assert_eq!(zip.status(), StatusCode::OK);
    let bytes = zip.bytes().await.unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let names: Vec<String> = archive.file_names().map(|n| n.unwrap().into_owned()).collect();
    let name = names
        .iter()
        .find(|n| n.ends_with("fib.py"))
        .unwrap_or_else(|| panic!("fib.py is in the zip: {names:?}"));
    let mut script = String::new();
    archive
        .by_name(name)
        .unwrap()
        .read_to_string(&mut script)
        .unwrap();
    assert_eq!(script, "print([0, 1, 1, 2, 3, 5])\n");

    // The events are the session's, replayed from the start.
    let mut events = app
        .call(Method::GET, &format!("{JOBS}/{id}/events"), Some(&key), None)
        .await;
    assert_eq!(events.status(), StatusCode::OK);
    let first = events.chunk().await.unwrap().unwrap();
    let first = String::from_utf8_lossy(&first);
    assert!(first.contains("Write fib.py"), "{first}");

    // The key is for jobs only.
    let sessions = app.call(Method::GET, "/api/v1/sessions", Some(&key), None).await;
    assert_eq!(sessions.status(), StatusCode::FORBIDDEN);
}

/// An offline job's network holds for every sandbox its session ever gets: each time the
/// manager removes it (as its idle time limit does), the one a file request, the result
/// zip or the agent's next tool call makes is offline too (the manager's default is the
/// internet).
#[tokio::test]
async fn every_sandbox_of_an_offline_job_is_offline() {
    let llm = FakeLlm::start(vec![
        Reply::tool("file_write", json!({ "path": "a.txt", "content": "a\n" })),
        Reply::Text("Wrote a.txt."),
        Reply::tool("shell_exec", json!({ "command": "echo again > b.txt" })),
        Reply::Text("Wrote b.txt."),
    ])
    .await;
    let manager = Manager::start();
    let app = backend(&llm, &manager.settings()).await;
    let (key, token) = jobs_key(&app, "ada@example.org").await;
    let created = app
        .create_job(&key, json!({ "prompt": "Write a.txt", "network": "offline" }))
        .await;
    let id = created["id"].as_str().unwrap();
    let session = created["session_id"].as_str().unwrap();
    app.until_job(&key, id, "succeeded").await;
    assert_eq!(manager.network_label_of(session), "offline");

    // A file request.
    manager.remove_sandbox_of(session).await;
    app.expect(
        StatusCode::OK,
        Method::GET,
        &format!("/api/v1/sessions/{session}/files?path=."),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(manager.network_label_of(session), "offline");

    // The job's result.
    manager.remove_sandbox_of(session).await;
    let zip = app
        .call(Method::GET, &format!("{JOBS}/{id}/result"), Some(&key), None)
        .await;
    assert_eq!(zip.status(), StatusCode::OK);
    assert_eq!(manager.network_label_of(session), "offline");

    // The agent's next tool call, in a turn the person asks for in the job's session.
    manager.remove_sandbox_of(session).await;
    let events = app.turn(&token, session, "Write b.txt").await;
    assert_eq!(events.last().unwrap()["status"], "completed", "{events:#?}");
    assert_eq!(manager.network_label_of(session), "offline");
}

#[tokio::test]
async fn a_cancelled_job_stops_its_run() {
    let llm = FakeLlm::start(vec![Reply::Hang]).await;
    let app = backend(&llm, &[]).await;
    let (key, token) = jobs_key(&app, "ada@example.org").await;
    let created = app.create_job(&key, json!({ "prompt": "Think forever" })).await;
    let id = created["id"].as_str().unwrap();
    app.until_job(&key, id, "running").await;
    // The model has been asked: the run is in its request.
    let start = Instant::now();
    while llm.requests().is_empty() {
        assert!(start.elapsed() < WAIT, "the model was never asked");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let cancelled = app
        .expect(
            StatusCode::OK,
            Method::POST,
            &format!("{JOBS}/{id}/cancel"),
            Some(&key),
            None,
        )
        .await;
    assert_eq!(cancelled["status"], "cancelled");
    assert!(cancelled["finished_at"].is_string());
    // No run is left: the session is no longer running, and stays so.
    let session = format!("/api/v1/sessions/{}", created["session_id"].as_str().unwrap());
    let session = app
        .expect(StatusCode::OK, Method::GET, &session, Some(&token), None)
        .await;
    assert_eq!(session["status"], "completed");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.job(&key, id).await["status"], "cancelled");
    app.expect(
        StatusCode::CONFLICT,
        Method::POST,
        &format!("{JOBS}/{id}/cancel"),
        Some(&key),
        None,
    )
    .await;
}

#[tokio::test]
async fn a_waiting_job_goes_on_with_the_reply() {
    let llm = FakeLlm::start(vec![
        Reply::tool("message_ask_user", json!({ "question": "Which language?" })),
        Reply::Text("Done in Rust."),
    ])
    .await;
    let app = backend(&llm, &[]).await;
    let (key, _) = jobs_key(&app, "ada@example.org").await;
    let id = app.create_job(&key, json!({ "prompt": "Write a script" })).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.until_job(&key, &id, "waiting").await;

    let reply = format!("{JOBS}/{id}/reply");
    app.expect(
        StatusCode::CREATED,
        Method::POST,
        &reply,
        Some(&key),
        Some(json!({ "content": "Rust" })),
    )
    .await;
    let done = app.until_job(&key, &id, "succeeded").await;
    assert_eq!(done["answer"], "Done in Rust.");
    assert_eq!(llm.last_message_text(1), "Rust");
    app.expect(
        StatusCode::CONFLICT,
        Method::POST,
        &reply,
        Some(&key),
        Some(json!({ "content": "again" })),
    )
    .await;
}

#[tokio::test]
async fn jobs_beyond_the_limit_queue_in_order_also_across_a_restart() {
    // The first job's answer waits until the second is seen queued behind it.
    let first_answer = Arc::new(tokio::sync::Notify::new());
    let llm = FakeLlm::start(vec![
        Reply::Gated(first_answer.clone(), Box::new(Reply::Text("first"))),
        Reply::Text("second"),
        Reply::tool("message_ask_user", json!({ "question": "Sure?" })),
        Reply::Text("third"),
        Reply::Text("fourth"),
    ])
    .await;
    let limit = [("jobs.max_running_per_person", "1".to_owned())];
    let mut app = backend(&llm, &limit).await;
    let (key, _) = jobs_key(&app, "ada@example.org").await;
    let first = app.create_job(&key, json!({ "prompt": "one" })).await;
    let second = app.create_job(&key, json!({ "prompt": "two" })).await;
    assert_eq!(second["status"], "queued");
    let queued = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("{JOBS}?status=queued"),
            Some(&key),
            None,
        )
        .await;
    assert_eq!(queued["jobs"][0]["id"], second["id"]);
    first_answer.notify_one();

    let first = app
        .until_job(&key, first["id"].as_str().unwrap(), "succeeded")
        .await;
    let second = app
        .until_job(&key, second["id"].as_str().unwrap(), "succeeded")
        .await;
    assert_eq!(first["answer"], "first");
    assert_eq!(second["answer"], "second");
    assert!(
        second["started_at"].as_str() >= first["finished_at"].as_str(),
        "{first} {second}"
    );

    // A queued job is stored, and a waiting one keeps its place: after a restart the
    // waiting one is answered and the queued one starts when it has ended.
    let third = app.create_job(&key, json!({ "prompt": "three" })).await;
    let third = third["id"].as_str().unwrap().to_owned();
    let fourth = app.create_job(&key, json!({ "prompt": "four" })).await;
    assert_eq!(fourth["status"], "queued");
    app.until_job(&key, &third, "waiting").await;
    let data = app.take_data().unwrap();
    app.stop().await;
    let mut settings = llm.settings();
    settings.extend_from_slice(&limit);
    let app = TestApp::spawn_on(data.path(), &borrowed(&settings)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        app.job(&key, fourth["id"].as_str().unwrap()).await["status"],
        "queued"
    );
    app.expect(
        StatusCode::CREATED,
        Method::POST,
        &format!("{JOBS}/{third}/reply"),
        Some(&key),
        Some(json!({ "content": "yes" })),
    )
    .await;
    assert_eq!(app.until_job(&key, &third, "succeeded").await["answer"], "third");
    let fourth = app
        .until_job(&key, fourth["id"].as_str().unwrap(), "succeeded")
        .await;
    assert_eq!(fourth["answer"], "fourth");

    // Pages, newest first.
    let page = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("{JOBS}?limit=3"),
            Some(&key),
            None,
        )
        .await;
    assert_eq!(page["jobs"][0]["id"], fourth["id"]);
    let before = page["next_before"].as_str().unwrap();
    let rest = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("{JOBS}?limit=3&before={before}"),
            Some(&key),
            None,
        )
        .await;
    assert_eq!(rest["jobs"].as_array().unwrap().len(), 1);
    assert_eq!(rest["jobs"][0]["answer"], Value::Null, "the list has no answers");
    assert!(rest["next_before"].is_null());
}

#[tokio::test]
async fn a_full_queue_refuses_more_with_retry_after_until_one_starts() {
    let llm = FakeLlm::start(vec![
        Reply::tool("message_ask_user", json!({ "question": "Sure?" })),
        Reply::Text("done"),
        Reply::Text("done"),
        Reply::Text("done"),
    ])
    .await;
    let limits = [
        ("jobs.max_running_per_person", "1".to_owned()),
        ("jobs.max_queued_per_person", "1".to_owned()),
    ];
    let app = backend(&llm, &limits).await;
    let (key, _) = jobs_key(&app, "ada@example.org").await;
    let first = app.create_job(&key, json!({ "prompt": "one" })).await;
    let first = first["id"].as_str().unwrap();
    app.until_job(&key, first, "waiting").await;
    let second = app.create_job(&key, json!({ "prompt": "two" })).await;
    assert_eq!(second["status"], "queued");

    // Refused before its body is read: a large one costs nothing.
    let attachment = json!([{ "name": "a.bin", "content_base64": BASE64.encode(vec![7u8; 512 * 1024]) }]);
    let refused = app
        .call(
            Method::POST,
            JOBS,
            Some(&key),
            Some(json!({ "prompt": "three", "attachments": attachment })),
        )
        .await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.headers()["retry-after"], "30");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "rate_limited", "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("your job queue is full (1 queued)"),
        "{body}"
    );
    let listed = app
        .expect(StatusCode::OK, Method::GET, JOBS, Some(&key), None)
        .await;
    assert_eq!(
        listed["jobs"].as_array().unwrap().len(),
        2,
        "nothing made: {listed}"
    );

    // Another person's queue is their own.
    let (other, _) = jobs_key(&app, "bob@example.org").await;
    app.create_job(&other, json!({ "prompt": "bob's" })).await;

    // Once the queued job starts there is room again.
    app.expect(
        StatusCode::OK,
        Method::POST,
        &format!("{JOBS}/{first}/cancel"),
        Some(&key),
        None,
    )
    .await;
    app.until_job(&key, second["id"].as_str().unwrap(), "succeeded")
        .await;
    app.create_job(&key, json!({ "prompt": "three" })).await;
}

#[tokio::test]
async fn a_job_past_its_time_limit_fails_and_its_run_stops() {
    let llm = FakeLlm::start(vec![Reply::Hang]).await;
    let app = backend(&llm, &[]).await;
    let (key, token) = jobs_key(&app, "ada@example.org").await;
    let created = app
        .create_job(&key, json!({ "prompt": "Think forever", "timeout_secs": 10 }))
        .await;
    let failed = app
        .until_job(&key, created["id"].as_str().unwrap(), "failed")
        .await;
    assert!(
        failed["error"].as_str().unwrap().contains("timeout of 10 s"),
        "{failed}"
    );
    let session = format!("/api/v1/sessions/{}", created["session_id"].as_str().unwrap());
    let session = app
        .expect(StatusCode::OK, Method::GET, &session, Some(&token), None)
        .await;
    assert_ne!(session["status"], "running");
}

/// What a webhook receiver got: each call's signature header and body.
pub(crate) type Calls = Arc<Mutex<Vec<(String, Vec<u8>)>>>;

/// A webhook receiver on 127.0.0.1 that fails its first call (500) and takes the rest;
/// its URL and what it got.
pub(crate) async fn receiver() -> (String, Calls) {
    let calls = Calls::default();
    let kept = calls.clone();
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |headers: HeaderMap, body: axum::body::Bytes| {
            let calls = kept.clone();
            async move {
                let signature = headers
                    .get("x-sandpiper-signature")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_owned();
                let mut calls = calls.lock().unwrap();
                calls.push((signature, body.to_vec()));
                if calls.len() == 1 {
                    StatusCode::INTERNAL_SERVER_ERROR
                } else {
                    StatusCode::NO_CONTENT
                }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, calls)
}

/// Waits until the receiver has had `n` calls.
pub(crate) async fn calls(got: &Calls, n: usize) -> Vec<(String, Vec<u8>)> {
    let start = Instant::now();
    loop {
        let calls = got.lock().unwrap().clone();
        if calls.len() >= n {
            return calls;
        }
        assert!(
            start.elapsed() < WAIT,
            "the webhook got {} calls, not {n}",
            calls.len()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn the_webhook_gets_the_job_signed_when_it_waits_and_ends_and_is_retried() {
    let llm = FakeLlm::start(vec![
        Reply::tool("message_ask_user", json!({ "question": "Which language?" })),
        Reply::Text("Done in Rust."),
    ])
    .await;
    let app = backend(&llm, &[("jobs.allow_private_webhooks", "true".to_owned())]).await;
    let (key, _) = jobs_key(&app, "ada@example.org").await;
    let (url, got) = receiver().await;
    let created = app
        .create_job(&key, json!({ "prompt": "Write a script", "webhook_url": url }))
        .await;
    let secret = created["webhook_secret"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("whsec_"), "{created}");
    let id = created["id"].as_str().unwrap();
    assert_eq!(
        app.job(&key, id).await["webhook_secret"],
        Value::Null,
        "shown once"
    );

    // The first call fails, so the `waiting` body comes twice.
    let waiting = calls(&got, 2).await;
    app.expect(
        StatusCode::CREATED,
        Method::POST,
        &format!("{JOBS}/{id}/reply"),
        Some(&key),
        Some(json!({ "content": "Rust" })),
    )
    .await;
    let all = calls(&got, 3).await;
    assert_eq!(all[..2], waiting[..]);
    let statuses: Vec<Value> = all
        .iter()
        .map(|(signature, body)| {
            let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
            mac.update(body);
            let expected: String = mac
                .finalize()
                .into_bytes()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            assert_eq!(signature, &format!("sha256={expected}"));
            let body: Value = serde_json::from_slice(body).unwrap();
            assert_eq!(body["id"], id);
            body["status"].clone()
        })
        .collect();
    assert_eq!(statuses, [json!("waiting"), json!("waiting"), json!("succeeded")]);
    let last: Value = serde_json::from_slice(&all[2].1).unwrap();
    assert_eq!(last["answer"], "Done in Rust.");
}

#[tokio::test]
async fn a_jobs_attachments_are_in_its_workspace_and_named_with_its_prompt() {
    let llm = FakeLlm::start(vec![
        Reply::tool("shell_exec", json!({ "command": "cat uploads/sales.csv" })),
        Reply::Text("Two rows."),
    ])
    .await;
    let manager = Manager::start();
    let app = backend(&llm, &manager.settings()).await;
    let (key, _) = jobs_key(&app, "ada@example.org").await;
    let csv = "region,total\nnorth,12\nsouth,30\n";
    let created = app
        .create_job(
            &key,
            json!({
                "prompt": "Sum the totals",
                "attachments": [{ "name": "sales.csv", "content_base64": BASE64.encode(csv) }],
            }),
        )
        .await;
    let done = app
        .until_job(&key, created["id"].as_str().unwrap(), "succeeded")
        .await;
    assert_eq!(done["answer"], "Two rows.");
    assert!(
        llm.last_message_text(0).contains("uploads/sales.csv"),
        "the prompt does not name the file: {}",
        llm.last_message_text(0)
    );
    let read = llm.last_message_text(1);
    assert!(read.contains("north,12") && read.contains("south,30"), "{read}");
    assert_eq!(
        done["files"],
        json!([]),
        "the attachment is the job's, not the run's"
    );
}

#[tokio::test]
async fn bad_input_is_refused() {
    let llm = FakeLlm::start(vec![]).await;
    let app = backend(
        &llm,
        &[
            ("jobs.max_timeout_secs", "600".to_owned()),
            ("jobs.max_attachment_bytes", "1024".to_owned()),
        ],
    )
    .await;
    let (key, _) = jobs_key(&app, "ada@example.org").await;
    let (other, _) = jobs_key(&app, "bob@example.org").await;
    let refused = |body: Value, status: StatusCode| {
        let (app, key) = (&app, &key);
        async move {
            app.expect(status, Method::POST, JOBS, Some(key), Some(body))
                .await
        }
    };
    let unprocessable = StatusCode::UNPROCESSABLE_ENTITY;
    refused(
        json!({ "prompt": "x".repeat(100 * 1024 + 1) }),
        StatusCode::PAYLOAD_TOO_LARGE,
    )
    .await;
    refused(json!({ "prompt": "  " }), unprocessable).await;
    refused(json!({ "prompt": "hi", "timeout_secs": 5 }), unprocessable).await;
    let too_long = refused(json!({ "prompt": "hi", "timeout_secs": 601 }), unprocessable).await;
    assert_eq!(too_long["error"]["field"], "timeout_secs", "{too_long}");
    let network = refused(json!({ "prompt": "hi", "network": "lan" }), unprocessable).await;
    assert_eq!(network["error"]["field"], "network", "{network}");
    let model = refused(json!({ "prompt": "hi", "model": "gpt-nope" }), unprocessable).await;
    assert_eq!(model["error"]["field"], "model", "{model}");
    assert!(
        model["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no model is named `gpt-nope`; GET /api/v1/models lists them (scripted)"),
        "{model}"
    );
    app.create_job(&key, json!({ "prompt": "hi", "model": "scripted" }))
        .await;
    let file = |name: &str, content: &str| json!({ "name": name, "content_base64": content });
    for attachments in [
        json!([file("../etc/passwd", "YQ==")]),
        json!([file("a/b.csv", "YQ==")]),
        json!([file("a.csv", "not base64!")]),
        json!([file("a.csv", "YQ=="), file("a.csv", "YQ==")]),
        json!((0..21)
            .map(|n| file(&format!("{n}.txt"), "YQ=="))
            .collect::<Vec<_>>()),
    ] {
        let bad = refused(
            json!({ "prompt": "hi", "attachments": attachments }),
            unprocessable,
        )
        .await;
        assert_eq!(bad["error"]["field"], "attachments", "{bad}");
    }
    // Over the total (1 KiB here) when decoded, in one file or together.
    let big = BASE64.encode([0u8; 600]);
    refused(
        json!({ "prompt": "hi", "attachments": [file("a", &BASE64.encode([0u8; 1025]))] }),
        StatusCode::PAYLOAD_TOO_LARGE,
    )
    .await;
    refused(
        json!({ "prompt": "hi", "attachments": [file("a", &big), file("b", &big)] }),
        StatusCode::PAYLOAD_TOO_LARGE,
    )
    .await;
    // A body past what the attachments could need is cut off before it is read whole.
    refused(
        json!({ "prompt": "hi", "attachments": [file("a", &"A".repeat(200 * 1024))] }),
        StatusCode::PAYLOAD_TOO_LARGE,
    )
    .await;
    // Just under the total is fine.
    app.create_job(
        &key,
        json!({ "prompt": "hi", "attachments": [file("a", &BASE64.encode([0u8; 1024]))] }),
    )
    .await;
    // The body is read by the route itself, which still asks for JSON.
    let form = app
        .http
        .post(format!("{}{JOBS}", app.base))
        .bearer_auth(&key)
        .header("content-type", "text/plain")
        .body(r#"{"prompt": "hi"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(form.status(), StatusCode::BAD_REQUEST);
    let form: Value = form.json().await.unwrap();
    assert_eq!(form["error"]["code"], "malformed_request", "{form}");
    app.expect(
        unprocessable,
        Method::GET,
        &format!("{JOBS}?status=done"),
        Some(&key),
        None,
    )
    .await;

    // Unknown, malformed and someone else's jobs are all simply not found.
    let mine = app.create_job(&key, json!({ "prompt": "hi" })).await;
    let mine = mine["id"].as_str().unwrap();
    for path in [
        format!("{JOBS}/{}", uuid::Uuid::now_v7()),
        format!("{JOBS}/nonsense"),
    ] {
        app.expect(StatusCode::NOT_FOUND, Method::GET, &path, Some(&key), None)
            .await;
    }
    for (method, path) in [
        (Method::GET, format!("{JOBS}/{mine}")),
        (Method::POST, format!("{JOBS}/{mine}/cancel")),
        (Method::GET, format!("{JOBS}/{mine}/result")),
        (Method::GET, format!("{JOBS}/{mine}/events")),
    ] {
        app.expect(StatusCode::NOT_FOUND, method, &path, Some(&other), None)
            .await;
    }
    let listed = app
        .expect(StatusCode::OK, Method::GET, JOBS, Some(&other), None)
        .await;
    assert_eq!(listed["jobs"], json!([]));
}
