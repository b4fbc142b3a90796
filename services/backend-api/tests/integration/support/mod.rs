//! Starts the real backend on 127.0.0.1:0 over a temporary data directory and speaks
//! HTTP to it. A test may stop a server and start another on the same data (a restart).
//!
//! The stores are the embedded default unless `BACKEND_TEST_STORES=mongodb-redis`: then
//! every server uses the MongoDB at `TEST_MONGODB_URI` and the Redis at `TEST_REDIS_URL`
//! (`./test.sh` starts both and runs the suite both ways), with a database and a key
//! prefix named after its data directory — so tests stay apart, and a restart on the
//! same directory finds the same data.
#![allow(dead_code)]

pub mod fake_llm;
pub mod live;
pub mod manager;
pub mod mcp_servers;
pub mod process;
pub mod servers;

use std::path::{Path, PathBuf};
use std::time::Duration;

use backend_api::config::Settings;
use backend_api::Application;
use futures::StreamExt;
use reqwest::{Client, Method, Response, StatusCode};
use serde_json::{json, Value};
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

    /// Registers an account; returns (access token, refresh cookie, user id).
    pub async fn register(&self, email: &str) -> (String, String, String) {
        let response = self
            .call(
                Method::POST,
                "/api/v1/auth/register",
                None,
                Some(json!({ "email": email, "password": PASSWORD })),
            )
            .await;
        assert_eq!(response.status(), StatusCode::CREATED, "register {email}");
        let refresh = refresh_cookie(&response).expect("registering sets the refresh cookie");
        let body: Value = response.json().await.unwrap();
        (
            body["tokens"]["access_token"].as_str().unwrap().to_owned(),
            refresh,
            body["user"]["id"].as_str().unwrap().to_owned(),
        )
    }

    /// `POST /auth/refresh` as the app sends it: `{}` as JSON, with this refresh cookie.
    pub async fn refresh(&self, cookie: &str) -> Response {
        self.http
            .post(format!("{}/api/v1/auth/refresh", self.base))
            .header("cookie", format!("{REFRESH_COOKIE}={cookie}"))
            .json(&json!({}))
            .send()
            .await
            .unwrap()
    }

    /// Creates a job (`POST /jobs`, expecting `201`).
    pub async fn create_job(&self, token: &str, body: Value) -> Value {
        self.expect(
            StatusCode::CREATED,
            Method::POST,
            "/api/v1/jobs",
            Some(token),
            Some(body),
        )
        .await
    }

    /// The job as `GET /jobs/{id}` gives it.
    pub async fn job(&self, token: &str, id: &str) -> Value {
        let path = format!("/api/v1/jobs/{id}");
        self.expect(StatusCode::OK, Method::GET, &path, Some(token), None)
            .await
    }

    /// Polls the job until it is in `status`; fails the test after 120 s.
    pub async fn until_job(&self, token: &str, id: &str, status: &str) -> Value {
        let start = std::time::Instant::now();
        loop {
            let job = self.job(token, id).await;
            if job["status"] == status {
                return job;
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "the job never became {status}: {job:#}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Makes a `jobs` API key for the account `token` signs in to; the key's secret.
    pub async fn jobs_key(&self, token: &str) -> String {
        let key = self
            .expect(
                StatusCode::CREATED,
                Method::POST,
                "/api/v1/api-keys",
                Some(token),
                Some(json!({ "name": "script", "scope": "jobs" })),
            )
            .await;
        key["key"].as_str().unwrap().to_owned()
    }

    /// Waits until the first API key of the account `token` signs in to lists `tokens`:
    /// a job's tokens are added just after its end is stored, so maybe a moment after
    /// it shows. Fails the test after 30 s.
    pub async fn until_key_tokens(&self, token: &str, tokens: &Value) {
        let start = std::time::Instant::now();
        loop {
            let keys = self
                .expect(StatusCode::OK, Method::GET, "/api/v1/api-keys", Some(token), None)
                .await;
            if &keys[0]["tokens"] == tokens {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the key never showed {tokens}: {keys}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn new_session(&self, token: &str) -> String {
        let body = self
            .expect(
                StatusCode::CREATED,
                Method::POST,
                "/api/v1/sessions",
                Some(token),
                None,
            )
            .await;
        body["id"].as_str().unwrap().to_owned()
    }

    pub async fn post_message(&self, token: &str, session: &str, content: &str) -> u64 {
        let path = format!("/api/v1/sessions/{session}/messages");
        let body = self
            .expect(
                StatusCode::CREATED,
                Method::POST,
                &path,
                Some(token),
                Some(json!({ "content": content })),
            )
            .await;
        body["seq"].as_u64().unwrap()
    }

    /// The session as `GET /sessions/{id}` gives it.
    pub async fn session(&self, token: &str, id: &str) -> Value {
        let path = format!("/api/v1/sessions/{id}");
        self.expect(StatusCode::OK, Method::GET, &path, Some(token), None)
            .await
    }

    /// Posts `content` and returns the turn's events, up to its final status.
    pub async fn turn(&self, token: &str, id: &str, content: &str) -> Vec<Value> {
        let before = self.session(token, id).await["last_seq"].as_u64().unwrap();
        let mut stream = self.events(token, id, Some(before)).await;
        self.post_message(token, id, content).await;
        stream
            .until(Duration::from_secs(120), |e| {
                e["type"] == "status"
                    && ["completed", "failed", "waiting"].contains(&e["status"].as_str().unwrap())
            })
            .await
    }

    /// Stops the session's run and checks that the answer did not wait for the work it
    /// stops (the callers stop a model request that never ends or a `sleep 600`); returns
    /// the session as the answer gives it. How fast a stop answers is the benchmarks'
    /// business: a bound of a second failed on a loaded machine.
    pub async fn stop_run(&self, token: &str, session: &str) -> Value {
        let started = std::time::Instant::now();
        let stopped = self
            .expect(
                StatusCode::OK,
                Method::POST,
                &format!("/api/v1/sessions/{session}/stop"),
                Some(token),
                None,
            )
            .await;
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the stop waited for the work it stops: {:?}",
            started.elapsed()
        );
        stopped
    }

    /// Opens a session's event stream (optionally resuming) and returns its SSE events.
    pub async fn events(&self, token: &str, session: &str, last_event_id: Option<u64>) -> SseStream {
        let mut request = self
            .http
            .get(format!("{}/api/v1/sessions/{session}/events", self.base))
            .bearer_auth(token);
        if let Some(id) = last_event_id {
            request = request.header("Last-Event-ID", id.to_string());
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        SseStream::from_response(response)
    }
}

impl TestApp {
    /// Opens the live list of the caller's sessions.
    pub async fn session_changes(&self, token: &str) -> SseStream {
        let response = self
            .http
            .get(format!("{}/api/v1/sessions/stream", self.base))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        SseStream::from_response(response)
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

type Inner = futures::stream::BoxStream<
    'static,
    Result<eventsource_stream::Event, eventsource_stream::EventStreamError<reqwest::Error>>,
>;

pub struct SseStream {
    inner: Inner,
}

impl SseStream {
    pub fn from_response(response: Response) -> Self {
        Self {
            inner: eventsource_stream::EventStream::new(response.bytes_stream()).boxed(),
        }
    }

    /// The next event, or `None` when the server ended the stream.
    pub async fn next_or_end(&mut self) -> Option<eventsource_stream::Event> {
        match self.inner.next().await {
            Some(Ok(event)) => Some(event),
            _ => None,
        }
    }

    /// The next event within 5 s (heartbeat comments are not events).
    pub async fn next(&mut self) -> Option<eventsource_stream::Event> {
        tokio::time::timeout(Duration::from_secs(5), self.inner.next())
            .await
            .expect("an event within 5 s")
            .map(|e| e.expect("a well-formed SSE event"))
    }

    /// Events (their `event` part, as JSON) until one matches `last` (inclusive); fails
    /// the test when none does `within`.
    pub async fn until(&mut self, within: Duration, last: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut events = Vec::new();
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let event = tokio::time::timeout_at(deadline, self.next_or_end())
                .await
                .unwrap_or_else(|_| panic!("no matching event within {within:?}: {events:?}"))
                .unwrap_or_else(|| panic!("the stream ended: {events:?}"));
            let data: Value = serde_json::from_str(&event.data).unwrap();
            let done = last(&data["event"]);
            events.push(data["event"].clone());
            if done {
                return events;
            }
        }
    }

    /// The next `n` events' sequence numbers, checking `id:` against the data's `seq`.
    pub async fn seqs(&mut self, n: usize) -> Vec<u64> {
        let mut seqs = Vec::new();
        while seqs.len() < n {
            let event = self.next().await.expect("the stream is open");
            let data: Value = serde_json::from_str(&event.data).unwrap();
            let seq = data["seq"].as_u64().unwrap();
            assert_eq!(event.id, seq.to_string(), "the SSE id is the sequence number");
            assert_eq!(event.event, data["event"]["type"].as_str().unwrap());
            seqs.push(seq);
        }
        seqs
    }
}
