//! Benchmark of the tool-api binary as a sandbox runs it (release build, separate process,
//! so its memory is measured alone). Prints:
//! - `echo hi` exec round trip p50/p99 and execs/s with 32 concurrent clients;
//! - 4 KiB file write + read round trip p50/p99, and the server's CPU time per pair;
//! - 200 MB download throughput, and the server's CPU time per MB sent;
//! - the server's RSS when idle and at its peak during the transfer.
//!
//! Server CPU time is utime + stime from `/proc/<pid>/stat`, read before and after.
//!
//! Run with `cargo bench -p tool-api --bench tool_api`. Targets (2-core machine): exec p50
//! ≤ 2 ms, ≥ 2,000 execs/s, idle RSS ≤ 15 MB, download ≥ 500 MB/s, RSS < 64 MB during
//! the transfer, ≤ 0.2 ms of server CPU per 4 KiB write + read pair.
//!
//! `TOOL_API_BIN=/path/to/tool-api` benchmarks another build of the server (an older one,
//! say) with the same client.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use serde_json::json;

const TOKEN: &str = "bench-token-0123456789abcdef";
const CLIENTS: usize = 32;
const EXEC_SECONDS: u64 = 5;
const FILE_ROUNDS: usize = 2_000;
const DOWNLOAD_BYTES: usize = 200 * 1000 * 1000;

struct Server {
    child: Child,
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_server(workspace: &std::path::Path) -> Server {
    let binary = std::env::var_os("TOOL_API_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_tool-api").into());
    let mut child = Command::new(binary)
        .env("SANDBOX_TOKEN", TOKEN)
        .env("TOOL_API_HOST", "127.0.0.1")
        .env("TOOL_API_PORT", "0")
        .env("TOOL_API_WORKSPACE", workspace)
        .env("RUST_LOG", "warn,tool_api=info")
        .env("NO_COLOR", "1")
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tool-api");
    let mut log = BufReader::new(child.stderr.take().expect("stderr"));
    let address = loop {
        let mut line = String::new();
        assert!(log.read_line(&mut line).expect("read log") > 0, "tool-api exited");
        if let Some(at) = line.find("address=") {
            break line[at + 8..]
                .split_whitespace()
                .next()
                .expect("address")
                .to_owned();
        }
    };
    std::thread::spawn(move || log.lines().for_each(drop));
    Server {
        child,
        base: format!("http://{address}"),
    }
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1000.0)
}

/// CPU seconds (user + system) the process has used.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<f64> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0.0))
        .collect();
    // Fields 14 and 15 of proc(5): utime and stime, in clock ticks (100 Hz).
    let tick = |i: usize| fields.get(i - 3).copied().unwrap_or(0.0) / 100.0;
    tick(14) + tick(15)
}

async fn exec_once(http: &reqwest::Client, url: &str) -> Duration {
    let sent = Instant::now();
    let response = http
        .post(url)
        .bearer_auth(TOKEN)
        .json(&json!({"command": "echo hi"}))
        .send()
        .await
        .expect("exec");
    let body: serde_json::Value = response.json().await.expect("exec body");
    assert_eq!(body["output"], "hi\n", "{body}");
    sent.elapsed()
}

async fn bench_exec_latency(http: &reqwest::Client, base: &str) {
    let url = format!("{base}/v1/shell/sessions/latency/exec");
    let mut latencies = Vec::new();
    for _ in 0..1000 {
        latencies.push(exec_once(http, &url).await);
    }
    latencies.sort();
    println!(
        "exec `echo hi` round trip, one client: p50 {}, p99 {}",
        ms(percentile(&latencies, 0.5)),
        ms(percentile(&latencies, 0.99))
    );
}

async fn bench_exec(http: &reqwest::Client, server: &Server) {
    let base = &server.base;
    let cpu_before = cpu_seconds(server.child.id());
    let stop_at = Instant::now() + Duration::from_secs(EXEC_SECONDS);
    let started = Instant::now();
    let tasks = (0..CLIENTS).map(|client| {
        let http = http.clone();
        let url = format!("{base}/v1/shell/sessions/bench{client}/exec");
        tokio::spawn(async move {
            let mut latencies = Vec::new();
            while Instant::now() < stop_at {
                latencies.push(exec_once(&http, &url).await);
            }
            latencies
        })
    });
    let mut latencies: Vec<Duration> = Vec::new();
    for task in futures::future::join_all(tasks).await {
        latencies.extend(task.expect("client task"));
    }
    let elapsed = started.elapsed();
    latencies.sort();
    println!(
        "exec `echo hi`, {CLIENTS} clients: {} execs in {:.1} s = {:.0} execs/s; p50 {}, p99 {}",
        latencies.len(),
        elapsed.as_secs_f64(),
        latencies.len() as f64 / elapsed.as_secs_f64(),
        ms(percentile(&latencies, 0.5)),
        ms(percentile(&latencies, 0.99)),
    );
    println!(
        "  tool-api CPU per exec: {:.3} ms",
        (cpu_seconds(server.child.id()) - cpu_before) * 1000.0 / latencies.len() as f64
    );
}

async fn bench_file_round_trip(http: &reqwest::Client, server: &Server) {
    let base = &server.base;
    let content = "x".repeat(4096);
    let mut latencies = Vec::with_capacity(FILE_ROUNDS);
    let cpu_before = cpu_seconds(server.child.id());
    for _ in 0..FILE_ROUNDS {
        let sent = Instant::now();
        let write = http
            .post(format!("{base}/v1/files/write"))
            .bearer_auth(TOKEN)
            .json(&json!({"path": "bench/4k.txt", "content": content}))
            .send()
            .await
            .expect("write");
        assert!(write.status().is_success(), "write: {}", write.status());
        let read: serde_json::Value = http
            .post(format!("{base}/v1/files/read"))
            .bearer_auth(TOKEN)
            .json(&json!({"path": "bench/4k.txt"}))
            .send()
            .await
            .expect("read")
            .json()
            .await
            .expect("read body");
        assert_eq!(read["content"].as_str().map(str::len), Some(4096));
        latencies.push(sent.elapsed());
    }
    let cpu = cpu_seconds(server.child.id()) - cpu_before;
    latencies.sort();
    println!(
        "4 KiB write + read round trip: p50 {}, p99 {}",
        ms(percentile(&latencies, 0.5)),
        ms(percentile(&latencies, 0.99))
    );
    println!(
        "  tool-api CPU per write + read pair: {:.3} ms",
        cpu * 1000.0 / FILE_ROUNDS as f64
    );
}

async fn bench_download(http: &reqwest::Client, server: &Server, workspace: &std::path::Path) {
    let path = workspace.join("big.bin");
    let mut file = std::fs::File::create(&path).expect("create big file");
    let chunk: Vec<u8> = (0..1_000_000u32).map(|i| (i % 251) as u8).collect();
    for _ in 0..DOWNLOAD_BYTES / chunk.len() {
        file.write_all(&chunk).expect("write big file");
    }
    drop(file);

    let pid = server.child.id();
    let peak = Arc::new(AtomicU64::new(0));
    let sampling = Arc::new(AtomicBool::new(true));
    let sampler = {
        let (peak, sampling) = (peak.clone(), sampling.clone());
        std::thread::spawn(move || {
            while sampling.load(Ordering::Relaxed) {
                peak.fetch_max(rss_kib(pid), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(5));
            }
        })
    };
    let cpu_before = cpu_seconds(pid);
    let started = Instant::now();
    let response = http
        .get(format!("{}/v1/files/download?path=big.bin", server.base))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("download");
    assert!(response.status().is_success(), "download: {}", response.status());
    let mut stream = response.bytes_stream();
    let mut received = 0usize;
    while let Some(chunk) = stream.next().await {
        received += chunk.expect("download chunk").len();
    }
    let elapsed = started.elapsed();
    let cpu = cpu_seconds(pid) - cpu_before;
    sampling.store(false, Ordering::Relaxed);
    sampler.join().expect("sampler");
    assert_eq!(received, DOWNLOAD_BYTES);
    println!(
        "200 MB download: {:.2} s = {:.0} MB/s; server RSS peak during it {:.1} MB",
        elapsed.as_secs_f64(),
        received as f64 / elapsed.as_secs_f64() / 1e6,
        peak.load(Ordering::Relaxed) as f64 / 1024.0
    );
    println!(
        "  tool-api CPU during it: {:.3} s = {:.2} ms per MB ({:.0} % of one core)",
        cpu,
        cpu * 1000.0 / (received as f64 / 1e6),
        cpu * 100.0 / elapsed.as_secs_f64()
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` would pass nothing else useful.
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let workspace = tempfile::tempdir().expect("workspace");
    let server = start_server(workspace.path());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(CLIENTS)
            .build()
            .expect("client");
        // Let start-up allocations settle before reading the idle figure.
        let health = http
            .get(format!("{}/health", server.base))
            .send()
            .await
            .expect("health");
        assert!(health.status().is_success());
        tokio::time::sleep(Duration::from_millis(300)).await;
        println!("idle RSS: {:.1} MB", rss_kib(server.child.id()) as f64 / 1024.0);
        bench_exec_latency(&http, &server.base).await;
        bench_exec(&http, &server).await;
        bench_file_round_trip(&http, &server).await;
        bench_download(&http, &server, workspace.path()).await;
        println!(
            "RSS after the run: {:.1} MB",
            rss_kib(server.child.id()) as f64 / 1024.0
        );
    });
}
