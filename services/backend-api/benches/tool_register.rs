//! Benchmark of `tool_register`, against the real sandbox-manager, Docker and the sandbox
//! image, with a scripted model that answers at once: how long registering a server the
//! agent wrote takes (the call's `calling` → `called` by the log's clock: the server
//! started in the sandbox through tool-api's relay, its tools listed and checked, the
//! registration stored), next to the server's own start-up (the same command answering
//! `initialize` from a pipe inside the sandbox, timed there). The difference is what the
//! backend adds before the tools are offered — from the very next model request. Two
//! servers, each in a chat of its own: plain JSON-RPC lines in Node.js, and one written
//! with the official MCP SDK for Python (FastMCP), copied into the sandbox from
//! `tests/mcp-servers/python-packages` (which `./test.sh` installs).
//!
//! Run with `cargo bench -p backend-api --bench tool_register`. Target: register p50 ≤ 1 s
//! after the server's own start-up.

#[path = "../tests/integration/support/mod.rs"]
mod support;

use std::time::Duration;

use chrono::{DateTime, FixedOffset};
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::manager::Manager;
use support::mcp_servers::{packed_python_sdk, upload, PYTHON_SDK_IN_SANDBOX, UNPACK_PYTHON_SDK};
use support::{borrowed, TestApp};
use tool_api_client::contract::shell::ExecRequest;

/// Registrations timed (one session, the same name registered again each time).
const ROUNDS: usize = 20;

/// The server the agent writes: plain JSON-RPC lines, one tool.
const GREETER: &str = r#"const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return;
  if (method === "initialize") {
    send({ id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "greeter", version: "1" } } });
  } else if (method === "tools/list") {
    send({ id, result: { tools: [{ name: "greet", description: "Greets", inputSchema: { type: "object" } }] } });
  } else {
    send({ id, error: { code: -32601, message: "unknown method" } });
  }
});
"#;

/// The same server with FastMCP.
const FAST_GREETER: &str = r#"from mcp.server.fastmcp import FastMCP

mcp = FastMCP("greeter")


@mcp.tool()
def greet() -> str:
    """Greets"""
    return "hello"


mcp.run()
"#;

/// The server's own start-up, `ROUNDS` times, in microseconds: `COMMAND` started on a
/// pipe holding `initialize`, until its answer.
const OWN_START: &str = r#"init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}'
for i in $(seq ROUNDS); do s=$(date +%s%N); printf '%s\n' "$init" | COMMAND | head -n 1 >/dev/null; e=$(date +%s%N); echo $(( (e - s) / 1000 )); done"#;

/// A server the agent writes, and how it is started.
struct Server {
    label: &'static str,
    path: &'static str,
    source: &'static str,
    command: &'static str,
    args: Vec<String>,
    /// Whether it needs the MCP SDK for Python in the workspace.
    python_sdk: bool,
}

impl Server {
    fn node() -> Self {
        Self {
            label: "Node.js, JSON-RPC lines",
            path: "tools/greeter.js",
            source: GREETER,
            command: "node",
            args: vec!["tools/greeter.js".into()],
            python_sdk: false,
        }
    }

    fn fastmcp() -> Self {
        Self {
            label: "Python, FastMCP",
            path: "tools/greeter.py",
            source: FAST_GREETER,
            command: "env",
            args: vec![
                format!("PYTHONPATH={PYTHON_SDK_IN_SANDBOX}"),
                "python3".into(),
                "tools/greeter.py".into(),
            ],
            python_sdk: true,
        }
    }

    /// What the scripted model says in the server's chat: write it, register it
    /// `ROUNDS` times, done.
    fn script(&self) -> Vec<Reply> {
        let register = json!({ "name": "greeter", "command": self.command, "args": self.args });
        let mut script = vec![Reply::tool(
            "file_write",
            json!({ "path": self.path, "content": self.source }),
        )];
        script.extend((0..ROUNDS).map(|_| Reply::tool("tool_register", register.clone())));
        script.push(Reply::Text("done"));
        script
    }
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn logged_at(event: &Value) -> DateTime<FixedOffset> {
    DateTime::parse_from_rfc3339(event["at"].as_str().unwrap()).unwrap()
}

#[tokio::main]
async fn main() {
    let servers = [Server::node(), Server::fastmcp()];
    let llm = FakeLlm::start(servers.iter().flat_map(Server::script).collect()).await;
    let manager = Manager::start();
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    let app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("bench@example.org").await;
    let packages = tempfile::tempdir().unwrap();
    for server in &servers {
        let session = app.new_session(&token).await;
        if server.python_sdk {
            let sdk = packed_python_sdk(packages.path());
            upload(&app, &token, &session, "python-sdk.tar.gz", sdk).await;
            let tool_api = manager.tool_api(&session).await;
            let unpack = ExecRequest {
                command: UNPACK_PYTHON_SDK.into(),
                ..Default::default()
            };
            let unpacked = tool_api.exec("bench-unpack", &unpack).await.unwrap();
            assert!(unpacked.output.contains("unpacked"), "{}", unpacked.output);
        }
        let mut registers = registrations(&app, &token, &session).await;
        let offered = llm
            .requests()
            .last()
            .map(|request| request["tools"].to_string().contains("mcp__greeter__greet"));
        assert_eq!(offered, Some(true), "the next request offers the tool");
        let mut own = own_start(&manager, &session, server).await;
        let (register_p50, own_p50) = (percentile(&mut registers, 0.5), percentile(&mut own, 0.5));
        println!("{}:", server.label);
        println!(
            "  tool_register (start + list + store), {ROUNDS} rounds: p50 {:.1} ms, p95 {:.1} ms",
            ms(register_p50),
            ms(percentile(&mut registers, 0.95))
        );
        println!(
            "  the server's own start-up in the sandbox:          p50 {:.1} ms",
            ms(own_p50)
        );
        println!(
            "  added by the backend (target p50 ≤ 1,000 ms):      p50 {:.1} ms",
            ms(register_p50.saturating_sub(own_p50))
        );
    }
}

/// The session's turn, "Make a tool": how long each `tool_register` call took.
async fn registrations(app: &TestApp, token: &str, session: &str) -> Vec<Duration> {
    let seq = app.post_message(token, session, "Make a tool").await;
    let mut stream = app.events(token, session, Some(seq)).await;
    let mut registers = Vec::new();
    let mut calling = None;
    while registers.len() < ROUNDS {
        let event = tokio::time::timeout(Duration::from_secs(120), stream.next_or_end())
            .await
            .expect("an event within 120 s")
            .expect("the stream is open");
        let data: Value = serde_json::from_str(&event.data).unwrap();
        let logged = &data["event"];
        if logged["type"] != "tool" || logged["name"] != "tool_register" {
            continue;
        }
        if logged["status"] == "calling" {
            calling = Some(logged_at(&data));
        } else {
            assert_eq!(logged["view"]["error"], Value::Null, "refused: {logged}");
            let took = logged_at(&data) - calling.take().expect("called after calling");
            registers.push(took.to_std().unwrap_or_default());
        }
    }
    registers
}

/// `server`'s own start-up in the session's sandbox, `ROUNDS` times.
async fn own_start(manager: &Manager, session: &str, server: &Server) -> Vec<Duration> {
    let command = std::iter::once(server.command)
        .chain(server.args.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    let tool_api = manager.tool_api(session).await;
    let request = ExecRequest {
        command: OWN_START
            .replace("ROUNDS", &ROUNDS.to_string())
            .replace("COMMAND", &command),
        timeout_secs: Some(120.0),
        ..Default::default()
    };
    let timed = tool_api.exec("bench-own-start", &request).await.unwrap();
    let own: Vec<Duration> = timed
        .output
        .lines()
        .filter_map(|line| line.trim().parse().ok())
        .map(Duration::from_micros)
        .collect();
    assert_eq!(own.len(), ROUNDS, "{}", timed.output);
    own
}
