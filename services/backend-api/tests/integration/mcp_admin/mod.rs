//! The admin's MCP servers (`/api/v1/admin/mcp/servers`).
//!
//! # Layout
//!
//! - `runs.rs`: a server an admin adds gives the next run its tools, a change reaches the
//!   run after it (a failure cached for the old address is forgotten) and a disabled
//!   server is left out;
//! - `access.rs`: header values never appear in an answer, and an edit keeps those it does
//!   not replace; only admins manage servers; bad input names the field to fix, and a
//!   stdio server takes no environment (`mcp_sandbox` shows why);
//! - `file.rs`: the `MCP_CONFIG` file seeds each server once, so an admin's changes and
//!   deletions survive restarts, and gives no stdio server an environment either.
//!
//! This file holds the requests and readings they share.

mod access;
mod file;
mod runs;

use crate::support;

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::mcp_servers::{self, Everything};
use support::{borrowed, TestApp};

const SERVERS: &str = "/api/v1/admin/mcp/servers";

fn server(name: &str) -> String {
    format!("{SERVERS}/{name}")
}

/// Posts a message and returns the turn's events, up to its end.
async fn turn(app: &TestApp, token: &str, session: &str, message: &str) -> Vec<Value> {
    let seq = app.post_message(token, session, message).await;
    let ended = |e: &Value| e["type"] == "status" && (e["status"] == "completed" || e["status"] == "failed");
    let events = app
        .events(token, session, Some(seq))
        .await
        .until(Duration::from_secs(30), ended)
        .await;
    assert_eq!(events.last().unwrap()["status"], "completed", "{events:#?}");
    events
}

/// The names of the MCP tools a model request offered.
fn mcp_tools(request: &Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["function"]["name"].as_str())
        .filter(|name| name.starts_with("mcp__"))
        .map(str::to_owned)
        .collect()
}

fn errors(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .filter(|e| e["type"] == "error")
        .map(|e| e["message"].as_str().unwrap())
        .collect()
}

/// The answer's status and raw body, for checks on exactly what was sent.
async fn raw(
    app: &TestApp,
    method: Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (StatusCode, String) {
    let response = app.call(method, path, Some(token), body).await;
    (response.status(), response.text().await.unwrap())
}

/// The servers as the admin list gives them, by name.
async fn listed(app: &TestApp, admin: &str) -> Vec<Value> {
    let list = app
        .expect(StatusCode::OK, Method::GET, SERVERS, Some(admin), None)
        .await;
    list.as_array().unwrap().clone()
}

fn named<'a>(servers: &'a [Value], name: &str) -> Option<&'a Value> {
    servers.iter().find(|s| s["name"] == name)
}
