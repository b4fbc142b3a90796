//! What the kubelet makes on the engine (claims' volumes, Pods' containers) passes one
//! gate: the cluster's clean-up closes it and waits for what is under way before it
//! sweeps, so nothing is made after the sweep to outlive the test. Each making runs the
//! docker CLI to its end on a thread of its own, counted until then even when the task
//! that asked is gone (the engine finishes a request whoever waits for it).

use std::process::Output;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the clean-up waits for makings under way.
const DRAIN: Duration = Duration::from_secs(60);

#[derive(Default)]
pub(super) struct Gate {
    closed: AtomicBool,
    under_way: Arc<AtomicUsize>,
}

impl Gate {
    /// Runs `docker <args>` unless the gate is closed: its output, or its error.
    pub(super) async fn make(&self, args: Vec<String>) -> Result<String, String> {
        // Counted before the gate is looked at: a clean-up that closes it after this
        // look still sees the count and waits.
        self.under_way.fetch_add(1, Ordering::SeqCst);
        if self.closed.load(Ordering::SeqCst) {
            self.under_way.fetch_sub(1, Ordering::SeqCst);
            return Err("the fake cluster is being removed".into());
        }
        let under_way = self.under_way.clone();
        let run = tokio::task::spawn_blocking(move || {
            let out = std::process::Command::new("docker").args(&args).output();
            under_way.fetch_sub(1, Ordering::SeqCst);
            out
        });
        outcome(run.await.map_err(|e| e.to_string())?.map_err(|e| e.to_string())?)
    }

    /// Refuses makings from now on and waits for those under way.
    pub(super) fn close_and_drain(&self) {
        self.closed.store(true, Ordering::SeqCst);
        let deadline = Instant::now() + DRAIN;
        while self.under_way.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// A docker command's trimmed output when it succeeded, its error output otherwise.
pub(super) fn outcome(out: Output) -> Result<String, String> {
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_owned())
    }
}
