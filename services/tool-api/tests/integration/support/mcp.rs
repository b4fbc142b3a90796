//! Talking MCP to a stdio server through the client's relay, as backend-api does:
//! JSON-RPC requests out, answers matched by id, notifications in between passed over.
//! The server is the published reference server (`server-everything`), installed in the
//! repository's `tests/mcp-servers` by `./test.sh`.

use std::path::PathBuf;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tool_api_client::{McpStdio, StdioSink, StdioStream};
use tool_api_contract::mcp::StdioStart;

/// The longest an answer may take (Node.js starts in well under a second).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);

/// `tests/mcp-servers` on this machine, with its `node_modules` installed.
pub fn servers_dir() -> PathBuf {
    let dir = super::sandbox::in_repository("tests/mcp-servers");
    assert!(
        dir.join("node_modules").join(EVERYTHING).exists(),
        "{} is missing: run ./test.sh --prepare (or npm ci in tests/mcp-servers)",
        dir.join("node_modules").join(EVERYTHING).display()
    );
    dir
}

/// The reference server's entry point, relative to a `node_modules` directory.
pub const EVERYTHING: &str = "@modelcontextprotocol/server-everything/dist/index.js";

/// Runs the reference server at `script` over stdio.
pub fn everything(script: &str) -> StdioStart {
    StdioStart {
        command: "node".into(),
        args: vec![script.into(), "stdio".into()],
        ..Default::default()
    }
}

/// `sh -c script`.
pub fn shell(script: &str) -> StdioStart {
    StdioStart {
        command: "sh".into(),
        args: vec!["-c".into(), script.into()],
        ..Default::default()
    }
}

/// The next message, which must come within [`ANSWER_TIMEOUT`].
pub async fn next_message(stream: &mut StdioStream) -> Option<Value> {
    let next = tokio::time::timeout(ANSWER_TIMEOUT, stream.next())
        .await
        .expect("a message or the end within the timeout")?;
    let text = next.expect("the relay works");
    Some(serde_json::from_str(&text).unwrap_or_else(|err| panic!("not JSON ({err}): {text}")))
}

pub struct Session {
    sink: StdioSink,
    stream: StdioStream,
    next_id: u64,
}

impl Session {
    pub fn new(relay: McpStdio) -> Self {
        let (sink, stream) = relay.split();
        Self {
            sink,
            stream,
            next_id: 1,
        }
    }

    /// Sends a request and returns its result; an error answer fails the test.
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.sink.send(request.to_string()).await.unwrap();
        loop {
            let message = next_message(&mut self.stream).await;
            let message = message.unwrap_or_else(|| {
                panic!(
                    "the relay ended before the answer to {method}: {:?}",
                    self.stream.close_reason().get()
                )
            });
            if message["id"] == json!(id) {
                assert!(message["error"].is_null(), "{method} failed: {message}");
                return message["result"].clone();
            }
        }
    }

    pub async fn notify(&mut self, method: &str) {
        let notification = json!({"jsonrpc": "2.0", "method": method});
        self.sink.send(notification.to_string()).await.unwrap();
    }
}

/// The handshake, the tool list and one tool call, each answer checked.
pub async fn exercise_everything(session: &mut Session) {
    let initialized = session
        .request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "sandpiper-tests", "version": "1"}
            }),
        )
        .await;
    assert_eq!(
        initialized["serverInfo"]["name"], "mcp-servers/everything",
        "{initialized}"
    );
    session.notify("notifications/initialized").await;
    let tools = session.request("tools/list", json!({})).await;
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .expect("a tool list")
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    assert!(names.contains(&"echo"), "{names:?}");
    let echoed = session
        .request(
            "tools/call",
            json!({"name": "echo", "arguments": {"message": "hello from the sandbox"}}),
        )
        .await;
    assert_eq!(
        echoed["content"][0]["text"], "Echo: hello from the sandbox",
        "{echoed}"
    );
}
