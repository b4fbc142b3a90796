//! Density benchmark of the sandbox image as the sandbox-manager runs it (hardened
//! container, 2 GiB limit, ports on 127.0.0.1). Prints:
//! - idle memory of a light sandbox (desktop stopped) and of one with its desktop up, as
//!   the container's cgroup counts it (`docker stats`), next to the host's memory in use;
//! - cold desktop start → first screenshot (p50 / max of 5, stopping it in between);
//! - a ramp of light sandboxes, `DENSITY_STEP` at a time up to `DENSITY_MAX` (default 25
//!   and 400): after each step every sandbox must answer a shell call within 1 s; it
//!   prints each step and where it stopped.
//!
//! Run with `cargo bench -p tool-api --bench density` (needs a Docker engine). Targets:
//! light sandbox idle ≤ 30 MiB, ≥ 400 light sandboxes, desktop on demand ≤ 1.5 s to the
//! first screenshot. The warm-pool claim → first shell result is the manager's
//! (`cargo bench -p sandbox-manager --bench manager`).

#[path = "../tests/integration/support/sandbox.rs"]
mod sandbox;

use std::time::{Duration, Instant};

use tool_api_contract::browser::{ImageFormat, ScreenshotRequest};
use tool_api_contract::info::Readiness;
use tool_api_contract::shell::ExecRequest;

const TOKEN: &str = "bench-token-0123456789abcdef";
/// What each sandbox must answer a shell call within while the ramp goes on.
const ANSWER_WITHIN: Duration = Duration::from_secs(1);

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

async fn ready(sandbox: &sandbox::Sandbox) {
    let started = Instant::now();
    while !matches!(sandbox.client.health().await, Ok(h) if h.status == Readiness::Ready) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "sandbox did not come up"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn cgroup_memory(sandbox: &sandbox::Sandbox) -> String {
    sandbox::docker(&["stats", "--no-stream", "--format", "{{.MemUsage}}", &sandbox.id])
}

fn host_used_gib() -> f64 {
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let kib = |key: &str| {
        meminfo
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (kib("MemTotal:") - kib("MemAvailable:")) / (1 << 20) as f64
}

async fn shell_answers(sandbox: &sandbox::Sandbox) -> Result<Duration, String> {
    let request = ExecRequest {
        command: "echo ok".into(),
        ..Default::default()
    };
    let started = Instant::now();
    match tokio::time::timeout(ANSWER_WITHIN, sandbox.client.exec("density", &request)).await {
        Ok(Ok(snapshot)) if snapshot.output.contains("ok") => Ok(started.elapsed()),
        Ok(Ok(snapshot)) => Err(format!("answered {:?}", snapshot.output)),
        Ok(Err(err)) => Err(err.to_string()),
        Err(_) => Err(format!("no answer within {ANSWER_WITHIN:?}")),
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let (image, _) = sandbox::image();
    let (step, max) = (setting("DENSITY_STEP", 25), setting("DENSITY_MAX", 400));
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        println!("density benchmark, image {image}");
        let one = sandbox::start(&image, TOKEN);
        ready(&one).await;
        tokio::time::sleep(Duration::from_secs(5)).await;
        println!("idle memory, light sandbox (desktop stopped): {}", cgroup_memory(&one));

        let screenshot = ScreenshotRequest {
            format: ImageFormat::Jpeg,
            quality: Some(60),
        };
        let mut cold = Vec::new();
        for _ in 0..5 {
            one.client.stop_desktop().await.expect("stop the desktop");
            let started = Instant::now();
            one.client.screenshot(&screenshot).await.expect("a screenshot");
            cold.push(started.elapsed());
        }
        cold.sort();
        println!(
            "cold desktop → first screenshot: p50 {:.0} ms, max {:.0} ms",
            cold[cold.len() / 2].as_secs_f64() * 1000.0,
            cold[cold.len() - 1].as_secs_f64() * 1000.0
        );
        tokio::time::sleep(Duration::from_secs(5)).await;
        println!("idle memory, desktop up: {}", cgroup_memory(&one));
        drop(one);

        let before = host_used_gib();
        let mut live: Vec<sandbox::Sandbox> = Vec::new();
        'ramp: while live.len() < max {
            let started = Instant::now();
            for _ in 0..step.min(max - live.len()) {
                // The engine refusing one more (memory, pids, addresses) ends the ramp.
                match std::panic::catch_unwind(|| sandbox::start(&image, TOKEN)) {
                    Ok(sandbox) => {
                        ready(&sandbox).await;
                        live.push(sandbox);
                    }
                    Err(_) => {
                        println!("ramp stopped at {} sandboxes: the engine refused another", live.len());
                        break 'ramp;
                    }
                }
            }
            let start_time = started.elapsed();
            let mut slowest = Duration::ZERO;
            for (i, sandbox) in live.iter().enumerate() {
                match shell_answers(sandbox).await {
                    Ok(took) => slowest = slowest.max(took),
                    Err(why) => {
                        println!("ramp stopped at {} sandboxes: sandbox {i} {why}", live.len());
                        break 'ramp;
                    }
                }
            }
            println!(
                "{:>4} light sandboxes: each answers a shell call (slowest {:.0} ms); host memory +{:.2} GiB; \
                 this step started in {:.1} s",
                live.len(),
                slowest.as_secs_f64() * 1000.0,
                host_used_gib() - before,
                start_time.as_secs_f64()
            );
        }
        println!("ramp ended with {} light sandboxes answering", live.len());
    });
}
