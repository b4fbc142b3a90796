//! How long a paused code sandbox takes to come back: `stop` (E2B's pause), then a create
//! for the same session, until the manager hands it out ready — its home volume mounted
//! again, its firewall loaded, its kernel started. With `BASELINE_IMAGE` (and
//! `BASELINE_MANAGER`, another build's manager binary), the same is taken with that image
//! (and manager) in turn, round by round, so two builds compare on one noisy machine.
//!
//! `cargo bench -p sandbox-manager --bench resume` (`ROUNDS=40` for more rounds).

#[path = "../tests/integration/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use sandbox_manager_client::contract::{CreateSandbox, StorageKind};
use support::{request, Manager};

struct Subject {
    name: String,
    manager: Manager,
    request: CreateSandbox,
    sandbox_id: String,
    took: Vec<Duration>,
}

impl Subject {
    async fn start(image: &str, program: Option<&str>, session: &str) -> Self {
        let env = [("SANDBOX__IMAGE", image)];
        let manager = match program {
            Some(program) => Manager::start_program(program.as_ref(), &env, &[]),
            None => Manager::start(&env),
        };
        let request = CreateSandbox {
            storage: Some(StorageKind::Volume),
            warm_kernel: true,
            ..request(session, "bench")
        };
        let sandbox = manager.client.create(&request).await.unwrap();
        Self {
            name: format!(
                "{image}{}",
                program.map(|p| format!(" ({p})")).unwrap_or_default()
            ),
            manager,
            request,
            sandbox_id: sandbox.id,
            took: Vec::new(),
        }
    }

    async fn resume(&mut self) {
        self.manager.client.stop(&self.sandbox_id).await.unwrap();
        let started = Instant::now();
        let sandbox = self.manager.client.create(&self.request).await.unwrap();
        self.took.push(started.elapsed());
        self.sandbox_id = sandbox.id;
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(20);
    let mut subjects = vec![Subject::start(support::image(), None, "resume").await];
    if let Ok(baseline) = std::env::var("BASELINE_IMAGE") {
        let program = std::env::var("BASELINE_MANAGER").ok();
        subjects.push(Subject::start(&baseline, program.as_deref(), "resume-baseline").await);
    }
    for _ in 0..rounds {
        for subject in &mut subjects {
            subject.resume().await;
        }
    }
    println!("resume of a code sandbox (stop, create again → ready), {rounds} rounds taken in turn");
    for subject in &mut subjects {
        subject.took.sort();
        let at = |p: f64| ms(subject.took[((subject.took.len() - 1) as f64 * p).round() as usize]);
        println!(
            "  p50 {:>7.1} ms  p95 {:>7.1} ms  min {:>7.1} ms  {}",
            at(0.5),
            at(0.95),
            at(0.0),
            subject.name
        );
        let id = subject.sandbox_id.clone();
        subject.manager.client.delete(&id).await.unwrap();
    }
}
