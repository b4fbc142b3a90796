//! Rented sandboxes in a real sandbox: the real backend (on the embedded store here, on
//! MongoDB and Redis in the shared-stores run) and the real sandbox-manager over the
//! sandbox image. Needs the Docker engine and the sandbox-manager binary, like
//! `agent_sandbox`.
//!
//! # Layout
//!
//! - `reach.rs`: created with its variables and reached through the one-host data plane;
//!   another person's key finds nothing; set_timeout and its time running out;
//!   a deactivated owner's sandbox ended at once;
//! - `kill_and_pause.rs`: kill removes its container at once, connect extends but never
//!   shortens; pause keeps its files for connect to resume, and autoPause pauses it when
//!   its time is up.
//!
//! This file holds the set-up and readings they share (the other E2B suites use them
//! too).

mod kill_and_pause;
mod reach;

use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use sandbox_manager_client::contract::{CreateSandbox, ListQuery, SandboxState, StorageKind};
use serde_json::{json, Value};

use crate::e2b::{e2b, key};
use crate::support::manager::Manager;
use crate::support::{borrowed, TestApp};

pub async fn backend(manager: &Manager) -> TestApp {
    let settings = manager.settings();
    TestApp::spawn(&borrowed(&settings)).await
}

/// A request through the data plane to port `port` of sandbox `id` with `token`.
async fn data_plane(
    app: &TestApp,
    method: Method,
    path: &str,
    id: &str,
    token: &str,
    port: &str,
) -> reqwest::Response {
    reqwest::Client::new()
        .request(method, format!("{}/e2b/sandbox{path}", app.base))
        .header("e2b-sandbox-id", id)
        .header("e2b-sandbox-port", port)
        .header("x-access-token", token)
        .send()
        .await
        .unwrap()
}

/// How many sandboxes the manager runs for the rented sandbox `id`.
pub async fn containers_of(manager: &Manager, id: &str) -> usize {
    let query = ListQuery {
        session_id: Some(id.to_owned()),
        ..Default::default()
    };
    manager.client().list(&query).await.unwrap().len()
}

/// How many Jupyter kernels run in the rented sandbox `id` (its one manager sandbox).
async fn kernels_in(manager: &Manager, id: &str) -> usize {
    let sandbox = running_of(manager, id).await.pop().expect("a sandbox runs");
    let tool_api = sandbox.tool_api.unwrap();
    let tools = tool_api_client::ToolApiClient::new(&tool_api.url, &tool_api.token);
    let request = tool_api_client::contract::shell::ExecRequest {
        command: "pgrep -fc ipykernel || true".into(),
        ..Default::default()
    };
    let done = tools.exec("test", &request).await.unwrap();
    done.output.trim().parse().unwrap()
}

/// The manager's sandboxes of the rented sandbox `id` that run.
pub async fn running_of(manager: &Manager, id: &str) -> Vec<sandbox_manager_client::contract::Sandbox> {
    let query = ListQuery {
        session_id: Some(id.to_owned()),
        state: Some(SandboxState::Ready),
        ..Default::default()
    };
    manager.client().list(&query).await.unwrap()
}
