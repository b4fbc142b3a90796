//! The agent loop against a scripted OpenAI-compatible server speaking real HTTP and SSE.
//! (Tools in a real sandbox: `agent_sandbox.rs`.)
//!
//! # Layout
//!
//! - `turns.rs`: planning and titles, a malformed tool call fed back, a 429 retried, a
//!   question that waits for the person, a message taken into a running turn;
//! - `ends.rs`: how runs end: a stop in the middle of a model request, a cut stream
//!   retried, the time budget, no model configured, a restart, a person's daily token
//!   budget;
//! - `web_search.rs`: web search, which the backend runs itself against a fake provider
//!   (`web_fakes`) with no sandbox-manager configured at all.
//!
//! This file holds the set-up and readings they share.

mod ends;
mod turns;
mod web_search;

use crate::support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use support::fake_llm::{untrusted, FakeLlm, Reply};
use support::{borrowed, SseStream, TestApp};
use web_fakes::{searxng_answer, Recorder};

/// How long the scripted runs may take to get anywhere.
const WAIT: Duration = Duration::from_secs(10);

async fn app_with(llm: &FakeLlm) -> TestApp {
    let settings = llm.settings();
    let overrides = borrowed(&settings);
    TestApp::spawn(&overrides).await
}

fn status_is(status: &'static str) -> impl Fn(&Value) -> bool {
    move |e| e["type"] == "status" && e["status"] == status
}

/// What the person sees of a run: its events without the `usage` one that ends each
/// turn (checked on its own, through the session's totals) and the agent's `memory`
/// (checked through what later model requests carry).
async fn seen(stream: &mut SseStream, last: impl Fn(&Value) -> bool) -> Vec<Value> {
    let events = stream.until(WAIT, last).await;
    events
        .into_iter()
        .filter(|e| e["type"] != "usage" && e["type"] != "memory")
        .collect()
}

fn kinds(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_owned())
        .collect()
}
