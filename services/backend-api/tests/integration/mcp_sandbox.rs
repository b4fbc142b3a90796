//! MCP stdio servers inside the session's sandbox: the published reference server
//! (`server-everything`, from the repository's `tests/mcp-servers`) copied into a real
//! sandbox and started there by tool-api for the run, next to one that cannot start.
//!
//! Needs the Docker engine, the sandbox image and the sandbox-manager binary, like
//! `agent_sandbox`.

use crate::support;

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::manager::Manager;
use support::mcp_servers::{config_file, packed_everything, EVERYTHING_IN_SANDBOX, UNPACK_EVERYTHING};
use support::{borrowed, TestApp};

const WAIT: Duration = Duration::from_secs(120);

fn tool_names(request: &Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| t["function"]["name"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn a_stdio_server_runs_in_the_session_s_sandbox_and_a_broken_one_is_told() {
    let llm = FakeLlm::start(vec![
        Reply::tool("shell_exec", json!({ "command": UNPACK_EVERYTHING })),
        Reply::Text("Unpacked."),
        Reply::tool("mcp__local__get-env", json!({})),
        Reply::Text("It runs in the sandbox."),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let config = config_file(
        dir.path(),
        &[
            (
                "local",
                json!({ "command": "node", "args": [EVERYTHING_IN_SANDBOX, "stdio"], "env": { "SP_MARK": "set-by-config" } }),
            ),
            (
                "gone",
                json!({ "command": "node", "args": ["/nowhere/server.js"] }),
            ),
        ],
    );
    let manager = Manager::start();
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    settings.push(("mcp.config_file", config));
    let app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let uploaded = app
        .http
        .put(format!(
            "{}/api/v1/sessions/{id}/files/upload?path=mcp.tar.gz",
            app.base
        ))
        .bearer_auth(&token)
        .body(packed_everything(dir.path()))
        .send()
        .await
        .unwrap();
    assert_eq!(uploaded.status(), StatusCode::CREATED);
    let mut stream = app.events(&token, &id, None).await;

    // Turn 1: neither server can start yet; each is told once, and the turn goes on.
    app.post_message(&token, &id, "Unpack the MCP server").await;
    let first = stream
        .until(WAIT, |e| e["type"] == "status" && e["status"] != "running")
        .await;
    assert_eq!(first.last().unwrap()["status"], "completed", "{first:#?}");
    let errors: Vec<&str> = first
        .iter()
        .filter(|e| e["type"] == "error")
        .filter_map(|e| e["message"].as_str())
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors
            .iter()
            .any(|e| e.contains("\"gone\"") && e.contains("Cannot find module")),
        "the reason names how the process ended: {errors:?}"
    );

    // Turn 2: the unpacked server starts in the sandbox and answers from there.
    app.post_message(&token, &id, "Where does it run?").await;
    let second = stream
        .until(WAIT, |e| e["type"] == "status" && e["status"] != "running")
        .await;
    assert_eq!(second.last().unwrap()["status"], "completed", "{second:#?}");
    let called = second
        .iter()
        .find(|e| e["type"] == "tool" && e["status"] == "called")
        .expect("the MCP tool was called");
    assert_eq!(called["name"], "mcp__local__get-env");
    assert_eq!(called["view"]["kind"], "mcp", "{called}");
    let shown = called["view"]["content"].to_string();
    assert!(
        shown.contains("/home/sandbox"),
        "the server's environment is the sandbox's: {shown}"
    );
    assert!(
        shown.contains("set-by-config"),
        "the configured env reached it: {shown}"
    );
    assert!(
        !shown.contains("SANDBOX_TOKEN"),
        "tool-api's secrets stay out: {shown}"
    );

    let requests = llm.requests();
    let offered = tool_names(&requests[2]);
    assert!(offered.iter().any(|t| t == "mcp__local__echo"), "{offered:?}");
    assert!(
        !offered.iter().any(|t| t.starts_with("mcp__gone__")),
        "{offered:?}"
    );
    let servers = app
        .expect(
            StatusCode::OK,
            reqwest::Method::GET,
            "/api/v1/mcp/servers",
            Some(&token),
            None,
        )
        .await;
    let local = servers
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "local")
        .unwrap();
    assert_eq!(local["transport"], "stdio");
    assert_eq!(local["not_started"], false, "a session has started it: {local}");
    assert!(
        !local["tools"].as_array().unwrap().is_empty(),
        "the listed tools are kept: {local}"
    );
    assert!(
        !servers.to_string().contains("set-by-config"),
        "env values are never shown"
    );
}
