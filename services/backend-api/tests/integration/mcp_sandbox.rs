//! MCP stdio servers inside the session's sandbox: the published reference server
//! (`server-everything`, from the repository's `tests/mcp-servers`) copied into a real
//! sandbox and started there by tool-api for the run, next to one that cannot start; and
//! what a person can do to them from their own sandbox, as an attacker would: a program
//! planted on their `PATH` is not started, the tools a server planted in one person's
//! sandbox lists never reach another person, and an operator's environment value never
//! enters a sandbox.
//!
//! Needs the Docker engine, the sandbox image and the sandbox-manager binary, like
//! `agent_sandbox`.

use crate::support;

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};
use support::fake_llm::{tool_names, FakeLlm, Reply};
use support::manager::Manager;
use support::mcp_servers::{
    config_file, packed_everything, upload, EVERYTHING_IN_SANDBOX, PLANTED_DESCRIPTION, PLANTED_SERVER,
    UNPACK_EVERYTHING,
};
use support::{borrowed, TestApp};

const WAIT: Duration = Duration::from_secs(120);

/// Plants `node` in the sandbox user's `~/.local/bin` (first on their shells' `PATH`),
/// running the planted server, uploaded as `planted.js`.
const PLANT_NODE: &str = "mkdir -p ~/.local/bin && \
    printf '#!/bin/sh\\nexec /usr/bin/node /home/sandbox/workspace/planted.js\\n' > ~/.local/bin/node && \
    chmod +x ~/.local/bin/node && echo planted";

/// Posts a message and returns the turn's events, which must end `completed`.
async fn turn(app: &TestApp, token: &str, session: &str, message: &str) -> Vec<Value> {
    let seq = app.post_message(token, session, message).await;
    let events = app
        .events(token, session, Some(seq))
        .await
        .until(WAIT, |e| e["type"] == "status" && e["status"] != "running")
        .await;
    assert_eq!(events.last().unwrap()["status"], "completed", "{events:#?}");
    events
}

async fn mcp_servers(app: &TestApp, token: &str) -> Value {
    app.expect(
        StatusCode::OK,
        reqwest::Method::GET,
        "/api/v1/mcp/servers",
        Some(token),
        None,
    )
    .await
}

#[tokio::test]
async fn a_stdio_server_runs_in_the_session_s_sandbox_and_a_broken_one_is_told() {
    let llm = FakeLlm::start(vec![
        Reply::tool(
            "shell_exec",
            json!({ "command": format!("{UNPACK_EVERYTHING} && {PLANT_NODE}") }),
        ),
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
                json!({ "command": "node", "args": [EVERYTHING_IN_SANDBOX, "stdio"] }),
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
    upload(&app, &token, &id, "mcp.tar.gz", packed_everything(dir.path())).await;
    upload(&app, &token, &id, "planted.js", PLANTED_SERVER.into()).await;
    let mut stream = app.events(&token, &id, None).await;

    // Turn 1: neither server can start yet; each is told once, and the turn goes on. The
    // person (or a prompt injection) plants a `node` on their own PATH meanwhile.
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

    // Turn 2: the unpacked server starts in the sandbox, by the system's `node`, and
    // answers from there.
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
        shown.contains("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"),
        "its PATH is the system's: {shown}"
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
    assert!(
        !requests[2].to_string().contains(PLANTED_DESCRIPTION),
        "the planted node was not started: {offered:?}"
    );
    // What the session's sandbox listed stays with the session.
    let servers = mcp_servers(&app, &token).await;
    let local = servers
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "local")
        .unwrap();
    assert_eq!(local["transport"], "stdio");
    assert_eq!(local["not_started"], true, "{local}");
    assert_eq!(local["tools"], json!([]), "{local}");
}

/// Person A plants a server where the admin's arguments point, in A's own sandbox; A's
/// agent gets its tool (A's sandbox is A's), and B's agent, and B's view of the servers,
/// never do — before B's own server runs, and after.
#[tokio::test]
async fn a_server_planted_in_one_person_s_sandbox_never_reaches_another_person() {
    let llm = FakeLlm::start(vec![
        Reply::Text("Hello, A."),
        Reply::tool("shell_exec", json!({ "command": UNPACK_EVERYTHING })),
        Reply::Text("Unpacked."),
        Reply::Text("Hello, B."),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let config = config_file(
        dir.path(),
        &[(
            "local",
            json!({ "command": "node", "args": [EVERYTHING_IN_SANDBOX, "stdio"] }),
        )],
    );
    let manager = Manager::start();
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    settings.push(("mcp.config_file", config));
    let app = TestApp::spawn(&borrowed(&settings)).await;

    let (a, _, _) = app.register("ada@example.org").await;
    let a_session = app.new_session(&a).await;
    let in_workspace = EVERYTHING_IN_SANDBOX.trim_start_matches("/home/sandbox/workspace/");
    upload(&app, &a, &a_session, in_workspace, PLANTED_SERVER.into()).await;
    turn(&app, &a, &a_session, "Hello").await;
    let a_offered = tool_names(&llm.requests()[0]);
    assert!(
        a_offered.iter().any(|t| t == "mcp__local__exfiltrate"),
        "A's own sandbox served A: {a_offered:?}"
    );

    let (b, _, _) = app.register("grace@example.org").await;
    let b_session = app.new_session(&b).await;
    upload(&app, &b, &b_session, "mcp.tar.gz", packed_everything(dir.path())).await;
    let before_own = turn(&app, &b, &b_session, "Unpack the MCP server").await;
    let b_servers = mcp_servers(&app, &b).await;
    turn(&app, &b, &b_session, "Hello").await;

    let requests = llm.requests();
    assert_eq!(requests.len(), 4);
    for (n, request) in requests.iter().enumerate().skip(1) {
        let text = request.to_string();
        assert!(
            !text.contains("exfiltrate") && !text.contains(PLANTED_DESCRIPTION),
            "B's request {n} offers A's planted tool: {:?}",
            tool_names(request)
        );
    }
    assert!(
        tool_names(&requests[3]).iter().any(|t| t == "mcp__local__echo"),
        "B's own server served B: {:?}",
        tool_names(&requests[3])
    );
    assert!(
        before_own
            .iter()
            .any(|e| e["type"] == "error" && e["message"].as_str().unwrap().contains("\"local\"")),
        "B's server could not start before B unpacked it: {before_own:#?}"
    );
    let shown = format!("{b_servers}{}", mcp_servers(&app, &b).await);
    assert!(
        !shown.contains("exfiltrate") && !shown.contains(PLANTED_DESCRIPTION),
        "{shown}"
    );
}

/// An operator's environment value, kept by a stdio server stored before such servers
/// took none (as the admin API and `MCP_CONFIG` allowed), must not enter a sandbox: that
/// server is not started, says why (naming the variable, not its value), and no process
/// in the person's sandbox can read the value. New ones are refused; once the admin
/// removes the variables, the server runs again.
#[tokio::test]
async fn an_operator_s_environment_value_never_enters_a_sandbox() {
    use backend_api::domain::mcp::{McpServer, McpServerName, McpTransport};
    use backend_api::infrastructure::stores::StoragePorts;

    const CANARY: &str = "canary-5f0c9e1d-operator-secret";
    let llm = FakeLlm::start(vec![
        Reply::tool(
            "shell_exec",
            json!({ "command": "grep -aho 'SP_CANARY=[a-z0-9-]*' /proc/[0-9]*/environ; echo searched" }),
        ),
        Reply::Text("Nothing there."),
        Reply::Text("Hello."),
    ])
    .await;
    let manager = Manager::start();
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    let dir = tempfile::tempdir().unwrap();
    let stores = StoragePorts::open(&support::settings(dir.path(), &borrowed(&settings)))
        .await
        .unwrap();
    let now = chrono::Utc::now();
    let legacy = McpServer {
        name: McpServerName::parse("legacy").unwrap(),
        transport: McpTransport::Stdio {
            command: "node".into(),
            args: vec!["-e".into(), PLANTED_SERVER.into()],
            env: [("SP_CANARY".to_owned(), CANARY.to_owned())].into(),
        },
        enabled: true,
        created_at: now,
        updated_at: now,
    };
    stores.mcp_servers.insert(&legacy).await.unwrap();
    drop(stores);
    let app = TestApp::spawn_on(dir.path(), &borrowed(&settings)).await;
    let (admin, _, _) = app.register("ada@example.org").await;

    // A person's run: the server is not started, and the value is nowhere in the sandbox.
    let (person, _, _) = app.register("grace@example.org").await;
    let session = app.new_session(&person).await;
    let events = turn(&app, &person, &session, "Look for the canary").await;
    let searched = llm.last_message_text(1);
    assert!(searched.contains("searched"), "the search ran: {searched}");
    assert!(!searched.contains(CANARY), "read in the sandbox: {searched}");
    let told = events
        .iter()
        .find(|e| e["type"] == "error")
        .expect("the server's absence is told");
    let told = told["message"].as_str().unwrap();
    assert!(
        told.contains("\"legacy\"") && told.contains("SP_CANARY") && !told.contains(CANARY),
        "{told}"
    );
    let servers = mcp_servers(&app, &person).await.to_string();
    assert!(
        servers.contains("SP_CANARY") && !servers.contains(CANARY),
        "{servers}"
    );

    // The admin API refuses a new one, and a change that keeps the variables.
    for (method, path, body) in [
        (
            reqwest::Method::POST,
            "/api/v1/admin/mcp/servers",
            json!({ "name": "new", "transport": "stdio", "command": "node",
                    "env": { "SP_CANARY": CANARY } }),
        ),
        (
            reqwest::Method::PATCH,
            "/api/v1/admin/mcp/servers/legacy",
            json!({ "enabled": true }),
        ),
    ] {
        let refused = app
            .expect(
                StatusCode::UNPROCESSABLE_ENTITY,
                method,
                path,
                Some(&admin),
                Some(body),
            )
            .await;
        assert_eq!(refused["error"]["field"], "env", "{refused}");
        let message = refused["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("SP_CANARY") && !message.contains(CANARY),
            "{message}"
        );
    }

    // Without its variables, the server runs (in the person's sandbox) again.
    app.expect(
        StatusCode::OK,
        reqwest::Method::PATCH,
        "/api/v1/admin/mcp/servers/legacy",
        Some(&admin),
        Some(json!({ "env": {} })),
    )
    .await;
    turn(&app, &person, &session, "Hello").await;
    let offered = tool_names(&llm.requests()[2]);
    assert!(
        offered.iter().any(|t| t == "mcp__legacy__exfiltrate"),
        "{offered:?}"
    );
}
