//! Benchmark of the agent's own cost, against the real sandbox-manager, Docker and the
//! sandbox image, with a scripted model that answers at once (so what is measured is the
//! backend, the sandbox and the wire between them). Steps are timed by the log's own
//! clock (each stored event's `at`): a run's events can reach a stream together, so their
//! arrival would say little.
//!
//! - first tool result: a new session's first message → its first `tool called` event,
//!   with the warm pool full (the sandbox is claimed, not started);
//! - tool step: the time between consecutive `tool called` events of a run of shell
//!   `echo` steps (model request, events, tool call), and the same `echo` sent to the
//!   sandbox's tool-api directly; the difference is the overhead the backend adds (with
//!   an MCP server configured, as deployments with MCP tools run);
//! - MCP over Streamable HTTP (the published `server-everything`): listing its tools
//!   (first, then cached: the servers read from the embedded store, the lists reused),
//!   and those of five servers at once, as a run's start does; an `echo` call straight
//!   through the adapter, and the same call as a run's step;
//! - MCP over stdio: the same server started in the session's sandbox and its `echo`
//!   relayed by tool-api;
//! - VNC relay: full-screen raw updates pulled through the browser's relay and through
//!   the backend's connector alone ("direct": the tool-api's upgraded stream to x11vnc)
//!   (throughput), and a 1×1 update round trip both ways (latency);
//! - code interpreter: the first `code_run` of a session whose sandbox came from the warm
//!   pool (its kernel starting with that cell), `print(1)` steps end to end and straight
//!   to tool-api, `import pandas` in a warm kernel, and a kernel's cold start (restart);
//! - delegation: a `delegate` call's `calling` → `called` with a sub-agent that answers at
//!   once, in the session's sandbox and in one of its own claimed from the warm pool.
//!
//! Run with `cargo bench -p backend-api --bench agent`. Targets: tool-step overhead
//! p50 ≤ 5 ms; first tool result ≤ 300 ms with a warm pool; five MCP servers listed
//! ≤ 300 ms; relay ≥ 100 MB/s; `print(1)` end to end p50 ≤ 30 ms; kernel start ≤ 1.5 s;
//! delegation overhead p50 ≤ 100 ms with a warm pool.

#[path = "../../tests/integration/support/mod.rs"]
mod support;

mod code;
mod delegation;
mod mcp;
mod vnc;

use code::code;
use delegation::delegation;
use mcp::{mcp, mcp_stdio};
use vnc::relay;

use std::sync::Arc;
use std::time::{Duration, Instant};

use backend_api::config::McpConfig;
use backend_api::domain::agent::{SandboxAccess, SandboxSize};
use backend_api::domain::mcp::{McpServer, McpServerName, McpSite, McpTransport};
use backend_api::domain::ports::{DesktopConnector, DesktopStream, McpServerRepository, McpServers};
use backend_api::domain::session::SessionId;
use backend_api::infrastructure::embedded::EmbeddedStore;
use backend_api::infrastructure::mcp::McpHub;
use backend_api::infrastructure::vnc::VncConnector;
use chrono::{DateTime, FixedOffset};
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::manager::Manager;
use support::mcp_servers::{self, packed_everything, Everything, EVERYTHING_IN_SANDBOX, UNPACK_EVERYTHING};
use support::{borrowed, live, SseStream, TestApp};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;
use tool_api_client::contract::code::CodeRunRequest;
use tool_api_client::contract::shell::ExecRequest;

const POOL: usize = 3;
const STEPS: usize = 200;
const MCP_CALLS: usize = 100;
const RELAY_SECONDS: u64 = 5;
const ROUND_TRIPS: usize = 200;
const CELLS: usize = 20;
const DELEGATIONS: usize = 10;
/// What the benchmark's sub-agents are asked (their conversations have a script of their own).
const SUB_TASK: &str = "Sub-task: answer at once";

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn echo_step() -> Reply {
    Reply::tool("shell_exec", json!({ "command": "echo hi" }))
}

fn print_step() -> Reply {
    Reply::tool("code_run", json!({ "code": "print(1)" }))
}

fn mcp_echo_step() -> Reply {
    Reply::tool("mcp__everything__echo", json!({ "message": "hi" }))
}

/// The next event that `matches`, and when the log stored it: the events of a run may
/// reach a stream together, so their arrival says little about the run's own pace.
async fn logged(stream: &mut SseStream, matches: impl Fn(&Value) -> bool) -> (Value, DateTime<FixedOffset>) {
    loop {
        let event = tokio::time::timeout(Duration::from_secs(120), stream.next_or_end())
            .await
            .expect("an event within 120 s")
            .expect("the stream is open");
        let data: Value = serde_json::from_str(&event.data).unwrap();
        assert!(data["event"]["type"] != "error", "the run failed: {data}");
        if matches(&data["event"]) {
            let at = DateTime::parse_from_rfc3339(data["at"].as_str().unwrap()).unwrap();
            return (data["event"].clone(), at);
        }
    }
}

/// When the log stored the next `tool called` event.
async fn called(stream: &mut SseStream) -> DateTime<FixedOffset> {
    logged(stream, |e| e["type"] == "tool" && e["status"] == "called")
        .await
        .1
}

fn between(from: DateTime<FixedOffset>, to: DateTime<FixedOffset>) -> Duration {
    (to - from).to_std().unwrap_or_default()
}

/// Sends `message` to the session (whose last run has ended) and measures the time
/// between `n + 1` consecutive `tool called` events of the run it starts.
async fn step_times(app: &TestApp, token: &str, session: &str, message: &str, n: usize) -> Vec<Duration> {
    // Followed from the message on: the log before it holds earlier runs' steps.
    let seq = app.post_message(token, session, message).await;
    let mut stream = app.events(token, session, Some(seq)).await;
    let mut last = called(&mut stream).await;
    let mut steps = Vec::new();
    for _ in 0..n {
        let now = called(&mut stream).await;
        steps.push(between(last, now));
        last = now;
    }
    steps
}

async fn wait_for_warm_pool(manager: &Manager) {
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        let health: Value = reqwest::get(format!("{}/health", manager.base))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if health["pool"]["ready"].as_u64() == Some(POOL as u64) {
            return;
        }
        assert!(Instant::now() < deadline, "the pool did not fill: {health}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[tokio::main]
async fn main() {
    let pool = POOL.to_string();
    let manager = Manager::start_with(&[("SANDBOX_MANAGER_POOL__SIZE", pool.as_str())]);
    let mut script = Vec::new();
    for _ in 0..POOL {
        script.push(echo_step());
        script.push(Reply::Text("done"));
    }
    script.extend((0..=STEPS).map(|_| echo_step()));
    script.push(Reply::Text("done"));
    script.extend((0..=MCP_CALLS).map(|_| mcp_echo_step()));
    script.push(Reply::Text("done"));
    script.extend([print_step(), Reply::Text("done")]);
    script.extend((0..=CELLS).map(|_| print_step()));
    script.push(Reply::Text("done"));
    for own_sandbox in [false, true] {
        for _ in 0..DELEGATIONS {
            let task = json!({ "task": SUB_TASK, "own_sandbox": own_sandbox });
            script.extend([Reply::tool("delegate", task), Reply::Text("done")]);
        }
    }
    let llm = FakeLlm::start(script).await;
    llm.route(SUB_TASK, vec![Reply::Text("ok"); 2 * DELEGATIONS]);
    let everything = Everything::start().await;
    let mcp_dir = tempfile::tempdir().unwrap();
    let mcp_file = mcp_servers::config_file(
        mcp_dir.path(),
        &[("everything", json!({ "url": everything.url }))],
    );
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    settings.push(("agent.max_steps", (STEPS + 10).to_string()));
    settings.push(("mcp.config_file", mcp_file));
    let app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("bench@example.org").await;

    println!("agent benchmark (scripted model answering at once; sandbox from the image; 2 cores shared)");
    let mut first = Vec::new();
    let mut sessions = Vec::new();
    for _ in 0..POOL {
        wait_for_warm_pool(&manager).await;
        let id = app.new_session(&token).await;
        let mut stream = app.events(&token, &id, None).await;
        app.post_message(&token, &id, "echo something").await;
        let (_, posted) = logged(&mut stream, |e| e["type"] == "message").await;
        first.push(between(posted, called(&mut stream).await));
        stream
            .until(Duration::from_secs(30), |e| {
                e["type"] == "status" && e["status"] == "completed"
            })
            .await;
        sessions.push(id);
    }
    let first_ms: Vec<String> = first.iter().map(|d| format!("{:.0}", ms(*d))).collect();
    println!(
        "first tool result, warm pool:   p50 {:.0} ms  (each: {} ms; target ≤ 300)",
        ms(percentile(&mut first, 0.5)),
        first_ms.join(", ")
    );

    // A run of echo steps in a sandbox that is already the session's.
    let id = &sessions[0];
    let mut steps = step_times(&app, &token, id, "echo many times", STEPS).await;
    let sandbox = manager.tool_api(id).await;
    let mut direct = Vec::new();
    let echo = ExecRequest {
        command: "echo hi".into(),
        ..Default::default()
    };
    for _ in 0..STEPS {
        let started = Instant::now();
        sandbox.exec("bench", &echo).await.unwrap();
        direct.push(started.elapsed());
    }
    let (step, tool) = (percentile(&mut steps, 0.5), percentile(&mut direct, 0.5));
    println!(
        "tool step (shell echo):          p50 {:.2} ms end to end, p99 {:.2} ms",
        ms(step),
        ms(percentile(&mut steps, 0.99))
    );
    println!("  the same echo, tool-api direct: p50 {:.2} ms", ms(tool));
    println!(
        "  backend overhead per step:      p50 {:.2} ms  (target ≤ 5, an MCP server configured)",
        ms(step.saturating_sub(tool))
    );

    mcp(&app, &token, id, &everything).await;
    mcp_stdio(id, &manager).await;
    relay(&app, &token, id, &manager).await;
    code(&app, &manager).await;
    delegation(&app, &manager).await;
}
