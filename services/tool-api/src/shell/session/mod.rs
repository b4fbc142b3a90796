//! One named shell session: a long-lived bash, its console and its latest command.
//!
//! Every session keeps one `bash` running (started on first use, and again after it exits
//! or is killed), so `cd`, variables and functions carry over from one command to the next
//! as in a terminal, and a builtin such as `echo` costs no process start at all. A command
//! is sent to bash's stdin as `eval '<command>'` followed by a status marker (see
//! [`StatusScanner`]); its own stdin is a FIFO of its own, so input meant for it can never
//! be read by bash as the next command. bash runs in a process group of its own, so a kill
//! reaches everything the session started.

mod views;

use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use anyhow::Context;
use nix::sys::signal::Signal;
use nix::sys::stat::Mode;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::unix::pipe;
use tokio::process::{ChildStdin, Command};
use tokio::sync::watch;
use tool_api_contract::shell::ShellSnapshot;
use tool_api_contract::ErrorCode;

use super::console::{Console, Slice};
use super::launch::{rand_u128, script_for, Launch};
use super::status_marker::{Piece, StatusScanner};
use crate::clock::now_ms;
use crate::error::{ToolError, ToolResult};
use crate::process_group;

/// How long a dead shell's output may take to drain before its command is reported ended
/// (a background job can keep the pipe open for ever).
const DRAIN_GRACE: Duration = Duration::from_millis(100);
/// How long a group gets between SIGTERM and SIGKILL.
const KILL_GRACE: Duration = Duration::from_millis(500);
const READ_CHUNK: usize = 64 << 10;

pub struct Session {
    id: String,
    /// Random per session; part of the status marker.
    nonce: String,
    /// Where bash starts.
    home: PathBuf,
    /// Private directory for the per-command stdin FIFOs.
    fifo_dir: PathBuf,
    state: Mutex<State>,
    /// Bumped on every new output or state change; waiters and streams watch it.
    changed: watch::Sender<u64>,
    io: tokio::sync::Mutex<Io>,
}

struct State {
    console: Console,
    run: Option<Run>,
    next_seq: u64,
}

/// The writing ends: bash's script input and the running command's stdin.
#[derive(Default)]
struct Io {
    shell: Option<Shell>,
    input: Option<pipe::Sender>,
}

struct Shell {
    pid: u32,
    script: ChildStdin,
}

struct Run {
    seq: u64,
    command: String,
    /// The shell that runs it (its pid is also the process group id).
    pid: u32,
    fifo: PathBuf,
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
    pub fn new(id: String, buffer_bytes: usize, home: PathBuf, fifo_dir: PathBuf) -> Self {
        Self {
            id,
            nonce: format!("{:032x}", rand_u128()),
            home,
            fifo_dir,
            state: Mutex::new(State {
                console: Console::new(buffer_bytes),
                run: None,
                next_seq: 0,
            }),
            changed: watch::channel(0).0,
            io: tokio::sync::Mutex::new(Io::default()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Every update under this lock is a single push or assignment, so a panic elsewhere
        // cannot leave it half-done: a poisoned lock is still consistent.
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn notify(&self) {
        self.changed.send_modify(|generation| *generation += 1);
    }

    pub fn is_running(&self) -> bool {
        self.lock().run.as_ref().is_some_and(|run| run.outcome.is_none())
    }

    /// Starts `launch` unless a command is still running.
    pub async fn start(self: &Arc<Self>, launch: Launch) -> ToolResult<()> {
        let mut guard = self.io.lock().await;
        let io = &mut *guard;
        if let Some(run) = self.lock().run.as_ref().filter(|run| run.outcome.is_none()) {
            return Err(ToolError::new(
                ErrorCode::SessionBusy,
                format!(
                    "shell session '{}' is still running `{}`; wait for it, kill it, or use another session",
                    self.id, run.command
                ),
            ));
        }
        if io.shell.is_none() {
            io.shell = Some(self.spawn_shell()?);
        }
        let seq = {
            let mut state = self.lock();
            state.next_seq += 1;
            state.next_seq
        };
        let fifo = self.fifo_dir.join(format!("{}-{seq}", self.id));
        nix::unistd::mkfifo(&fifo, Mode::S_IRUSR | Mode::S_IWUSR).context("creating the stdin FIFO")?;
        // Opened read-write so this open does not wait for bash to open the other end.
        let input = pipe::OpenOptions::new()
            .read_write(true)
            .open_sender(&fifo)
            .context("opening the stdin FIFO")?;
        let script = script_for(&launch, &fifo, &self.nonce);
        let shell = io.shell.as_mut().context("the session shell was just started")?;
        let pid = shell.pid;
        {
            let mut state = self.lock();
            state.console.push(format!("$ {}\n", launch.command).as_bytes());
            state.run = Some(Run {
                seq,
                command: launch.command,
                pid,
                fifo,
                start_offset: state.console.end(),
                started_at_ms: now_ms(),
                outcome: None,
            });
        }
        io.input = Some(input);
        if let Err(err) = shell.script.write_all(script.as_bytes()).await {
            // The shell died between commands; its waiter reports the run as ended.
            tracing::warn!(session = %self.id, error = %err, "the session shell is gone");
        }
        drop(guard);
        self.notify();
        Ok(())
    }

    fn spawn_shell(self: &Arc<Self>) -> ToolResult<Shell> {
        let (reader, writer) =
            nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).context("creating the output pipe")?;
        let stderr = writer.try_clone().context("duplicating the output pipe")?;
        let mut command = Command::new("bash");
        command
            .args(["--noprofile", "--norc"])
            .current_dir(&self.home)
            // Pagers and editors would wait for a terminal that is not there.
            .env("PAGER", "cat")
            .env("GIT_PAGER", "cat")
            .env("TERM", "dumb")
            .stdin(Stdio::piped())
            .stdout(Stdio::from(writer))
            .stderr(Stdio::from(stderr))
            .process_group(0);
        let mut child = command.spawn().context("starting bash")?;
        // The parent's copies of the write end must go, or the reader never sees EOF.
        drop(command);
        let pid = child.id().context("a just-spawned child has a pid")?;
        let script = child.stdin.take().context("bash's stdin is piped")?;
        let output = pipe::Receiver::from_owned_fd(reader).context("watching the output pipe")?;
        let (drained_tx, drained_rx) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(self.clone().pump_output(output, drained_tx));
        let session = self.clone();
        tokio::spawn(async move {
            let status = child.wait().await;
            let _ = tokio::time::timeout(DRAIN_GRACE, drained_rx).await;
            session.shell_exited(pid, status).await;
        });
        Ok(Shell { pid, script })
    }

    async fn pump_output(
        self: Arc<Self>,
        mut output: pipe::Receiver,
        drained: tokio::sync::oneshot::Sender<()>,
    ) {
        let mut scanner = StatusScanner::new(&self.nonce);
        let mut buf = vec![0u8; READ_CHUNK];
        loop {
            let n = match output.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            for piece in scanner.feed(&buf[..n]) {
                match piece {
                    Piece::Output(text) => self.lock().console.push(&text),
                    Piece::Status(status) => {
                        self.finish(Outcome {
                            exit_code: Some(status),
                            signal: None,
                            finished_at_ms: now_ms(),
                        })
                        .await
                    }
                }
            }
            self.notify();
        }
        self.lock().console.push(&scanner.flush());
        self.notify();
        let _ = drained.send(());
    }

    /// The shell is gone (`exit`, `set -e`, a kill): the command it ran ended with it.
    async fn shell_exited(&self, pid: u32, status: std::io::Result<std::process::ExitStatus>) {
        {
            let mut io = self.io.lock().await;
            if io.shell.as_ref().is_some_and(|shell| shell.pid == pid) {
                io.shell = None;
            }
        }
        let outcome = match status {
            Ok(status) => Outcome {
                exit_code: status.code(),
                signal: status.signal(),
                finished_at_ms: now_ms(),
            },
            Err(err) => {
                tracing::error!(error = %err, pid, "waiting for a session shell failed");
                Outcome {
                    exit_code: None,
                    signal: None,
                    finished_at_ms: now_ms(),
                }
            }
        };
        let runs_here = self.lock().run.as_ref().is_some_and(|run| run.pid == pid);
        if runs_here {
            self.finish(outcome).await;
        }
    }

    /// Ends the running command (if any) with `outcome`.
    async fn finish(&self, outcome: Outcome) {
        let input = self.io.lock().await.input.take();
        drop(input);
        let fifo = {
            let mut state = self.lock();
            match state.run.as_mut().filter(|run| run.outcome.is_none()) {
                Some(run) => {
                    run.outcome = Some(outcome);
                    Some(run.fifo.clone())
                }
                None => None,
            }
        };
        if let Some(fifo) = fifo {
            let _ = std::fs::remove_file(fifo);
        }
        self.notify();
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
        let mut io = self.io.lock().await;
        let not_running = || {
            ToolError::new(
                ErrorCode::NotRunning,
                format!(
                    "shell session '{}' has no running command to send input to",
                    self.id
                ),
            )
        };
        let stdin = io
            .input
            .as_mut()
            .filter(|_| self.is_running())
            .ok_or_else(not_running)?;
        let mut data = input.as_bytes().to_vec();
        if enter {
            data.push(b'\n');
        }
        stdin.write_all(&data).await.map_err(|_| not_running())
    }

    /// Adds a line of the tool-api's own to the console, e.g. why a command was ended.
    pub fn note(&self, note: &str) {
        self.lock().console.push(format!("\n{note}\n").as_bytes());
        self.notify();
    }

    /// Ends the latest command's process group: SIGTERM, then SIGKILL if it lingers.
    pub async fn kill(&self) -> ToolResult<()> {
        let pid = self.lock().run.as_ref().ok_or_else(|| self.no_command())?.pid;
        process_group::signal(pid, Signal::SIGTERM);
        self.wait(KILL_GRACE).await;
        // Also when bash is gone: children it left in the group may still be alive.
        process_group::signal(pid, Signal::SIGKILL);
        self.wait(KILL_GRACE).await;
        process_group::wait_until_gone(pid, KILL_GRACE).await;
        Ok(())
    }

    /// Closes the shell's input so it exits once idle. Background jobs it started go on;
    /// the session's tasks end with the shell, so nothing keeps the session alive.
    pub async fn close(&self) {
        let mut io = self.io.lock().await;
        io.shell = None;
        io.input = None;
    }

    /// When the latest command started (0 before any).
    pub fn last_used_ms(&self) -> i64 {
        self.lock().run.as_ref().map_or(0, |run| run.started_at_ms)
    }

    /// SIGKILL to the latest command's group, without waiting (shutdown).
    pub fn kill_now(&self) {
        if let Some(run) = self.lock().run.as_ref() {
            process_group::signal(run.pid, Signal::SIGKILL);
        }
    }

    fn no_command(&self) -> ToolError {
        ToolError::not_found(format!("shell session '{}' has not run a command yet", self.id))
    }
}
