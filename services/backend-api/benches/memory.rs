//! Benchmark of what memory across chats adds to the start of a turn, side by side with
//! and without 6,000 characters of notes:
//!
//! - recall: what a new chat's first run does for memory before its first model request
//!   (the person's memory read, the chat's prompt part frozen, the notes rendered), on
//!   the embedded store (and on MongoDB when `BACKEND_TEST_STORES=mongodb-redis` with
//!   `TEST_MONGODB_URI` and `TEST_REDIS_URL`, as the integration tests take them);
//! - turn start end to end: a new chat's `message` event → its `status: running` event
//!   (the run started, memory recalled, the session read, the model picked), by the
//!   log's own clock, through the real server with a scripted model, for a person with
//!   memory on and 6,000 characters of notes and one with memory off.
//!
//! Run with `cargo bench -p backend-api --bench memory`. Target: memory adds ≤ 1 ms to a
//! turn's start (p50).

#[path = "../tests/integration/support/mod.rs"]
mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use backend_api::application::memory::{MemoryService, NoteWrite};
use backend_api::domain::memory::{Approval, NoteText};
use backend_api::domain::ports::MemoryRepository;
use backend_api::domain::session::SessionId;
use backend_api::domain::user::UserId;
use backend_api::infrastructure::embedded::EmbeddedStore;
use backend_api::infrastructure::mongo::MongoStore;
use chrono::{DateTime, FixedOffset};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::{borrowed, TestApp};

const RECALLS: usize = 500;
const CHATS: usize = 100;
/// Twelve notes of 490 characters: 6,000 characters with the prompt's bullets.
const NOTES: usize = 12;
const NOTE_CHARS: usize = 490;

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn note(n: usize) -> String {
    let text = format!("Note {n:02}: the person's project keeps its deploy scripts in ops/ and ");
    let filler = "prefers short answers with the command first. ".repeat(12);
    format!("{text}{filler}").chars().take(NOTE_CHARS).collect()
}

/// p50 and p95 of `RECALLS` recalls of new chats by `owner`.
async fn recalls(service: &MemoryService, owner: &UserId) -> (f64, f64, usize) {
    let mut samples = Vec::with_capacity(RECALLS);
    let mut chars = 0;
    for _ in 0..RECALLS {
        let started = Instant::now();
        let recall = service.recall(owner, &SessionId::new()).await.unwrap();
        let mut system = String::from("the system prompt");
        system.push_str(&recall.prompt);
        samples.push(started.elapsed());
        chars = recall.prompt.len();
    }
    let p50 = ms(percentile(&mut samples, 0.5));
    (p50, ms(percentile(&mut samples, 0.95)), chars)
}

/// Recalls with and without notes on one store, side by side.
async fn recall_on(name: &str, store: Arc<dyn MemoryRepository>) {
    let service = MemoryService::new(store);
    let (with, without) = (UserId::new(), UserId::new());
    service.set_enabled(&with, true).await.unwrap();
    let chat = SessionId::new();
    for n in 0..NOTES {
        let write = NoteWrite::Add(NoteText::parse(&note(n)).unwrap());
        service.write(&with, &chat, write, Approval::Kept).await.unwrap();
    }
    let (on50, on95, chars) = recalls(&service, &with).await;
    let (off50, off95, _) = recalls(&service, &without).await;
    println!(
        "recall ({name}): with {chars} chars of notes p50 {on50:.3} ms, p95 {on95:.3} ms; \
         memory off p50 {off50:.3} ms, p95 {off95:.3} ms"
    );
}

/// When the log stored a new chat's `message` and its `status: running`, apart.
async fn turn_start(app: &TestApp, token: &str) -> Duration {
    let id = app.new_session(token).await;
    app.turn(token, &id, "Hello").await;
    let mut stream = app.events(token, &id, Some(0)).await;
    let at = |data: &Value| DateTime::parse_from_rfc3339(data["at"].as_str().unwrap()).unwrap();
    let (mut message, mut running): (Option<DateTime<FixedOffset>>, Option<DateTime<FixedOffset>>) =
        (None, None);
    while running.is_none() {
        let event = stream.next().await.expect("the log replays");
        let data: Value = serde_json::from_str(&event.data).unwrap();
        match (data["event"]["type"].as_str(), data["event"]["status"].as_str()) {
            (Some("message"), _) if message.is_none() => message = Some(at(&data)),
            (Some("status"), Some("running")) => running = Some(at(&data)),
            _ => {}
        }
    }
    (running.unwrap() - message.unwrap()).to_std().unwrap_or_default()
}

async fn turn_starts() {
    let mut replies = vec![Reply::Tools(
        (0..NOTES)
            .map(|n| ("memory", json!({ "action": "add", "text": note(n) }).to_string()))
            .collect(),
    )];
    replies.extend(std::iter::repeat_n(Reply::Text("Hi"), 2 * CHATS + 1));
    let llm = FakeLlm::start(replies).await;
    let settings = llm.settings();
    let app = TestApp::spawn(&borrowed(&settings)).await;
    let (with, _, _) = app.register("with@example.org").await;
    let (without, _, _) = app.register("without@example.org").await;
    let on = Some(json!({ "enabled": true }));
    app.expect(StatusCode::OK, Method::PATCH, "/api/v1/memory", Some(&with), on)
        .await;
    let first = app.new_session(&with).await;
    app.turn(&with, &first, "Remember these").await;
    let memory = app
        .expect(StatusCode::OK, Method::GET, "/api/v1/memory", Some(&with), None)
        .await;
    let chars: usize = memory["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["text"].as_str().unwrap().len())
        .sum();
    assert_eq!(memory["notes"].as_array().unwrap().len(), NOTES, "{memory}");
    let (mut on, mut off) = (Vec::new(), Vec::new());
    // Taken in turns, so both see the same machine.
    for _ in 0..CHATS {
        on.push(turn_start(&app, &with).await);
        off.push(turn_start(&app, &without).await);
    }
    let (on50, off50) = (ms(percentile(&mut on, 0.5)), ms(percentile(&mut off, 0.5)));
    println!(
        "turn start (message → running, {} store): with {chars} chars of notes p50 {on50:.3} ms, \
         p95 {:.3} ms; memory off p50 {off50:.3} ms, p95 {:.3} ms; memory adds {:.3} ms (p50)",
        if support::shared_stores().is_some() {
            "MongoDB"
        } else {
            "embedded"
        },
        ms(percentile(&mut on, 0.95)),
        ms(percentile(&mut off, 0.95)),
        on50 - off50
    );
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    recall_on("embedded", Arc::new(EmbeddedStore::open(dir.path()).unwrap())).await;
    if let Some((mongodb, _)) = support::shared_stores() {
        let store = MongoStore::connect(&mongodb, &support::store_name(dir.path()))
            .await
            .unwrap();
        recall_on("MongoDB", Arc::new(store)).await;
    }
    turn_starts().await;
}
