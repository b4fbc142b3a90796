//! Sandbox-manager benchmark against the real engine, with the release binary as its own
//! process. Prints: create-to-ready with the pool warm and cold (p50/p95), a warm claim
//! to its first shell result (target p50 ≤ 50 ms), delete time,
//! 20 concurrent creates, the manager's memory, and leaked containers after 200
//! create/delete cycles with the manager SIGKILLed at random moments.
//!
//! `cargo bench -p sandbox-manager --bench manager` (`CYCLES=50` for a shorter churn).

#[path = "../tests/integration/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use rand::Rng;
use sandbox_manager_client::contract::ListQuery;
use serde_json::Value;
use support::{request, Manager};

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() - 1) as f64 * p).round() as usize]
}

fn report(what: &str, samples: &mut [Duration]) {
    let p50 = percentile(samples, 0.5);
    let p95 = percentile(samples, 0.95);
    let max = samples.iter().max().copied().unwrap_or_default();
    println!(
        "{what:<44} p50 {:>8.1} ms  p95 {:>8.1} ms  max {:>8.1} ms  (n={})",
        ms(p50),
        ms(p95),
        ms(max),
        samples.len()
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    kb / 1024.0
}

async fn pool(manager: &Manager, field: &str) -> u64 {
    let url = format!("{}/health", manager.base);
    let health: Value = reqwest::get(url).await.unwrap().json().await.unwrap();
    health["pool"][field].as_u64().unwrap_or(0)
}

const QUOTA: [(&str, &str); 2] = [("QUOTA__PER_OWNER", "100"), ("QUOTA__GLOBAL", "100")];

#[tokio::main]
async fn main() {
    let image = support::image();
    println!("sandbox-manager benchmark, image {image}");

    // Cold creates and deletes, one at a time.
    let cold = Manager::start(&QUOTA);
    println!("manager RSS idle: {:.1} MiB", rss_mib(cold.pid()));
    let (mut created, mut deleted) = (Vec::new(), Vec::new());
    for i in 0..10 {
        let started = Instant::now();
        let sandbox = cold
            .client
            .create(&request(&format!("cold-{i}"), "bench"))
            .await
            .unwrap();
        created.push(started.elapsed());
        let started = Instant::now();
        cold.client.delete(&sandbox.id).await.unwrap();
        deleted.push(started.elapsed());
    }
    report("cold create → ready (tool-api answering)", &mut created);
    report("delete", &mut deleted);

    // 20 at once.
    let started = Instant::now();
    let tasks: Vec<_> = (0..20)
        .map(|i| {
            let client = cold.client.clone();
            tokio::spawn(async move {
                let t = Instant::now();
                let s = client
                    .create(&request(&format!("many-{i}"), "bench"))
                    .await
                    .unwrap();
                (s.id, t.elapsed())
            })
        })
        .collect();
    let mut ids = Vec::new();
    let mut each = Vec::new();
    for task in tasks {
        let (id, took) = task.await.unwrap();
        ids.push(id);
        each.push(took);
    }
    println!(
        "20 concurrent creates: all ready after {:.2} s",
        started.elapsed().as_secs_f64()
    );
    report("  each of the 20", &mut each);
    println!("manager RSS with 20 sandboxes: {:.1} MiB", rss_mib(cold.pid()));
    let started = Instant::now();
    let deletes: Vec<_> = ids
        .iter()
        .map(|id| {
            let client = cold.client.clone();
            let id = id.clone();
            tokio::spawn(async move { client.delete(&id).await.unwrap() })
        })
        .collect();
    for d in deletes {
        d.await.unwrap();
    }
    println!("20 concurrent deletes: {:.2} s", started.elapsed().as_secs_f64());
    drop(cold);

    // Claims from a warm pool: each one waits until the pool is full again and its new
    // sandbox has settled, so the figure is the claim, not two cores busy starting one.
    let warm = Manager::start(&[QUOTA[0], QUOTA[1], ("POOL__SIZE", "2")]);
    let (mut claims, mut answered) = (Vec::new(), Vec::new());
    for i in 0..10 {
        while pool(&warm, "ready").await < 2 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
        let started = Instant::now();
        let sandbox = warm
            .client
            .create(&request(&format!("warm-{i}"), "bench"))
            .await
            .unwrap();
        claims.push(started.elapsed());
        let access = sandbox.tool_api.unwrap();
        let shell = tool_api_client::contract::shell::ExecRequest {
            command: "echo ok".into(),
            ..Default::default()
        };
        let result = tool_api_client::ToolApiClient::new(&access.url, &access.token)
            .exec("bench", &shell)
            .await
            .unwrap();
        assert!(result.output.contains("ok"), "{}", result.output);
        answered.push(started.elapsed());
        warm.client.delete(&sandbox.id).await.unwrap();
    }
    report("warm-pool claim (create answered)", &mut claims);
    report("warm-pool claim → first shell result", &mut answered);
    println!("manager RSS with a warm pool: {:.1} MiB", rss_mib(warm.pid()));
    drop(warm);

    // Churn with random kills.
    let cycles: usize = std::env::var("CYCLES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(200);
    let mut churn = Manager::start(&[QUOTA[0], QUOTA[1], ("POOL__SIZE", "2")]);
    let mut kills = 0;
    let started = Instant::now();
    for i in 0..cycles {
        let client = churn.client.clone();
        let cycle = tokio::spawn(async move {
            if let Ok(sandbox) = client.create(&request(&format!("churn-{i}"), "bench")).await {
                let _ = client.delete(&sandbox.id).await;
            }
        });
        if rand::rng().random_ratio(1, 10) {
            let at = rand::rng().random_range(0..1500);
            tokio::time::sleep(Duration::from_millis(at)).await;
            churn.kill();
            kills += 1;
            let _ = cycle.await;
            churn.restart();
        } else {
            let _ = cycle.await;
        }
    }
    // Records left `ready` by a kill between create and delete are the backend's to delete.
    tokio::time::sleep(Duration::from_secs(3)).await;
    for sandbox in churn.client.list(&ListQuery::default()).await.unwrap() {
        let _ = churn.client.delete(&sandbox.id).await;
    }
    let mut leaked = usize::MAX;
    for _ in 0..30 {
        let pool = (pool(&churn, "ready").await + pool(&churn, "starting").await) as usize;
        let records = churn.client.list(&ListQuery::default()).await.unwrap().len();
        leaked = churn.containers().len().saturating_sub(pool + records);
        if leaked == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    println!(
        "churn: {cycles} create/delete cycles, {kills} manager SIGKILLs, {:.0} s: {leaked} leaked containers",
        started.elapsed().as_secs_f64()
    );
    println!("manager RSS after the churn: {:.1} MiB", rss_mib(churn.pid()));
}
