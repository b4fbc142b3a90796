//! Benchmark of the backend binary (release build, its own process, embedded store, the
//! default Argon2id cost). Prints login p50, authenticated `GET /api/v1/sessions` p50 and
//! requests/s, events appended/s, and 2,000 SSE clients receiving a burst: delivery p99
//! and the server's RSS; plus idle RSS, and the RSS before and after 10,000 sessions'
//! event streams are opened and closed (what a stream leaves behind once it has ended).
//!
//! Run with `cargo bench -p backend-api --bench backend`; with `MONGODB_URI` and
//! `REDIS_URL` set it measures the server on those stores instead (it uses a database and
//! key prefix of its own there). Targets (2 cores): ≥ 5,000
//! authenticated reads/s, 2,000 SSE clients with delivery p99 ≤ 100 ms and RSS ≤ 200 MB,
//! idle RSS ≤ 40 MB, RSS within 50 MB of where it was after 10,000 streams opened and
//! closed. The clients run on the same two cores as the server.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use futures::StreamExt;
use serde_json::{json, Value};

const READERS: usize = 32;
const READ_SECONDS: u64 = 5;
const SSE_CLIENTS: usize = 2_000;
const BURST: usize = 50;
const OPENED_STREAMS: usize = 10_000;

struct Server {
    child: Child,
    base: String,
    _data: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Which stores the server runs on: MongoDB and Redis when the environment names them.
fn stores() -> &'static str {
    match (std::env::var_os("MONGODB_URI"), std::env::var_os("REDIS_URL")) {
        (None, None) => "embedded store",
        (Some(_), None) => "MongoDB, embedded key-value store",
        (None, Some(_)) => "embedded store, Redis",
        (Some(_), Some(_)) => "MongoDB and Redis",
    }
}

impl Server {
    fn start() -> Self {
        let data = tempfile::tempdir().unwrap();
        let run = format!("bench{}", std::process::id());
        let mut child = Command::new(env!("CARGO_BIN_EXE_backend-api"))
            .env("BACKEND_PORT", "0")
            // The event log is measured alone: no agent answers the posted messages.
            .env("BACKEND_AGENT__ENABLED", "false")
            .env("MONGODB_DATABASE", &run)
            .env("BACKEND_REDIS_KEY_PREFIX", format!("{run}:"))
            .env("BACKEND_DATA_DIR", data.path())
            // One person follows with thousands of streams here.
            .env("BACKEND_HTTP__MAX_STREAMS_PER_PERSON", "100000")
            .env("RUST_LOG", "warn,backend_api=info")
            .env("NO_COLOR", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start backend-api");
        let mut log = BufReader::new(child.stderr.take().unwrap());
        let address = loop {
            let mut line = String::new();
            assert!(log.read_line(&mut line).unwrap() > 0, "backend-api exited");
            if let Some(at) = line.find("address=") {
                break line[at + 8..].split_whitespace().next().unwrap().to_owned();
            }
        };
        std::thread::spawn(move || for _ in log.lines() {});
        Self {
            child,
            base: format!("http://{address}"),
            _data: data,
        }
    }

    fn rss_mib(&self) -> f64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let kib: f64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap();
        kib / 1024.0
    }
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let server = Server::start();
    let base = server.base.clone();
    let http = reqwest::Client::new();
    tokio::time::sleep(Duration::from_millis(500)).await;
    println!("backend-api benchmark ({}, Argon2id m=19 MiB t=2 p=1)", stores());
    println!("idle RSS: {:.1} MiB", server.rss_mib());

    let credentials = json!({ "email": "bench@example.org", "password": "a long bench passphrase" });
    let registered: Value = http
        .post(format!("{base}/api/v1/auth/register"))
        .json(&credentials)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = registered["tokens"]["access_token"].as_str().unwrap().to_owned();

    let mut logins = Vec::new();
    for _ in 0..20 {
        let started = Instant::now();
        let response = http
            .post(format!("{base}/api/v1/auth/login"))
            .json(&credentials)
            .send()
            .await
            .unwrap();
        assert!(response.status().is_success());
        logins.push(started.elapsed());
    }
    println!("login p50: {:.1} ms", ms(percentile(&mut logins, 0.5)));

    for i in 0..20 {
        http.post(format!("{base}/api/v1/sessions"))
            .bearer_auth(&token)
            .json(&json!({ "title": format!("session {i}") }))
            .send()
            .await
            .unwrap();
    }
    let mut one = Vec::new();
    for _ in 0..500 {
        let started = Instant::now();
        http.get(format!("{base}/api/v1/sessions"))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        one.push(started.elapsed());
    }
    println!(
        "GET /api/v1/sessions (20 sessions) p50, one client: {:.2} ms",
        ms(percentile(&mut one, 0.5))
    );
    let done = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = (0..READERS)
        .map(|_| {
            let (http, base, token, done, stop) = (
                http.clone(),
                base.clone(),
                token.clone(),
                done.clone(),
                stop.clone(),
            );
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    let started = Instant::now();
                    let response = http
                        .get(format!("{base}/api/v1/sessions"))
                        .bearer_auth(&token)
                        .send()
                        .await
                        .unwrap();
                    assert!(response.status().is_success());
                    response.bytes().await.unwrap();
                    latencies.push(started.elapsed());
                    done.fetch_add(1, Ordering::Relaxed);
                }
                latencies
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_secs(READ_SECONDS)).await;
    stop.store(true, Ordering::Relaxed);
    let mut latencies = Vec::new();
    for reader in readers {
        latencies.extend(reader.await.unwrap());
    }
    println!(
        "authenticated GET /api/v1/sessions, {READERS} clients: {:.0} requests/s (p50 {:.2} ms)",
        done.load(Ordering::Relaxed) as f64 / READ_SECONDS as f64,
        ms(percentile(&mut latencies, 0.5))
    );

    let id = new_session(&http, &base, &token).await;
    let appended = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let writers: Vec<_> = (0..8)
        .map(|w| {
            let (http, base, token, id, appended) = (
                http.clone(),
                base.clone(),
                token.clone(),
                id.clone(),
                appended.clone(),
            );
            tokio::spawn(async move {
                while started.elapsed() < Duration::from_secs(3) {
                    let response = http
                        .post(format!("{base}/api/v1/sessions/{id}/messages"))
                        .bearer_auth(&token)
                        .json(&json!({ "content": format!("writer {w}") }))
                        .send()
                        .await
                        .unwrap();
                    assert!(response.status().is_success());
                    appended.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    for writer in writers {
        writer.await.unwrap();
    }
    println!(
        "events appended (stored durably, then published), 8 writers: {:.0}/s",
        appended.load(Ordering::Relaxed) as f64 / started.elapsed().as_secs_f64()
    );

    // 2,000 clients follow a fresh session; a burst of events is appended.
    let id = new_session(&http, &base, &token).await;
    let connected = Arc::new(AtomicU64::new(0));
    let clients: Vec<_> = (0..SSE_CLIENTS)
        .map(|_| {
            let (base, token, id, connected) = (base.clone(), token.clone(), id.clone(), connected.clone());
            tokio::spawn(async move {
                // One connection each, as browsers have.
                let http = reqwest::Client::new();
                let response = http
                    .get(format!("{base}/api/v1/sessions/{id}/events"))
                    .bearer_auth(&token)
                    .send()
                    .await
                    .unwrap();
                connected.fetch_add(1, Ordering::Relaxed);
                let mut events = eventsource_stream::EventStream::new(response.bytes_stream());
                let mut delays = Vec::new();
                while delays.len() < BURST {
                    let event = events.next().await.unwrap().unwrap();
                    let data: Value = serde_json::from_str(&event.data).unwrap();
                    let at: DateTime<Utc> = data["at"].as_str().unwrap().parse().unwrap();
                    delays.push((Utc::now() - at).to_std().unwrap_or_default());
                }
                delays
            })
        })
        .collect();
    while connected.load(Ordering::Relaxed) < SSE_CLIENTS as u64 {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    println!(
        "RSS with {SSE_CLIENTS} SSE clients connected: {:.1} MiB",
        server.rss_mib()
    );
    let mut peak = 0f64;
    for i in 0..BURST {
        http.post(format!("{base}/api/v1/sessions/{id}/messages"))
            .bearer_auth(&token)
            .json(&json!({ "content": format!("burst {i}") }))
            .send()
            .await
            .unwrap();
        peak = peak.max(server.rss_mib());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut delays = Vec::new();
    for client in clients {
        delays.extend(client.await.unwrap());
        peak = peak.max(server.rss_mib());
    }
    println!(
        "{SSE_CLIENTS} SSE clients × {BURST} events: delivery p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; server RSS peak {:.1} MiB",
        ms(percentile(&mut delays, 0.5)),
        ms(percentile(&mut delays, 0.99)),
        ms(percentile(&mut delays, 1.0)),
        peak
    );

    opened_and_closed_streams(&server, &http, &token).await;
}

/// A new session of the signed-in person; its id.
async fn new_session(http: &reqwest::Client, base: &str, token: &str) -> String {
    let session: Value = http
        .post(format!("{base}/api/v1/sessions"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    session["id"].as_str().unwrap().to_owned()
}

/// 10,000 sessions, each one's event stream opened (headers received) and dropped, as a
/// person flicking through sessions does; what stays behind is the server's RSS growth.
async fn opened_and_closed_streams(server: &Server, http: &reqwest::Client, token: &str) {
    let base = &server.base;
    let mut ids = Vec::with_capacity(OPENED_STREAMS);
    for _ in 0..OPENED_STREAMS {
        ids.push(new_session(http, base, token).await);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = server.rss_mib();
    futures::stream::iter(ids)
        .for_each_concurrent(64, |id| async move {
            let response = http
                .get(format!("{base}/api/v1/sessions/{id}/events"))
                .bearer_auth(token)
                .send()
                .await
                .unwrap();
            assert!(response.status().is_success());
        })
        .await;
    // The server notices the closed connections and drops the streams.
    tokio::time::sleep(Duration::from_secs(2)).await;
    println!(
        "RSS before / after {OPENED_STREAMS} sessions' event streams opened and closed: {before:.1} / {:.1} MiB",
        server.rss_mib()
    );
}
