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

#[path = "../tests/integration/support/mod.rs"]
mod support;

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

/// A delegation's cost with a sub-agent that answers at once, for a third person (the
/// others hold their quota's sandboxes): in the session's sandbox, then in one of its own.
async fn delegation(app: &TestApp, manager: &Manager) {
    let (token, _, _) = app.register("delegating@example.org").await;
    let id = app.new_session(&token).await;
    for (place, own_sandbox) in [("the session's sandbox", false), ("its own sandbox", true)] {
        let mut overheads = Vec::new();
        for _ in 0..DELEGATIONS {
            if own_sandbox {
                wait_for_warm_pool(manager).await;
            }
            let seq = app.post_message(&token, &id, "delegate").await;
            let mut stream = app.events(&token, &id, Some(seq)).await;
            let delegate =
                |status: &'static str| move |e: &Value| e["name"] == "delegate" && e["status"] == status;
            let (_, calling) = logged(&mut stream, delegate("calling")).await;
            let (done, called) = logged(&mut stream, delegate("called")).await;
            assert_eq!(done["view"]["kind"], "delegation", "{done}");
            overheads.push(between(calling, called));
            stream
                .until(Duration::from_secs(60), |e| {
                    e["type"] == "status" && e["status"] != "running"
                })
                .await;
        }
        println!(
            "delegation, sub-agent in {place}: p50 {:.1} ms, max {:.1} ms  (target ≤ 100 with a warm pool)",
            ms(percentile(&mut overheads, 0.5)),
            ms(*overheads.last().unwrap())
        );
    }
}

/// The code interpreter through the backend and straight to tool-api, for a second person
/// (the first holds as many sandboxes as the quota allows).
async fn code(app: &TestApp, manager: &Manager) {
    let (token, _, _) = app.register("coder@example.org").await;
    let token = token.as_str();
    wait_for_warm_pool(manager).await;
    let id = app.new_session(token).await;
    let mut stream = app.events(token, &id, None).await;
    app.post_message(token, &id, "print once").await;
    let (_, posted) = logged(&mut stream, |e| e["type"] == "message").await;
    let first = between(posted, called(&mut stream).await);
    stream
        .until(Duration::from_secs(30), |e| {
            e["type"] == "status" && e["status"] == "completed"
        })
        .await;
    println!(
        "first code_run, warm pool:       {:.0} ms message → result (the kernel starts with the first cell)",
        ms(first)
    );
    let mut steps = step_times(app, token, &id, "print many times", CELLS).await;
    let sandbox = manager.tool_api(&id).await;
    let cell = |code: &str| CodeRunRequest {
        code: code.into(),
        ..Default::default()
    };
    let mut direct = Vec::new();
    for _ in 0..CELLS {
        let started = Instant::now();
        sandbox.code_run(&cell("print(1)")).await.unwrap();
        direct.push(started.elapsed());
    }
    println!(
        "code_run print(1):               p50 {:.2} ms end to end (target ≤ 30), tool-api direct p50 {:.2} ms",
        ms(percentile(&mut steps, 0.5)),
        ms(percentile(&mut direct, 0.5))
    );
    let started = Instant::now();
    let imported = sandbox.code_run(&cell("import pandas")).await.unwrap();
    assert_eq!(imported.error, None, "{imported:?}");
    println!("import pandas, warm kernel:      {:.0} ms", ms(started.elapsed()));
    let restarted = sandbox.code_restart().await.unwrap();
    println!(
        "kernel cold start (restart):     {} ms to ready (target ≤ 1500)",
        restarted.ready_ms
    );
}

/// A hub over an embedded store holding `servers`.
async fn hub_of(dir: &std::path::Path, servers: Vec<(&str, McpTransport)>) -> McpHub {
    let store = Arc::new(EmbeddedStore::open(dir).unwrap());
    let now = chrono::Utc::now();
    for (name, transport) in servers {
        let server = McpServer {
            name: McpServerName::parse(name).unwrap(),
            transport,
            enabled: true,
            created_at: now,
            updated_at: now,
        };
        store.insert(&server).await.unwrap();
    }
    McpHub::new(store, McpConfig::default())
}

/// `CALLS` echo calls through the hub; their times.
async fn echo_calls(hub: &McpHub, server: &str, site: Option<&McpSite>) -> Vec<Duration> {
    let message = json!({ "message": "hi" }).as_object().unwrap().clone();
    let mut times = Vec::new();
    for _ in 0..MCP_CALLS {
        let started = Instant::now();
        hub.call(server, "echo", message.clone(), site).await.unwrap();
        times.push(started.elapsed());
    }
    times
}

/// MCP over Streamable HTTP: listing one server and five at once (first, then cached:
/// the servers read from the embedded store, the lists reused), an `echo` call straight
/// through the adapter, and the same call as a run's step (the session's run goes on
/// with the scripted `echo` calls).
async fn mcp(app: &TestApp, token: &str, session: &str, everything: &Everything) {
    let dir = tempfile::tempdir().unwrap();
    let http = || McpTransport::http(&everything.url, Default::default()).unwrap();
    let hub = hub_of(dir.path(), vec![("everything", http())]).await;
    let started = Instant::now();
    let status = hub.status(None).await;
    let first_list = started.elapsed();
    assert!(status[0].error.is_none(), "{status:?}");
    let mut cached = Vec::new();
    for _ in 0..MCP_CALLS {
        let started = Instant::now();
        hub.status(None).await;
        cached.push(started.elapsed());
    }
    let mut direct = echo_calls(&hub, "everything", None).await;
    let mut steps = step_times(app, token, session, "echo through MCP", MCP_CALLS).await;
    let (step, call) = (percentile(&mut steps, 0.5), percentile(&mut direct, 0.5));
    println!(
        "MCP list tools (HTTP):           first {:.1} ms (connect + list), then p50 {:.3} ms (cached)",
        ms(first_list),
        ms(percentile(&mut cached, 0.5))
    );
    println!(
        "MCP echo call (HTTP), adapter:   p50 {:.2} ms of {MCP_CALLS}",
        ms(call)
    );
    println!(
        "  the same call as a run's step:  p50 {:.2} ms (backend overhead {:.2} ms)",
        ms(step),
        ms(step.saturating_sub(call))
    );

    let dir = tempfile::tempdir().unwrap();
    let names = ["one", "two", "three", "four", "five"];
    let five = hub_of(dir.path(), names.iter().map(|name| (*name, http())).collect()).await;
    let started = Instant::now();
    let status = five.status(None).await;
    let first = started.elapsed();
    assert!(
        status.iter().all(|s| s.error.is_none() && !s.tools.is_empty()),
        "{status:?}"
    );
    let started = Instant::now();
    five.status(None).await;
    println!(
        "MCP list tools, 5 servers (HTTP): first {:.1} ms (target ≤ 300), then {:.3} ms (cached)",
        ms(first),
        ms(started.elapsed())
    );
}

/// An MCP stdio server in the session's sandbox (the reference server, uploaded and
/// unpacked there): started and listed, then echo calls relayed through tool-api.
async fn mcp_stdio(session: &str, manager: &Manager) {
    let tool_api = manager.tool_api(session).await;
    let dir = tempfile::tempdir().unwrap();
    tool_api
        .upload("mcp.tar.gz", true, packed_everything(dir.path()))
        .await
        .unwrap();
    let request = ExecRequest {
        command: UNPACK_EVERYTHING.into(),
        timeout_secs: Some(60.0),
        ..Default::default()
    };
    let unpacked = tool_api.exec("bench-mcp", &request).await.unwrap();
    assert_eq!(unpacked.exit_code, Some(0), "{}", unpacked.output);
    let stdio = McpTransport::Stdio {
        command: "node".into(),
        args: vec![EVERYTHING_IN_SANDBOX.into(), "stdio".into()],
        env: Default::default(),
    };
    let hub = hub_of(dir.path(), vec![("local", stdio)]).await;
    let site = McpSite {
        session: SessionId::parse(session).unwrap(),
        sandbox: SandboxAccess {
            tool_api_url: tool_api.base_url().to_owned(),
            tool_api_token: tool_api.token().to_owned(),
            shell: SandboxAccess::AGENT_SHELL.to_owned(),
            size: SandboxSize::default(),
        },
    };
    let started = Instant::now();
    let status = hub.status(Some(&site)).await;
    let first = started.elapsed();
    assert!(status[0].error.is_none(), "{status:?}");
    let mut calls = echo_calls(&hub, "local", Some(&site)).await;
    println!(
        "MCP stdio in the sandbox:        start + list {:.1} ms; echo call p50 {:.2} ms of {MCP_CALLS} (relayed by tool-api)",
        ms(first),
        ms(percentile(&mut calls, 0.5))
    );
}

/// A VNC connection as the benchmark drives it: bytes in, bytes out.
trait Wire {
    async fn send(&mut self, bytes: &[u8]);
    /// Some bytes (at least one).
    async fn receive(&mut self) -> Vec<u8>;
}

struct Relayed(tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>);

impl Wire for Relayed {
    async fn send(&mut self, bytes: &[u8]) {
        self.0.send(Message::Binary(bytes.to_vec().into())).await.unwrap();
    }

    async fn receive(&mut self) -> Vec<u8> {
        loop {
            match self.0.next().await.unwrap().unwrap() {
                Message::Binary(bytes) => return bytes.to_vec(),
                Message::Ping(_) | Message::Pong(_) => {}
                other => panic!("unexpected {other:?}"),
            }
        }
    }
}

struct Direct(Box<dyn DesktopStream>);

impl Wire for Direct {
    async fn send(&mut self, bytes: &[u8]) {
        self.0.write_all(bytes).await.unwrap();
    }

    async fn receive(&mut self) -> Vec<u8> {
        let mut chunk = vec![0u8; 256 * 1024];
        let n = self.0.read(&mut chunk).await.unwrap();
        assert!(n > 0, "the VNC server closed");
        chunk.truncate(n);
        chunk
    }
}

/// Reads exactly `n` bytes, keeping any surplus in `spare`.
async fn read_exact(wire: &mut impl Wire, spare: &mut Vec<u8>, n: usize) -> Vec<u8> {
    while spare.len() < n {
        spare.extend(wire.receive().await);
    }
    spare.drain(..n).collect()
}

/// Reads one FramebufferUpdate (raw rectangles, 4 bytes a pixel); returns its size.
async fn read_update(wire: &mut impl Wire, spare: &mut Vec<u8>) -> usize {
    let header = loop {
        match read_exact(wire, spare, 1).await[0] {
            0 => break [vec![0], read_exact(wire, spare, 3).await].concat(),
            2 => {} // Bell
            3 => {
                // ServerCutText: the clipboard changed in the sandbox.
                let header = read_exact(wire, spare, 7).await;
                let length = u32::from_be_bytes([header[3], header[4], header[5], header[6]]);
                read_exact(wire, spare, length as usize).await;
            }
            other => panic!("unexpected server message {other}"),
        }
    };
    let rectangles = u16::from_be_bytes([header[2], header[3]]);
    let mut size = 4;
    for _ in 0..rectangles {
        let rectangle = read_exact(wire, spare, 12).await;
        let width = usize::from(u16::from_be_bytes([rectangle[4], rectangle[5]]));
        let height = usize::from(u16::from_be_bytes([rectangle[6], rectangle[7]]));
        assert_eq!(&rectangle[8..12], &[0, 0, 0, 0], "raw encoding");
        read_exact(wire, spare, width * height * 4).await;
        size += 12 + width * height * 4;
    }
    size
}

fn update_request(width: u16, height: u16) -> Vec<u8> {
    let [w0, w1] = width.to_be_bytes();
    let [h0, h1] = height.to_be_bytes();
    vec![3, 0, 0, 0, 0, 0, w0, w1, h0, h1]
}

/// MB/s of full-screen raw updates pulled for a few seconds.
async fn throughput(wire: &mut impl Wire, width: u16, height: u16) -> f64 {
    // Raw encoding only: the server sends every pixel, 4 bytes each.
    wire.send(&[2, 0, 0, 1, 0, 0, 0, 0]).await;
    let mut spare = Vec::new();
    let started = Instant::now();
    let mut bytes = 0usize;
    while started.elapsed() < Duration::from_secs(RELAY_SECONDS) {
        wire.send(&update_request(width, height)).await;
        bytes += read_update(wire, &mut spare).await;
    }
    bytes as f64 / started.elapsed().as_secs_f64() / 1e6
}

/// One 1×1 update, requested and received.
async fn round_trip(wire: &mut impl Wire) -> Duration {
    let mut spare = Vec::new();
    let sent = Instant::now();
    wire.send(&update_request(1, 1)).await;
    read_update(wire, &mut spare).await;
    sent.elapsed()
}

async fn relay(app: &TestApp, token: &str, session: &str, manager: &Manager) {
    let mut relayed = Relayed(live::connect(app, token, session, "view").await);
    let mut spare = Vec::new();
    read_exact(&mut relayed, &mut spare, 12).await;
    relayed.send(b"RFB 003.008\n").await;
    read_exact(&mut relayed, &mut spare, 2).await;
    relayed.send(&[1]).await;
    read_exact(&mut relayed, &mut spare, 4).await;
    relayed.send(&[1]).await;
    while spare.len() < 24 {
        spare.extend(relayed.receive().await);
    }
    let width = u16::from_be_bytes([spare[0], spare[1]]);
    let height = u16::from_be_bytes([spare[2], spare[3]]);
    let name = u32::from_be_bytes([spare[20], spare[21], spare[22], spare[23]]) as usize;
    assert_eq!(spare[4], 32, "32 bits a pixel");
    read_exact(&mut relayed, &mut spare, 24 + name).await;
    let through_relay = throughput(&mut relayed, width, height).await;

    let client = manager.client();
    let query = sandbox_manager_client::contract::ListQuery {
        session_id: Some(session.to_owned()),
        ..Default::default()
    };
    let tool_api = client
        .list(&query)
        .await
        .unwrap()
        .pop()
        .unwrap()
        .tool_api
        .unwrap();
    let access = SandboxAccess {
        tool_api_url: tool_api.url,
        tool_api_token: tool_api.token,
        shell: SandboxAccess::AGENT_SHELL.to_owned(),
        size: SandboxSize::default(),
    };
    // The relay's own connector, without the relay.
    let mut direct = Direct(VncConnector.connect(&access).await.unwrap());
    direct.send(&[1]).await;
    let mut spare = Vec::new();
    while spare.len() < 24 {
        spare.extend(direct.receive().await);
    }
    let name = u32::from_be_bytes([spare[20], spare[21], spare[22], spare[23]]) as usize;
    read_exact(&mut direct, &mut spare, 24 + name).await;
    let straight = throughput(&mut direct, width, height).await;
    // Alternating, so both see the VNC server's own update pacing alike.
    let (mut relayed_trips, mut direct_trips) = (Vec::new(), Vec::new());
    for _ in 0..ROUND_TRIPS {
        relayed_trips.push(round_trip(&mut relayed).await);
        direct_trips.push(round_trip(&mut direct).await);
    }
    let relay_trip = percentile(&mut relayed_trips, 0.5);
    let direct_trip = percentile(&mut direct_trips, 0.5);
    println!(
        "VNC relay throughput:           {through_relay:.0} MB/s  (direct {straight:.0} MB/s; target ≥ 100)"
    );
    println!(
        "VNC relay added latency:        p50 {:.2} ms  (1×1 update round trip {:.2} ms relayed, {:.2} ms direct)",
        ms(relay_trip.saturating_sub(direct_trip)),
        ms(relay_trip),
        ms(direct_trip)
    );
}
