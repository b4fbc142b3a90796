//! One supervised desktop process: started (after what it depends on is ready), watched,
//! and started again with exponential back-off whenever it exits, until shutdown.
//!
//! Each process runs in a process group of its own so a stop reaches its children (Chromium
//! forks many); its stderr goes to the log at debug level, tagged with its name.

use std::process::Stdio;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use nix::sys::signal::Signal;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;
use tokio_util::sync::CancellationToken;
use tool_api_contract::info::{ProcessInfo, ProcessState};

use crate::process_group;

const FIRST_BACKOFF: Duration = Duration::from_millis(250);
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// A run this long counts as healthy: the next crash starts the back-off from the beginning.
const STABLE_RUN: Duration = Duration::from_secs(30);

/// How to start one process. `prepare` runs before every start (e.g. removing stale lock
/// files a crashed run left behind).
pub struct ProcessSpec {
    pub name: &'static str,
    pub program: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    pub prepare: Option<Box<dyn Fn() + Send + Sync>>,
}

pub struct Supervised {
    spec: ProcessSpec,
    status: Mutex<Status>,
}

struct Status {
    state: ProcessState,
    pid: Option<u32>,
    restarts: u32,
    last_exit: Option<String>,
}

impl Supervised {
    pub fn new(spec: ProcessSpec) -> Arc<Self> {
        Arc::new(Self {
            spec,
            status: Mutex::new(Status {
                state: ProcessState::Waiting,
                pid: None,
                restarts: 0,
                last_exit: None,
            }),
        })
    }

    fn status(&self) -> MutexGuard<'_, Status> {
        self.status
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn info(&self) -> ProcessInfo {
        let status = self.status();
        ProcessInfo {
            name: self.spec.name.to_owned(),
            state: status.state,
            pid: status.pid,
            restarts: status.restarts,
            last_exit: status.last_exit.clone(),
        }
    }

    /// Kills the running process; the supervisor starts it again.
    pub fn kill(&self) {
        if let Some(pid) = self.status().pid {
            process_group::signal(pid, Signal::SIGKILL);
        }
    }

    /// Supervises until `stopping` is cancelled; then stops the process and returns.
    pub async fn run(self: Arc<Self>, stopping: CancellationToken) {
        let mut backoff = FIRST_BACKOFF;
        loop {
            let started = Instant::now();
            let ended = tokio::select! {
                ended = self.run_once() => ended,
                _ = stopping.cancelled() => {
                    self.stop();
                    return;
                }
            };
            {
                let mut status = self.status();
                status.state = ProcessState::Restarting;
                status.pid = None;
                status.restarts += 1;
                status.last_exit = Some(ended.clone());
            }
            if started.elapsed() >= STABLE_RUN {
                backoff = FIRST_BACKOFF;
            }
            tracing::warn!(process = self.spec.name, ended = %ended, retry_in = ?backoff, "desktop process exited");
            tokio::select! {
                _ = tokio::time::sleep(backoff) => {}
                _ = stopping.cancelled() => {
                    self.status().state = ProcessState::Stopped;
                    return;
                }
            }
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
    }

    /// Starts the process and waits for it to end; returns how it ended.
    async fn run_once(&self) -> String {
        if let Some(prepare) = &self.spec.prepare {
            prepare();
        }
        let mut child = match Command::new(&self.spec.program)
            .args(&self.spec.args)
            .envs(self.spec.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
        {
            Ok(child) => child,
            Err(err) => return format!("could not start {}: {err}", self.spec.program),
        };
        {
            let mut status = self.status();
            status.state = ProcessState::Running;
            status.pid = child.id();
        }
        if let Some(stderr) = child.stderr.take() {
            let name = self.spec.name;
            tokio::spawn(async move {
                let mut lines = BufReader::new(stderr).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    tracing::debug!(process = name, "{line}");
                }
            });
        }
        match child.wait().await {
            Ok(status) => status.to_string(),
            Err(err) => format!("waiting failed: {err}"),
        }
    }

    /// Dropping the child already killed the process itself; this reaches what it forked.
    fn stop(&self) {
        let mut status = self.status();
        if let Some(pid) = status.pid.take() {
            process_group::signal(pid, Signal::SIGKILL);
        }
        status.state = ProcessState::Stopped;
    }
}
