//! Sub-agents against scripted model servers (real HTTP and SSE), one script per
//! conversation.
//!
//! # Layout
//!
//! - `planning.rs`: a planner that delegates to the implementer model and to one it names,
//!   the sub-agents' steps nested under the delegating calls and their answers returned
//!   as results, usage counted by model; the mistakes a delegating model makes, told to
//!   it; a step budget the whole tree shares;
//! - `hand_back.rs` (a real sandbox-manager): two sub-agents in two sandboxes hand back
//!   files the planner combines, only from inside the workspace and under the cap;
//! - `sandboxes.rs` (a real sandbox-manager): an offline job's sub-agent gets an offline
//!   sandbox, and a stop during delegation leaves no sub-agent working and no sub-agent
//!   sandbox behind.
//!
//! This file holds the scripts' set-up and the checks they share.

mod hand_back;
mod planning;
mod sandboxes;

use crate::support;

use std::time::{Duration, Instant};

use sandbox_manager_client::contract::ListQuery;
use serde_json::{json, Value};
use support::fake_llm::{untrusted, FakeLlm, Provider, Reply};
use support::manager::Manager;
use support::TestApp;
use tool_api_client::contract::shell::CommandState;

/// How long a turn may take (one with sandboxes starts containers).
const WAIT: Duration = Duration::from_secs(120);

fn delegate(task: &str, extra: Value) -> (&'static str, String) {
    let mut args = json!({ "task": task });
    args.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    ("delegate", args.to_string())
}

/// `planner` (the default, on its server) and `coder` (the implementer, on another).
fn two_models(planner: &FakeLlm, coder: &FakeLlm, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut settings = planner.model_settings("planner", "big-model-1");
    settings.extend(coder.model_settings("coder", "small-model-2"));
    settings.extend(
        [
            ("llm.default_model", "planner"),
            ("llm.implementer_model", "coder"),
        ]
        .iter()
        .chain(extra)
        .map(|(k, v)| (k.to_string(), v.to_string())),
    );
    settings
}

async fn spawn(settings: &[(String, String)]) -> TestApp {
    let settings: Vec<(&str, &str)> = settings.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    TestApp::spawn(&settings).await
}

/// The `called` event of each top-level call named `name`, in order.
fn called<'a>(events: &'a [Value], name: &str) -> Vec<&'a Value> {
    events
        .iter()
        .filter(|e| e["type"] == "tool" && e["name"] == name && e["status"] == "called")
        .collect()
}

/// The events nested under the delegating call `call_id`.
fn nested<'a>(events: &'a [Value], call_id: &Value) -> Vec<&'a Value> {
    events
        .iter()
        .filter(|e| e["type"] == "delegated" && &e["call_id"] == call_id)
        .map(|e| &e["event"])
        .collect()
}

/// Every `calling`, top-level or nested, has its `called`.
fn assert_every_call_closed(events: &[Value]) {
    let mut open: Vec<(String, String)> = Vec::new();
    for event in events {
        let (scope, tool) = match event["type"].as_str().unwrap() {
            "tool" => (String::new(), event),
            "delegated" if event["event"]["type"] == "tool" => {
                (event["call_id"].as_str().unwrap().to_owned(), &event["event"])
            }
            _ => continue,
        };
        let key = (scope, tool["call_id"].as_str().unwrap().to_owned());
        match tool["status"].as_str().unwrap() {
            "calling" => open.push(key),
            _ => open.retain(|k| k != &key),
        }
    }
    assert!(open.is_empty(), "calls left open: {open:?}\n{events:#?}");
}

async fn sandboxed(planner: &FakeLlm, coder: &FakeLlm, manager: &Manager) -> TestApp {
    let mut settings = two_models(planner, coder, &[]);
    settings.extend(manager.settings().into_iter().map(|(k, v)| (k.to_owned(), v)));
    spawn(&settings).await
}

/// Waits until the manager runs no sandbox of a sub-agent of session `id`.
async fn until_no_sub_sandbox(manager: &Manager, id: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let left = sub_sandboxes(manager, id).await;
        if left.is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "sub-agent sandboxes left: {left:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The sandboxes of sub-agents of session `id` the manager still runs.
async fn sub_sandboxes(manager: &Manager, id: &str) -> Vec<String> {
    let all = manager.client().list(&ListQuery::default()).await.unwrap();
    all.into_iter()
        .filter(|s| s.state.is_live() && s.session_id.starts_with(&format!("{id}.sub-")))
        .map(|s| s.session_id)
        .collect()
}

/// The text of `path` in the session's sandbox, `None` when there is no such file.
async fn read(manager: &Manager, session: &str, path: &str) -> Option<String> {
    let tool_api = manager.tool_api(session).await;
    let file = tool_api.download(path, None).await.ok()?;
    Some(file.text().await.unwrap())
}
