//! Several models against scripted model servers speaking real HTTP and SSE.
//!
//! # Layout
//!
//! - `choice.rs`: the list a person sees (without keys or addresses), each request going
//!   to its model's server with its provider id and key, a session that changes model
//!   between turns (a change mid-turn applies to the next one; a model the configuration
//!   no longer lists is told), a job that names its model, usage and cost by model, the
//!   422s for a model not offered;
//! - `quirks.rs`: the providers' quirks: tool calls sent whole, arguments as an object, no
//!   usage, reasoning beside the answer, and a model that cannot call tools.
//!
//! This file holds the set-up they share.

mod choice;
mod quirks;

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Provider, Reply, REASONING};
use support::TestApp;

const WAIT: Duration = Duration::from_secs(10);

/// A backend offering `planner` (default; priced) and `coder`, each on its own server.
async fn two_models(planner: &FakeLlm, coder: &FakeLlm) -> TestApp {
    let mut settings = planner.model_settings("planner", "big-model-1");
    settings.extend(coder.model_settings("coder", "small-model-2"));
    settings.extend(
        [
            ("llm.default_model", "planner"),
            ("llm.models.planner.context_tokens", "200000"),
            ("llm.models.planner.input_price_per_million", "2"),
            ("llm.models.planner.output_price_per_million", "10"),
            ("llm.models.coder.context_tokens", "32000"),
            ("llm.models.coder.supports_images", "true"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned())),
    );
    spawn(&settings).await
}

async fn spawn(settings: &[(String, String)]) -> TestApp {
    let settings: Vec<(&str, &str)> = settings.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    TestApp::spawn(&settings).await
}

/// A backend with one model, `only`, on a server that speaks like `provider`.
async fn one_model(provider: Provider, replies: Vec<Reply>, extra: &[(&str, &str)]) -> (FakeLlm, TestApp) {
    let llm = FakeLlm::start_as(provider, replies).await;
    let mut settings = llm.model_settings("only", "only-1");
    settings.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let app = spawn(&settings).await;
    (llm, app)
}

fn assistant_text(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .filter(|e| e["type"] == "message" && e["role"] == "assistant")
        .map(|e| e["content"].as_str().unwrap())
        .collect()
}
