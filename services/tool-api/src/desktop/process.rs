//! One supervised desktop process: started (after what it depends on is ready), watched,
//! and started again with exponential back-off whenever it exits, until it is stopped.
//!
//! Each process runs in a process group of its own so a stop reaches its children (Chromium
//! forks many); its stderr goes to the log at debug level, tagged with its name. A stop
//! asks with SIGTERM first, so Chromium writes its profile (cookies, storage) before it
//! goes: the desktop stops when idle and the next start must find the session as it was.
//! A supervisor dropped without a stop (the tool-api's runtime ending) asks the same way,
//! never with SIGKILL: a killed x11vnc leaves its System V shared memory segments behind
//! for good, and the kernel's table of them (4,096) is shared by the whole IPC namespace.

use std::process::Stdio;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use nix::sys::signal::Signal;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;
use tokio_util::sync::CancellationToken;
use tool_api_contract::info::{ProcessInfo, ProcessState};

use crate::process_group;
use crate::system_program;

const FIRST_BACKOFF: Duration = Duration::from_millis(250);
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// A run this long counts as healthy: the next crash starts the back-off from the beginning.
const STABLE_RUN: Duration = Duration::from_secs(30);
/// How long a stopped process (with its group) may take to exit after SIGTERM before it
/// is killed. Generous: Chromium on a busy machine can take seconds to write its profile,
/// and a kill loses what it had not written; a process that exits sooner costs nothing.
const STOP_GRACE: Duration = Duration::from_secs(10);

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
    /// Counts ended runs, crashes and stops alike: whoever holds a connection to the
    /// process can tell that it belongs to a run that is over.
    generation: u32,
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
                generation: 0,
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

    /// Changes whenever a run of the process ends (see `Status::generation`).
    pub fn generation(&self) -> u32 {
        self.status().generation
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
            let ended = self.run_once(&stopping).await;
            let stopped = stopping.is_cancelled();
            {
                let mut status = self.status();
                status.pid = None;
                status.generation += 1;
                if stopped {
                    status.state = ProcessState::Stopped;
                    return;
                }
                status.state = ProcessState::Restarting;
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

    /// Starts the process and waits for it to end, or ends it when `stopping` is
    /// cancelled; returns how it ended.
    async fn run_once(&self, stopping: &CancellationToken) -> String {
        if let Some(prepare) = &self.spec.prepare {
            prepare();
        }
        // The system's program, never one of the user's making (see `system_program`).
        let program = match system_program::resolve(&self.spec.program) {
            Ok(program) => program,
            Err(err) => return format!("could not start {err}"),
        };
        let mut child = match Command::new(&program)
            .args(&self.spec.args)
            .envs(self.spec.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
        {
            Ok(child) => child,
            Err(err) => return format!("could not start {}: {err}", self.spec.program),
        };
        let mut asked_to_end = AskToEndOnDrop(child.id());
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
        let ended = tokio::select! {
            ended = child.wait() => ended,
            _ = stopping.cancelled() => {
                // The leader alone: Chromium's browser process shuts its helpers down
                // itself, and they may still be writing the profile (the storage
                // service flushes local storage) after it has exited, so the group
                // gets the rest of the grace to empty before anything is killed.
                let group = child.id();
                if let Some(group) = group {
                    process_group::signal_leader(group, Signal::SIGTERM);
                }
                let asked = Instant::now();
                let ended = tokio::time::timeout(STOP_GRACE, child.wait()).await;
                let emptied = match group {
                    Some(group) => {
                        let left = STOP_GRACE.saturating_sub(asked.elapsed());
                        process_group::wait_until_gone(group, left).await
                    }
                    None => true,
                };
                if ended.is_ok() && emptied {
                    tracing::debug!(process = self.spec.name, took = ?asked.elapsed(), "stopped");
                } else {
                    tracing::warn!(
                        process = self.spec.name,
                        exited = ended.is_ok(),
                        "a desktop process did not end within {STOP_GRACE:?} of SIGTERM; killing what is left"
                    );
                }
                // Whatever of the group is still there (or did not go in time) is killed.
                if let Some(group) = group {
                    process_group::signal(group, Signal::SIGKILL);
                }
                match ended {
                    Ok(ended) => ended,
                    Err(_) => child.wait().await,
                }
            }
        };
        // Reaped (or killed): its pid may be reused from here on.
        asked_to_end.0 = None;
        match ended {
            Ok(status) => status.to_string(),
            Err(err) => format!("waiting failed: {err}"),
        }
    }
}

/// Sends SIGTERM to the process group it names when dropped, so a process whose
/// supervisor goes away mid-run still ends and cleans up after itself; `None` once the
/// process has been reaped.
struct AskToEndOnDrop(Option<u32>);

impl Drop for AskToEndOnDrop {
    fn drop(&mut self) {
        if let Some(group) = self.0 {
            process_group::signal(group, Signal::SIGTERM);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A supervisor dropped mid-run (its task aborted, as when the runtime ends) asks the
    /// process to end: a process that cleans up on SIGTERM gets to.
    #[tokio::test]
    async fn a_dropped_supervisor_asks_its_process_to_end() {
        let dir = tempfile::tempdir().unwrap();
        let (ready, mark) = (dir.path().join("ready"), dir.path().join("asked"));
        let supervised = Supervised::new(ProcessSpec {
            name: "trap",
            program: "sh".into(),
            args: vec![
                "-c".into(),
                format!(
                    "trap 'touch {}; exit 0' TERM; touch {}; while :; do sleep 0.05; done",
                    mark.display(),
                    ready.display()
                ),
            ],
            env: vec![],
            prepare: None,
        });
        let run = tokio::spawn(supervised.clone().run(CancellationToken::new()));
        let deadline = Instant::now() + Duration::from_secs(10);
        while !ready.exists() {
            assert!(Instant::now() < deadline, "the process never set its trap");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        run.abort();
        let _ = run.await;
        while !mark.exists() {
            assert!(
                Instant::now() < deadline,
                "the dropped supervisor never asked its process to end"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}
