//! The agent acting in a real sandbox: the real backend, the real sandbox-manager binary
//! against the Docker engine with the sandbox image, and a scripted model. A run that
//! plans, writes a file and runs it in the shell; stop in the middle of a command (the
//! command is killed); deleting the session removes its sandbox.
//!
//! Needs the Docker engine and the sandbox-manager binary (built by `cargo test
//! --workspace`, or `cargo build -p sandbox-manager`).

#[path = "../../tool-api/tests/support/sandbox.rs"]
mod sandbox;
mod support;

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use sandbox_manager_client::contract::ListQuery;
use sandbox_manager_client::SandboxManagerClient;
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::{SseStream, TestApp};
use tool_api_client::contract::shell::CommandState;
use tool_api_client::ToolApiClient;

const TOKEN: &str = "backend-test-manager-token-0123";

/// A sandbox-manager process in a namespace of its own; dropping it kills it and removes
/// the namespace's containers.
struct Manager {
    child: Child,
    namespace: String,
    base: String,
    _data: tempfile::TempDir,
}

impl Manager {
    fn start() -> Self {
        let binary = std::env::current_exe()
            .unwrap()
            .parent()
            .unwrap()
            .parent()
            .unwrap()
            .join("sandbox-manager");
        assert!(
            binary.exists(),
            "{} is missing: `cargo build -p sandbox-manager` (or run the workspace's tests)",
            binary.display()
        );
        let (image, _) = sandbox::image();
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let data = tempfile::tempdir().unwrap();
        let namespace = format!("b{}", std::process::id());
        let child = Command::new(binary)
            .env("SANDBOX_MANAGER_TOKEN", TOKEN)
            .env("SANDBOX_MANAGER_PORT", port.to_string())
            .env("SANDBOX_MANAGER_DATA_DIR", data.path())
            .env("SANDBOX_MANAGER_NAMESPACE", &namespace)
            .env("SANDBOX_MANAGER_POOL__SIZE", "0")
            .env("SANDBOX_MANAGER_SANDBOX__READY_TIMEOUT_SECS", "90")
            .env("SANDBOX_IMAGE", image)
            .stdin(Stdio::null())
            .spawn()
            .expect("the sandbox-manager starts");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "the manager did not answer within 20 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Self {
            child,
            namespace,
            base: format!("http://127.0.0.1:{port}"),
            _data: data,
        }
    }

    fn client(&self) -> SandboxManagerClient {
        SandboxManagerClient::new(&self.base, TOKEN)
    }

    /// The session's sandbox's own tool-api, to check what the agent did.
    async fn tool_api(&self, session: &str) -> ToolApiClient {
        let query = ListQuery {
            session_id: Some(session.to_owned()),
            ..Default::default()
        };
        let sandbox = self
            .client()
            .list(&query)
            .await
            .unwrap()
            .pop()
            .expect("the session has a sandbox");
        let access = sandbox.tool_api.expect("a running sandbox");
        ToolApiClient::new(access.url, access.token)
    }
}

impl Drop for Manager {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let filter = format!("label=org.sandpiper.manager={}", self.namespace);
        if let Ok(ids) = Command::new("docker")
            .args(["ps", "-aq", "--filter", &filter])
            .output()
        {
            for id in String::from_utf8_lossy(&ids.stdout).split_whitespace() {
                let _ = Command::new("docker").args(["rm", "-f", "-v", id]).output();
            }
        }
    }
}

async fn backend(llm: &FakeLlm, manager: &Manager) -> TestApp {
    let mut settings = llm.settings();
    settings.push(("sandbox.manager_url", manager.base.clone()));
    settings.push(("sandbox.manager_token", TOKEN.into()));
    let overrides: Vec<(&str, &str)> = settings.iter().map(|(k, v)| (*k, v.as_str())).collect();
    TestApp::spawn(&overrides).await
}

/// Events until one matches `last` (inclusive).
async fn until(stream: &mut SseStream, last: impl Fn(&Value) -> bool) -> Vec<Value> {
    let mut events = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(
            Instant::now() < deadline,
            "no matching event within 2 min: {events:?}"
        );
        let Some(event) = tokio::time::timeout(Duration::from_secs(5), stream.next_or_end())
            .await
            .ok()
        else {
            continue;
        };
        let event = event.expect("the stream is open");
        let data: Value = serde_json::from_str(&event.data).unwrap();
        let done = last(&data["event"]);
        events.push(data["event"].clone());
        if done {
            return events;
        }
    }
}

#[tokio::test]
async fn the_agent_writes_a_file_runs_it_and_is_stopped_mid_command() {
    let llm = FakeLlm::start(vec![
        Reply::Tools(vec![(
            "plan_update",
            json!({ "steps": [{ "id": "1", "description": "Write and run a script" }] }).to_string(),
        )]),
        Reply::Tools(vec![(
            "file_write",
            json!({ "path": "hello.py", "content": "print('hello from the sandbox')\n" }).to_string(),
        )]),
        Reply::Tools(vec![(
            "shell_exec",
            json!({ "command": "python3 hello.py" }).to_string(),
        )]),
        Reply::Text("It printed: hello from the sandbox"),
        // The second turn: a command that would run for ten minutes.
        Reply::Tools(vec![(
            "shell_exec",
            json!({ "command": "sleep 600", "timeout_secs": 600 }).to_string(),
        )]),
    ])
    .await;
    let manager = Manager::start();
    let app = backend(&llm, &manager).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;

    app.post_message(&token, &id, "Write hello.py and run it").await;
    let events = until(&mut stream, |e| e["type"] == "status" && e["status"] != "running").await;
    let tools: Vec<&Value> = events.iter().filter(|e| e["type"] == "tool").collect();
    assert_eq!(tools.len(), 4, "calling and called for each tool: {events:#?}");
    assert_eq!(tools[0]["status"], "calling");
    assert_eq!(tools[1]["name"], "file_write");
    assert_eq!(tools[1]["view"]["kind"], "file");
    assert_eq!(tools[3]["name"], "shell_exec");
    assert_eq!(tools[3]["view"]["kind"], "shell");
    assert!(
        tools[3]["view"]["output"]
            .as_str()
            .unwrap()
            .contains("hello from the sandbox"),
        "{}",
        tools[3]
    );
    assert_eq!(events.last().unwrap()["status"], "completed");
    // The model read the command's real output.
    let fourth = &llm.requests()[3];
    let result = fourth["messages"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|m| m["role"] == "tool")
        .unwrap();
    assert!(
        result["content"]
            .as_str()
            .unwrap()
            .contains("hello from the sandbox"),
        "{result}"
    );
    // The file is in the sandbox.
    let tool_api = manager.tool_api(&id).await;
    let listing = tool_api.list(".").await.unwrap();
    assert!(listing.entries.iter().any(|e| e.name == "hello.py"));

    // Stop while `sleep 600` runs: answered within a second, the command killed.
    app.post_message(&token, &id, "Now wait ten minutes").await;
    until(&mut stream, |e| e["type"] == "tool" && e["status"] == "calling").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let started = Instant::now();
    let stopped = app
        .expect(
            StatusCode::OK,
            Method::POST,
            &format!("/api/v1/sessions/{id}/stop"),
            Some(&token),
            None,
        )
        .await;
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "stopped in {:?}",
        started.elapsed()
    );
    assert_eq!(stopped["status"], "completed");
    let shell = tool_api.view("agent", false).await.unwrap();
    assert_ne!(
        shell.state,
        CommandState::Running,
        "the command was killed: {shell:?}"
    );

    // Deleting the session removes its sandbox.
    app.expect(
        StatusCode::NO_CONTENT,
        Method::DELETE,
        &format!("/api/v1/sessions/{id}"),
        Some(&token),
        None,
    )
    .await;
    let query = ListQuery {
        session_id: Some(id.clone()),
        ..Default::default()
    };
    let left = manager.client().list(&query).await.unwrap();
    assert!(left.iter().all(|s| !s.state.is_live()), "{left:?}");
}
