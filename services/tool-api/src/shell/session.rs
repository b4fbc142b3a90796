//! One named shell session: its console and its latest command.
//!
//! Each command is `bash -c <command>` in a process group of its own, so a kill reaches
//! everything it started. stdout and stderr share one pipe, which keeps their interleaving
//! as the program wrote it. The command counts as finished when bash exits and its output
//! has drained; a background job that keeps the pipe open does not hold the answer back
//! (its later output still lands in the console).

use std::collections::BTreeMap;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{ChildStdin, Command};
use tokio::sync::watch;
use tool_api_contract::shell::{CommandState, ShellSessionSummary, ShellSnapshot};
use tool_api_contract::ErrorCode;

use super::console::{complete_utf8_prefix, Console, Slice};
use crate::error::{ToolError, ToolResult};

/// How long a finished command's output may take to drain before the answer is sent anyway
/// (a background job can keep the pipe open for ever).
const DRAIN_GRACE: Duration = Duration::from_millis(100);
/// How long a group gets between SIGTERM and SIGKILL.
const KILL_GRACE: Duration = Duration::from_millis(500);
const READ_CHUNK: usize = 64 << 10;

/// What a caller asked to run.
pub struct Launch {
    pub command: String,
    pub cwd: PathBuf,
    pub env: BTreeMap<String, String>,
}

pub struct Session {
    id: String,
    state: Mutex<State>,
    /// Bumped on every new output or state change; waiters and streams watch it.
    changed: watch::Sender<u64>,
    stdin: tokio::sync::Mutex<Option<ChildStdin>>,
}

struct State {
    console: Console,
    run: Option<Run>,
    next_seq: u64,
}

struct Run {
    seq: u64,
    command: String,
    pid: u32,
    start_offset: u64,
    started_at_ms: i64,
    outcome: Option<Outcome>,
}

#[derive(Clone, Copy)]
struct Outcome {
    exit_code: Option<i32>,
    signal: Option<i32>,
    finished_at_ms: i64,
}

/// One item of a live output stream.
pub enum StreamItem {
    Output(Slice),
    Exit(ShellSnapshot),
}

impl Session {
    pub fn new(id: String, buffer_bytes: usize) -> Self {
        Self {
            id,
            state: Mutex::new(State {
                console: Console::new(buffer_bytes),
                run: None,
                next_seq: 0,
            }),
            changed: watch::channel(0).0,
            stdin: tokio::sync::Mutex::new(None),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave the console inconsistent (every
        // update is a single push or assignment), so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn notify(&self) {
        self.changed.send_modify(|generation| *generation += 1);
    }

    pub fn is_running(&self) -> bool {
        self.lock().run.as_ref().is_some_and(|run| run.outcome.is_none())
    }

    /// Starts `launch` unless a command is still running. Returns the run's sequence number.
    pub async fn start(self: &std::sync::Arc<Self>, launch: Launch) -> ToolResult<u64> {
        let mut stdin_slot = self.stdin.lock().await;
        let mut state = self.lock();
        if let Some(run) = state.run.as_ref().filter(|run| run.outcome.is_none()) {
            return Err(ToolError::new(
                ErrorCode::SessionBusy,
                format!(
                    "shell session '{}' is still running `{}` (pid {}); wait for it, kill it, or use another session",
                    self.id, run.command, run.pid
                ),
            ));
        }
        let (reader, writer) =
            nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).context("creating the output pipe")?;
        let stderr = writer.try_clone().context("duplicating the output pipe")?;
        let mut command = Command::new("bash");
        command
            .arg("-c")
            .arg(&launch.command)
            .current_dir(&launch.cwd)
            // Pagers and editors would wait for a terminal that is not there.
            .env("PAGER", "cat")
            .env("GIT_PAGER", "cat")
            .env("TERM", "dumb")
            .envs(&launch.env)
            .stdin(Stdio::piped())
            .stdout(Stdio::from(writer))
            .stderr(Stdio::from(stderr))
            .process_group(0);
        let mut child = command.spawn().map_err(|err| ToolError::io(err, &launch.cwd))?;
        // The parent's copies of the write end must be gone, or the reader never sees EOF.
        drop(command);
        let pid = child.id().context("a just-spawned child has a pid")?;
        *stdin_slot = child.stdin.take();
        drop(stdin_slot);

        let prompt = format!("$ {}\n", launch.command);
        state.console.push(prompt.as_bytes());
        let seq = state.next_seq;
        state.next_seq += 1;
        state.run = Some(Run {
            seq,
            command: launch.command,
            pid,
            start_offset: state.console.end(),
            started_at_ms: now_ms(),
            outcome: None,
        });
        drop(state);
        self.notify();

        let pipe =
            tokio::net::unix::pipe::Receiver::from_owned_fd(reader).context("watching the output pipe")?;
        let (drained_tx, drained_rx) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(self.clone().pump_output(pipe, drained_tx));
        let session = self.clone();
        tokio::spawn(async move {
            let status = child.wait().await;
            let _ = tokio::time::timeout(DRAIN_GRACE, drained_rx).await;
            let outcome = match status {
                Ok(status) => Outcome {
                    exit_code: status.code(),
                    signal: status.signal(),
                    finished_at_ms: now_ms(),
                },
                Err(err) => {
                    tracing::error!(error = %err, pid, "waiting for a shell command failed");
                    Outcome {
                        exit_code: None,
                        signal: None,
                        finished_at_ms: now_ms(),
                    }
                }
            };
            session.finish(seq, outcome).await;
        });
        Ok(seq)
    }

    async fn pump_output(
        self: std::sync::Arc<Self>,
        mut pipe: tokio::net::unix::pipe::Receiver,
        drained: tokio::sync::oneshot::Sender<()>,
    ) {
        let mut buf = vec![0u8; READ_CHUNK];
        let mut held = 0;
        loop {
            match pipe.read(&mut buf[held..]).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let filled = held + n;
                    let ready = complete_utf8_prefix(&buf[..filled]);
                    self.lock().console.push(&buf[..ready]);
                    buf.copy_within(ready..filled, 0);
                    held = filled - ready;
                    self.notify();
                }
            }
        }
        if held > 0 {
            self.lock().console.push(&buf[..held]);
            self.notify();
        }
        let _ = drained.send(());
    }

    async fn finish(&self, seq: u64, outcome: Outcome) {
        *self.stdin.lock().await = None;
        if let Some(run) = self.lock().run.as_mut().filter(|run| run.seq == seq) {
            run.outcome = Some(outcome);
        }
        self.notify();
    }

    /// The latest command's state; `full` returns the whole console as output.
    pub fn snapshot(&self, full: bool) -> ToolResult<ShellSnapshot> {
        let state = self.lock();
        let run = state.run.as_ref().ok_or_else(|| self.no_command())?;
        let from = if full { 0 } else { run.start_offset };
        Ok(snapshot_of(&self.id, run, state.console.read_from(from)))
    }

    pub fn summary(&self) -> Option<ShellSessionSummary> {
        let state = self.lock();
        let run = state.run.as_ref()?;
        Some(ShellSessionSummary {
            session: self.id.clone(),
            command: run.command.clone(),
            state: state_of(run),
            pid: run.pid,
            started_at_ms: run.started_at_ms,
        })
    }

    /// Waits until the latest command finishes or `timeout` passes.
    pub async fn wait(&self, timeout: Duration) {
        let mut changes = self.changed.subscribe();
        let deadline = tokio::time::sleep(timeout);
        tokio::pin!(deadline);
        while self.is_running() {
            tokio::select! {
                changed = changes.changed() => if changed.is_err() { return },
                _ = &mut deadline => return,
            }
        }
    }

    /// Writes to the running command's stdin.
    pub async fn write_input(&self, input: &str, enter: bool) -> ToolResult<()> {
        let mut slot = self.stdin.lock().await;
        let stdin = slot.as_mut().filter(|_| self.is_running()).ok_or_else(|| {
            ToolError::new(
                ErrorCode::NotRunning,
                format!(
                    "shell session '{}' has no running command to send input to",
                    self.id
                ),
            )
        })?;
        let mut data = input.as_bytes().to_vec();
        if enter {
            data.push(b'\n');
        }
        let written = async {
            stdin.write_all(&data).await?;
            stdin.flush().await
        }
        .await;
        written.map_err(|_| {
            ToolError::new(
                ErrorCode::NotRunning,
                format!(
                    "the command in shell session '{}' no longer reads its input",
                    self.id
                ),
            )
        })
    }

    /// Ends the latest command's process group: SIGTERM, then SIGKILL if it lingers.
    pub async fn kill(&self) -> ToolResult<()> {
        let pid = self.lock().run.as_ref().ok_or_else(|| self.no_command())?.pid;
        signal_group(pid, Signal::SIGTERM);
        self.wait(KILL_GRACE).await;
        // Also when bash is gone: children it left in the group may still be alive.
        signal_group(pid, Signal::SIGKILL);
        self.wait(KILL_GRACE).await;
        Ok(())
    }

    /// SIGKILL to the latest command's group, without waiting (shutdown).
    pub fn kill_now(&self) {
        if let Some(run) = self.lock().run.as_ref() {
            signal_group(run.pid, Signal::SIGKILL);
        }
    }

    /// Live output from `from` (default: the latest command's start), ending with an
    /// `Exit` item once the command that was running at subscription has finished.
    pub fn stream(
        self: std::sync::Arc<Self>,
        from: Option<u64>,
    ) -> ToolResult<impl futures::Stream<Item = StreamItem>> {
        let (seq, start) = {
            let state = self.lock();
            let run = state.run.as_ref().ok_or_else(|| self.no_command())?;
            (run.seq, from.unwrap_or(run.start_offset))
        };
        let mut changes = self.changed.subscribe();
        Ok(async_stream::stream! {
            let mut offset = start;
            loop {
                let (slice, exit) = {
                    let state = self.lock();
                    let slice = state.console.read_from(offset);
                    let exit = state
                        .run
                        .as_ref()
                        .filter(|run| run.seq != seq || run.outcome.is_some())
                        .map(|run| snapshot_of(&self.id, run, Slice { text: String::new(), truncated: false, end: slice.end }));
                    (slice, exit)
                };
                if !slice.text.is_empty() {
                    offset = slice.end;
                    yield StreamItem::Output(slice);
                }
                if let Some(exit) = exit {
                    yield StreamItem::Exit(exit);
                    break;
                }
                if changes.changed().await.is_err() {
                    break;
                }
            }
        })
    }

    fn no_command(&self) -> ToolError {
        ToolError::not_found(format!("shell session '{}' has not run a command yet", self.id))
    }
}

fn signal_group(pid: u32, signal: Signal) {
    if let Ok(pid) = i32::try_from(pid) {
        // ESRCH (the group is already gone) is the expected outcome of a repeated kill.
        let _ = killpg(Pid::from_raw(pid), signal);
    }
}

fn state_of(run: &Run) -> CommandState {
    match run.outcome {
        None => CommandState::Running,
        Some(Outcome { signal: Some(_), .. }) => CommandState::Killed,
        Some(_) => CommandState::Exited,
    }
}

fn snapshot_of(id: &str, run: &Run, output: Slice) -> ShellSnapshot {
    ShellSnapshot {
        session: id.to_owned(),
        command: run.command.clone(),
        state: state_of(run),
        pid: run.pid,
        exit_code: run.outcome.and_then(|o| o.exit_code),
        signal: run.outcome.and_then(|o| o.signal),
        output: output.text,
        truncated: output.truncated,
        offset: output.end,
        started_at_ms: run.started_at_ms,
        finished_at_ms: run.outcome.map(|o| o.finished_at_ms),
    }
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
