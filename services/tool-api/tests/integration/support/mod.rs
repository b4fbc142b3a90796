//! Starts the real tool-api on 127.0.0.1:0 over a fresh temporary workspace, and hands out
//! a typed client and a raw HTTP client for requests the typed one cannot make.
#![allow(dead_code)]
pub mod desktop;
pub mod mcp;
pub mod sandbox;
pub mod sse;
pub mod vnc;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tool_api::config::Settings;
use tool_api::Application;
use tool_api_client::ToolApiClient;

pub const TOKEN: &str = "test-token-0123456789abcdef";

pub struct TestApp {
    pub base: String,
    pub client: ToolApiClient,
    pub http: reqwest::Client,
    pub workspace: tempfile::TempDir,
}

impl TestApp {
    pub fn path(&self, relative: &str) -> PathBuf {
        self.workspace.path().join(relative)
    }

    pub fn root(&self) -> &Path {
        self.workspace.path()
    }

    /// A raw request with the token set.
    pub fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.http
            .request(method, format!("{}{}", self.base, path))
            .bearer_auth(TOKEN)
    }
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

pub async fn spawn_app_with(adjust: impl FnOnce(&mut Settings)) -> TestApp {
    // Server logs show with a failing test's output (RUST_LOG picks the level).
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_test_writer()
        .try_init();
    let workspace = tempfile::tempdir().expect("temporary workspace");
    let mut settings = Settings::local(workspace.path().to_path_buf(), Some(TOKEN.into()));
    adjust(&mut settings);
    let app = Application::build(settings).await.expect("server builds");
    let base = format!("http://{}", app.address());
    tokio::spawn(app.run_until_stopped());
    TestApp {
        client: ToolApiClient::new(&base, TOKEN),
        http: reqwest::Client::new(),
        base,
        workspace,
    }
}

/// The tool-api binary as the sandbox runs it, serving `workspace` on a free port of
/// loopback, with the address it listens on (read from its log, which is then drained).
pub fn spawn_binary(workspace: &Path) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_tool-api"))
        .env("SANDBOX_TOKEN", TOKEN)
        .env("TOOL_API_HOST", "127.0.0.1")
        .env("TOOL_API_PORT", "0")
        .env("TOOL_API_WORKSPACE", workspace)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut log = std::io::BufReader::new(server.stderr.take().unwrap());
    let address = loop {
        let mut line = String::new();
        assert!(
            log.read_line(&mut line).unwrap() > 0,
            "server exited before listening"
        );
        if let Some(at) = line.find("address=") {
            break line[at + "address=".len()..]
                .split_whitespace()
                .next()
                .unwrap()
                .to_owned();
        }
    };
    std::thread::spawn(move || std::io::copy(&mut log, &mut std::io::sink()));
    (server, address)
}

/// Asserts that `result` is an API error with `code`, and returns its message.
pub fn expect_code<T: std::fmt::Debug>(
    result: Result<T, tool_api_client::ClientError>,
    code: tool_api_contract::ErrorCode,
) -> String {
    match result {
        Err(tool_api_client::ClientError::Api { status, body }) => {
            assert_eq!(body.error.code, code, "unexpected error: {}", body.error.message);
            assert_eq!(status, code.status());
            body.error.message
        }
        other => panic!("expected {code:?}, got {other:?}"),
    }
}

/// Waits until `done` holds, failing with `what` after 5 s.
pub async fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !done() {
        assert!(Instant::now() < deadline, "{what} within 5 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The output of the command running in shell session `session` once it has printed
/// `lines` lines (its start can take a while on a loaded machine), failing after 30 s.
pub async fn output_of(client: &ToolApiClient, session: &str, lines: usize) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let output = client.view(session, false).await.unwrap().output;
        if output.lines().count() >= lines {
            return output;
        }
        assert!(
            Instant::now() < deadline,
            "{session} printed {output:?}, not {lines} lines, within 30 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Whether `pid` can still run: a zombie has exited, and only its parent's wait is left.
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|stat| {
            stat.rsplit(')')
                .next()
                .is_some_and(|rest| !rest.trim_start().starts_with('Z'))
        })
        .unwrap_or(false)
}
