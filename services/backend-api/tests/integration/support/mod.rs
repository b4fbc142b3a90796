//! Starts the real backend on 127.0.0.1:0 over a temporary data directory and speaks
//! HTTP to it. A test may stop a server and start another on the same data (a restart).
//!
//! The stores are the embedded default unless `BACKEND_TEST_STORES=mongodb-redis`: then
//! every server uses the MongoDB at `TEST_MONGODB_URI` and the Redis at `TEST_REDIS_URL`
//! (`./test.sh` starts both and runs the suite both ways), with a database and a key
//! prefix named after its data directory — so tests stay apart, and a restart on the
//! same directory finds the same data.
//!
//! # Layout
//!
//! - this file: the settings, and `TestApp`, a server and its raw calls;
//! - `calls.rs`: the calls tests make most (an account, a job, a session's turns, a stop);
//! - `sse.rs`: event streams read event by event;
//! - `fake_llm.rs`: a scripted model server; `mcp_servers.rs`: MCP servers;
//! - `manager.rs`: a real sandbox-manager; `process.rs`: the backend as its own process;
//! - `servers.rs`: MongoDB-wire and Redis servers of a test's own; `live.rs`: the live
//!   desktop and terminal from a client's side.
#![allow(dead_code)]

mod calls;
pub mod fake_llm;
pub mod live;
pub mod manager;
pub mod mcp_servers;
pub mod process;
pub mod servers;
pub mod signatures;
mod sse;

pub use sse::SseStream;

use std::path::{Path, PathBuf};
use std::time::Duration;

use backend_api::config::Settings;
use backend_api::Application;
use reqwest::{Client, Method, Response, StatusCode};
use serde_json::Value;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub const PASSWORD: &str = "correct horse battery";

/// The cookie that carries the refresh token.
pub const REFRESH_COOKIE: &str = "sandpiper_refresh";

/// The `Set-Cookie` lines of an answer that name the refresh cookie.
pub fn refresh_cookie_lines(response: &Response) -> Vec<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .filter(|line| line.starts_with(&format!("{REFRESH_COOKIE}=")))
        .collect()
}

/// The refresh token an answer set in its cookie (absent when it set none, or cleared it).
pub fn refresh_cookie(response: &Response) -> Option<String> {
    let lines = refresh_cookie_lines(response);
    let value = lines.first()?.split(';').next()?.split_once('=')?.1.to_owned();
    (!value.is_empty()).then_some(value)
}

/// The shared stores the suite runs against, when it is asked to: `(MongoDB, Redis)`.
pub fn shared_stores() -> Option<(String, String)> {
    match std::env::var("BACKEND_TEST_STORES").as_deref() {
        Ok("mongodb-redis") => {
            let need = |name: &str| {
                std::env::var(name)
                    .unwrap_or_else(|_| panic!("BACKEND_TEST_STORES=mongodb-redis needs {name}"))
            };
            Some((need("TEST_MONGODB_URI"), need("TEST_REDIS_URL")))
        }
        Ok("embedded") | Err(_) => None,
        Ok(other) => panic!("BACKEND_TEST_STORES is 'embedded' or 'mongodb-redis', not '{other}'"),
    }
}

/// A name for this data directory's database and key prefix.
pub fn store_name(data_dir: &Path) -> String {
    let dir = data_dir.file_name().unwrap_or_default().to_string_lossy();
    let name: String = dir.chars().filter(char::is_ascii_alphanumeric).collect();
    format!("test_{name}")
}

/// Settings for a test server: cheap Argon2 (its cost is not under test here), the
/// stores the suite runs against, then `overrides` as `("auth.mode", "none")` pairs.
pub fn settings(data_dir: &Path, overrides: &[(&str, &str)]) -> Settings {
    let mut builder = config::Config::builder();
    for (key, value) in setting_pairs(data_dir, overrides) {
        builder = builder.set_override(key, value).unwrap();
    }
    builder
        .build()
        .and_then(|c| c.try_deserialize())
        .unwrap_or_else(|err| panic!("test settings: {err}"))
}

/// What [`settings`] sets, as `(key, value)` pairs (later ones win).
pub fn setting_pairs(data_dir: &Path, overrides: &[(&str, &str)]) -> Vec<(String, String)> {
    let name = store_name(data_dir);
    let prefix = format!("{name}:");
    let mut pairs = vec![
        ("host", "127.0.0.1"),
        ("port", "0"),
        ("environment", "development"),
        ("data_dir", data_dir.to_str().expect("a UTF-8 temporary path")),
        ("mongodb_database", &name),
        ("redis_key_prefix", &prefix),
        ("auth.argon2_memory_kib", "256"),
        ("auth.argon2_iterations", "1"),
        // Suites make several people at will; the default (invite) is under test in
        // `registration`.
        ("auth.registration", "open"),
        // The event-log suites count events exactly: no agent answers their messages
        // unless a test turns it on.
        ("agent.enabled", "false"),
    ];
    let shared = shared_stores();
    if let Some((mongodb, redis)) = &shared {
        pairs.push(("mongodb_uri", mongodb));
        pairs.push(("redis_url", redis));
    }
    pairs
        .iter()
        .chain(overrides)
        .map(|(key, value)| (key.to_string(), value.to_string()))
        .collect()
}

/// `(key, value)` settings as [`TestApp::spawn`] takes them.
pub fn borrowed<'a>(settings: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    settings.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

pub struct TestApp {
    pub base: String,
    pub http: Client,
    pub data_dir: PathBuf,
    stop: Option<oneshot::Sender<()>>,
    served: Option<JoinHandle<anyhow::Result<()>>>,
    _temp: Option<tempfile::TempDir>,
}

impl TestApp {
    /// A fresh server with its own data directory.
    pub async fn spawn(overrides: &[(&str, &str)]) -> Self {
        let temp = tempfile::tempdir().unwrap();
        let mut app = Self::spawn_on(temp.path(), overrides).await;
        app._temp = Some(temp);
        app
    }

    /// A server over an existing data directory.
    pub async fn spawn_on(data_dir: &Path, overrides: &[(&str, &str)]) -> Self {
        Self::serve(data_dir, settings(data_dir, overrides)).await
    }

    /// A server with these settings over an existing data directory.
    pub async fn serve(data_dir: &Path, settings: Settings) -> Self {
        let app = Application::build(settings).await.expect("the server starts");
        let base = format!("http://{}", app.address());
        let (stop, stopped) = oneshot::channel::<()>();
        let served = tokio::spawn(app.run_until(async move {
            let _ = stopped.await;
        }));
        Self {
            base,
            http: Client::new(),
            data_dir: data_dir.to_owned(),
            stop: Some(stop),
            served: Some(served),
            _temp: None,
        }
    }

    /// A client of a server started elsewhere (a backend process).
    pub fn client_of(base: &str) -> Self {
        Self {
            base: base.to_owned(),
            http: Client::new(),
            data_dir: PathBuf::new(),
            stop: None,
            served: None,
            _temp: None,
        }
    }

    /// Graceful shutdown; returns once the server (and its store) is closed.
    pub async fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(served) = self.served.take() {
            tokio::time::timeout(Duration::from_secs(10), served)
                .await
                .expect("the server stops within 10 s")
                .unwrap()
                .unwrap();
        }
    }

    /// Keeps the data directory alive after this server stops (for a restart).
    pub fn take_data(&mut self) -> Option<tempfile::TempDir> {
        self._temp.take()
    }

    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Response {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        request.send().await.unwrap()
    }

    /// Calls and checks the status; returns the JSON body (Null when empty).
    pub async fn expect(
        &self,
        status: StatusCode,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Value {
        let response = self.call(method.clone(), path, token, body).await;
        let got = response.status();
        let text = response.text().await.unwrap();
        assert_eq!(got, status, "{method} {path}: {text}");
        if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or_else(|_| panic!("{method} {path} is not JSON: {text}"))
        }
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}
