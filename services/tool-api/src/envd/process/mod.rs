//! The processes E2B clients start: a table by pid, each process's output fanned out to
//! every stream attached to it (the one that started it, and any that re-attach with
//! `Connect`), its stdin or PTY input, its PTY size and signals to its process group.
//! A process leaves the table when it has ended and its end has been published.

pub mod spawn;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use nix::sys::signal::Signal;
use tokio::io::AsyncWriteExt;
use tokio::sync::{mpsc, watch};

use super::error::{EnvdError, EnvdResult};
use crate::process_group;

/// Output chunks held for a slow stream before the process's output waits for it.
const SUBSCRIBER_BUFFER: usize = 64;

/// What a process runs, as the client described it.
#[derive(Debug, Clone, Default)]
pub struct ProcessConfig {
    pub cmd: String,
    pub args: Vec<String>,
    pub envs: BTreeMap<String, String>,
    pub cwd: Option<String>,
}

/// A PTY's size in characters.
#[derive(Debug, Clone, Copy)]
pub struct PtySize {
    pub cols: u16,
    pub rows: u16,
}

/// How to start a process.
#[derive(Debug, Clone)]
pub struct StartSpec {
    pub config: ProcessConfig,
    pub tag: Option<String>,
    /// Whether stdin is a pipe the client can write to (else `/dev/null`); a PTY's input
    /// is always open.
    pub stdin: bool,
    pub pty: Option<PtySize>,
    /// The working directory, resolved; the variables, merged.
    pub cwd: PathBuf,
    pub env: BTreeMap<String, String>,
}

/// Picks a process by pid or by the tag it was started with.
#[derive(Debug, Clone)]
pub enum Selector {
    Pid(u32),
    Tag(String),
}

/// A chunk of output.
#[derive(Debug, Clone)]
pub enum Output {
    Stdout(Bytes),
    Stderr(Bytes),
    Pty(Bytes),
}

/// How a process ended, as Go's `os.ProcessState` tells it (E2B's envd is Go).
#[derive(Debug, Clone, PartialEq)]
pub struct Exit {
    /// The exit code; -1 when a signal ended the process.
    pub exit_code: i32,
    /// Whether the process exited by itself (not by a signal).
    pub exited: bool,
    /// `exit status 3`, `signal: killed`.
    pub status: String,
    pub error: Option<String>,
}

/// What a stream attached to a process receives.
#[derive(Debug, Clone)]
pub enum Event {
    Data(Output),
    End(Exit),
}

/// Where a client's input goes.
enum Input {
    Closed,
    Pipe(tokio::process::ChildStdin),
    Pty(pty_process::OwnedWritePty),
}

/// One running process.
pub struct Process {
    pub pid: u32,
    pub config: ProcessConfig,
    pub tag: Option<String>,
    input: tokio::sync::Mutex<Input>,
    subscribers: Mutex<Vec<mpsc::Sender<Output>>>,
    ended: watch::Receiver<Option<Exit>>,
}

/// A stream's view of one process: its output from the moment it attached, then its end.
pub struct Subscription {
    output: mpsc::Receiver<Output>,
    ended: watch::Receiver<Option<Exit>>,
    done: bool,
}

impl Subscription {
    /// The next event; `None` after the end.
    pub async fn next(&mut self) -> Option<Event> {
        if self.done {
            return None;
        }
        tokio::select! {
            biased;
            Some(output) = self.output.recv() => return Some(Event::Data(output)),
            _ = self.ended.wait_for(Option::is_some) => {}
        }
        // All output was handed out before the end was published; what is queued is last.
        if let Ok(output) = self.output.try_recv() {
            return Some(Event::Data(output));
        }
        self.done = true;
        let exit = self.ended.borrow().clone().unwrap_or_else(|| Exit {
            exit_code: -1,
            exited: false,
            status: "unknown".into(),
            error: Some("the process's end was lost".into()),
        });
        Some(Event::End(exit))
    }
}

impl Process {
    /// Attaches a new stream to the process's output.
    pub fn subscribe(&self) -> Subscription {
        let (sender, output) = mpsc::channel(SUBSCRIBER_BUFFER);
        lock(&self.subscribers).push(sender);
        Subscription {
            output,
            ended: self.ended.clone(),
            done: false,
        }
    }

    /// Hands `output` to every attached stream, waiting for slow ones; streams that went
    /// away are dropped.
    async fn publish(&self, output: Output) {
        let subscribers = lock(&self.subscribers).clone();
        for subscriber in &subscribers {
            let _ = subscriber.send(output.clone()).await;
        }
        lock(&self.subscribers).retain(|subscriber| !subscriber.is_closed());
    }

    /// Writes to the process's stdin, or its PTY.
    pub async fn write(&self, bytes: &[u8]) -> EnvdResult<()> {
        let mut input = self.input.lock().await;
        let result = match &mut *input {
            Input::Pipe(stdin) => stdin.write_all(bytes).await,
            Input::Pty(pty) => pty.write_all(bytes).await,
            Input::Closed => {
                return Err(EnvdError::FailedPrecondition(format!(
                    "the stdin of process {} is closed (start it with stdin: true to write to it)",
                    self.pid
                )))
            }
        };
        result.map_err(|err| EnvdError::FailedPrecondition(format!("writing to process {}: {err}", self.pid)))
    }

    /// Closes stdin, which the program reads as end of input.
    pub async fn close_stdin(&self) -> EnvdResult<()> {
        let mut input = self.input.lock().await;
        if matches!(*input, Input::Pty(_)) {
            return Err(EnvdError::FailedPrecondition(format!(
                "process {} runs on a PTY; its input cannot be closed",
                self.pid
            )));
        }
        *input = Input::Closed;
        Ok(())
    }

    /// Resizes the process's PTY.
    pub async fn resize(&self, size: PtySize) -> EnvdResult<()> {
        match &*self.input.lock().await {
            Input::Pty(pty) => pty
                .resize(spawn::pty_size(size)?)
                .map_err(|err| EnvdError::Internal(anyhow::Error::new(err).context("resizing a PTY"))),
            _ => Err(EnvdError::FailedPrecondition(format!(
                "process {} has no PTY to resize",
                self.pid
            ))),
        }
    }

    /// Kills the process's group once `limit` has passed, unless it has ended by then: a
    /// Start's `Connect-Timeout-Ms` bounds the process, as E2B's envd bounds it.
    pub fn kill_after(&self, limit: Duration) {
        let (pid, mut ended) = (self.pid, self.ended.clone());
        tokio::spawn(async move {
            if tokio::time::timeout(limit, ended.wait_for(Option::is_some))
                .await
                .is_err()
            {
                process_group::signal(pid, Signal::SIGKILL);
            }
        });
    }

    /// Sends `signal` to the process's group.
    pub fn signal(&self, signal: Signal) {
        process_group::signal(self.pid, signal);
        process_group::signal(self.pid, Signal::SIGCONT);
    }
}

/// The processes started through envd that have not ended yet.
#[derive(Default)]
pub struct ProcessTable {
    running: Mutex<HashMap<u32, Arc<Process>>>,
}

impl ProcessTable {
    /// Starts a process; the subscription sees all its output.
    pub fn start(self: &Arc<Self>, spec: StartSpec) -> EnvdResult<(Arc<Process>, Subscription)> {
        spawn::start(self, spec)
    }

    fn insert(&self, process: Arc<Process>) {
        lock(&self.running).insert(process.pid, process);
    }

    fn remove(&self, pid: u32) {
        lock(&self.running).remove(&pid);
    }

    /// The running process `selector` picks.
    pub fn find(&self, selector: &Selector) -> EnvdResult<Arc<Process>> {
        let running = lock(&self.running);
        let found = match selector {
            Selector::Pid(pid) => running.get(pid).cloned(),
            Selector::Tag(tag) => running.values().find(|p| p.tag.as_deref() == Some(tag)).cloned(),
        };
        found.ok_or_else(|| match selector {
            Selector::Pid(pid) => EnvdError::not_found(format!("process with pid {pid} not found")),
            Selector::Tag(tag) => EnvdError::not_found(format!("process with tag {tag:?} not found")),
        })
    }

    /// The running processes, by pid.
    pub fn list(&self) -> Vec<Arc<Process>> {
        let mut all: Vec<_> = lock(&self.running).values().cloned().collect();
        all.sort_by_key(|p| p.pid);
        all
    }
}

/// The tool-api is going away: nothing it started stays behind.
impl Drop for ProcessTable {
    fn drop(&mut self) {
        for pid in lock(&self.running).keys() {
            process_group::signal(*pid, Signal::SIGKILL);
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
