//! The driver process: Python running `driver.py`, holding one Jupyter kernel, spoken to in
//! JSON lines (the protocol is described at the top of `driver.py`). This side writes
//! cells, reads answers by id (skipping answers to cells whose caller went away) and
//! remembers the kernel's process group for interrupts.

use std::collections::BTreeMap;
use std::process::Stdio;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use nix::sys::signal::Signal;
use serde::Deserialize;
use tokio::io::AsyncWriteExt;
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio_util::codec::{FramedRead, LinesCodec};
use tool_api_contract::code::CodeRunResult;

use crate::config::KernelSettings;
use crate::network_gate::NetworkGate;
use crate::process_group;
use crate::stderr_tail::StderrTail;
use crate::system_program;

/// The driver program: its E2B part (`streamed.py`) first, as `driver.py` uses it.
const DRIVER: &str = concat!(include_str!("streamed.py"), include_str!("driver.py"));
/// What the driver teaches each kernel it starts (E2B's extra result fields, a shown
/// figure's PNG from one draw, an image's `show()` as a picture), passed the same way.
const FORMATS: &str = concat!(
    include_str!("formats.py"),
    include_str!("figures.py"),
    include_str!("pictures.py")
);
const FORMATS_VARIABLE: &str = "SANDPIPER_KERNEL_FORMATS";
/// The driver's source travels in this variable, which the bootstrap takes out again: on
/// the command line it would fill every `ps` listing the agent reads.
const DRIVER_VARIABLE: &str = "SANDPIPER_KERNEL_DRIVER";
const BOOTSTRAP: &str =
    "import os; exec(compile(os.environ.pop('SANDPIPER_KERNEL_DRIVER'), 'driver.py', 'exec'))";
/// What lets the driver start its kernel (see `driver.py`).
const START_LINE: &[u8] = b"{\"start\": true}\n";
/// stderr bytes kept to say why the driver ended.
const STDERR_TAIL_BYTES: usize = 4 << 10;
/// How long stderr may take to close once the driver ended.
const STDERR_GRACE: Duration = Duration::from_millis(200);
/// Longest answer line; the driver's own limits keep answers far below it.
const MAX_LINE_BYTES: usize = 64 << 20;

/// The process groups of the running kernel and its driver, shared with whoever must
/// signal them without holding the driver: a call cancelled mid-cell interrupts the
/// kernel, the server's shutdown kills both. 0 while none runs.
#[derive(Clone, Default)]
pub struct Running {
    kernel: Arc<AtomicU32>,
    driver: Arc<AtomicU32>,
}

impl Running {
    pub fn interrupt(&self) {
        signal(&self.kernel, Signal::SIGINT);
    }

    pub fn kill(&self) {
        signal(&self.kernel, Signal::SIGKILL);
        signal(&self.driver, Signal::SIGKILL);
    }
}

fn signal(pid: &AtomicU32, signal: Signal) {
    match pid.load(Ordering::Acquire) {
        0 => {}
        pid => process_group::signal(pid, signal),
    }
}

/// Forgets `pid` unless another process took its place meanwhile.
fn clear(slot: &AtomicU32, pid: u32) {
    let _ = slot.compare_exchange(pid, 0, Ordering::AcqRel, Ordering::Acquire);
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Line {
    Ready {
        kernel_pid: u32,
    },
    Answer {
        id: u64,
        result: CodeRunResult,
    },
    /// One output of a streamed cell, in E2B's shape.
    Event {
        id: u64,
        event: serde_json::Value,
    },
    /// A streamed cell's end.
    Done {
        id: u64,
        done: bool,
    },
}

pub struct Driver {
    child: Child,
    pid: u32,
    stdin: ChildStdin,
    lines: FramedRead<ChildStdout, LinesCodec>,
    stderr: StderrTail,
    /// This driver's kernel (0 before it is ready).
    kernel_pid: u32,
    running: Running,
    next_id: u64,
}

impl Driver {
    /// Starts the driver in `cwd` and waits until its kernel is ready; the error says why
    /// it is not (no Python, no Jupyter, a kernel that would not start).
    pub async fn start(
        settings: &KernelSettings,
        cwd: &std::path::Path,
        running: Running,
        network_gate: &NetworkGate,
    ) -> Result<Self, String> {
        let limits = serde_json::to_string(settings).map_err(|err| err.to_string())?;
        // The system's Python, never one of the user's making: its `PATH` starts in the
        // home, and the kernel may start before any request (a warm pool's sandbox).
        let python = system_program::resolve(&settings.python)?;
        let mut command = Command::new(&python);
        command
            // Isolated: nothing of the home (its site packages and their `.pth` files, a
            // module in the working directory, `PYTHON*` variables) enters the driver,
            // which may start before the sandbox's network rules; the kernel it starts
            // is the person's, with their site packages, and starts only after them.
            .args(["-I", "-c", BOOTSTRAP, &limits])
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        command
            .env(DRIVER_VARIABLE, DRIVER)
            .env(FORMATS_VARIABLE, FORMATS);
        let mut child = command
            .spawn()
            .map_err(|err| format!("could not run {}: {err}", python.display()))?;
        let (Some(pid), Some(stdin), Some(stdout), Some(stderr)) = (
            child.id(),
            child.stdin.take(),
            child.stdout.take(),
            child.stderr.take(),
        ) else {
            return Err("the kernel's driver ended before it could be watched".into());
        };
        running.driver.store(pid, Ordering::Release);
        let mut driver = Self {
            child,
            pid,
            stdin,
            lines: FramedRead::new(stdout, LinesCodec::new_with_max_length(MAX_LINE_BYTES)),
            stderr: StderrTail::collect(stderr, STDERR_TAIL_BYTES),
            kernel_pid: 0,
            running,
            next_id: 0,
        };
        // The driver imports its libraries meanwhile; the kernel starts on this line.
        network_gate.opened().await;
        if driver.stdin.write_all(START_LINE).await.is_err() {
            return Err(driver.ended().await);
        }
        let start = Duration::from_secs_f64(settings.start_timeout_secs);
        match tokio::time::timeout(start, driver.ready()).await {
            Ok(Ok(())) => Ok(driver),
            Ok(Err(ended)) => Err(ended),
            Err(_) => Err(format!(
                "the kernel did not start within {}s",
                settings.start_timeout_secs
            )),
        }
    }

    async fn ready(&mut self) -> Result<(), String> {
        loop {
            match self.next_line().await {
                Some(Line::Ready { .. }) => return Ok(()),
                Some(_) => {}
                None => return Err(self.ended().await),
            }
        }
    }

    /// Sends a cell; its answer is read with [`Driver::answer`].
    /// The driver program's process id: another driver, another kernel.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    pub async fn send(&mut self, code: &str) -> Result<u64, String> {
        self.write(serde_json::json!({ "code": code })).await
    }

    /// Sends a cell whose outputs come one by one, read with [`Driver::next_event`]; it
    /// runs with `base_env` and `env` set in the kernel (`env` undone after it).
    pub async fn send_streamed(
        &mut self,
        code: &str,
        base_env: &BTreeMap<String, String>,
        env: &BTreeMap<String, String>,
    ) -> Result<u64, String> {
        let cell = serde_json::json!({ "code": code, "stream": true, "base_env": base_env, "env": env });
        self.write(cell).await
    }

    /// The next output of streamed cell `id`, `None` at its end; `Err` when the driver
    /// ended, saying why.
    pub async fn next_event(&mut self, id: u64) -> Result<Option<serde_json::Value>, String> {
        loop {
            match self.next_line().await {
                Some(Line::Event { id: of, event }) if of == id => return Ok(Some(event)),
                Some(Line::Done { id: of, done: true }) if of == id => return Ok(None),
                Some(_) => {}
                None => return Err(self.ended().await),
            }
        }
    }

    async fn write(&mut self, mut cell: serde_json::Value) -> Result<u64, String> {
        self.next_id += 1;
        cell["id"] = self.next_id.into();
        let mut line = cell.to_string();
        line.push('\n');
        match self.stdin.write_all(line.as_bytes()).await {
            Ok(()) => Ok(self.next_id),
            Err(_) => Err(self.ended().await),
        }
    }

    /// Reads until the answer to cell `id`; `Err` when the driver ended, saying why.
    pub async fn answer(&mut self, id: u64) -> Result<CodeRunResult, String> {
        loop {
            match self.next_line().await {
                Some(Line::Answer { id: answered, result }) if answered == id => return Ok(result),
                Some(_) => {}
                None => return Err(self.ended().await),
            }
        }
    }

    /// The driver's next line (`None` at its end); a kernel announced ready is the one
    /// interrupts go to from then on.
    async fn next_line(&mut self) -> Option<Line> {
        loop {
            let line = self.lines.next().await?.ok()?;
            match serde_json::from_str::<Line>(&line) {
                Ok(line) => {
                    if let Line::Ready { kernel_pid } = line {
                        self.kernel_pid = kernel_pid;
                        self.running.kernel.store(kernel_pid, Ordering::Release);
                    }
                    return Some(line);
                }
                Err(err) => tracing::warn!(%err, "a line from the kernel's driver that is not an answer"),
            }
        }
    }

    async fn ended(&mut self) -> String {
        self.kill();
        let status = self.child.wait().await.map(|s| s.to_string()).unwrap_or_default();
        let stderr = self.stderr.finish(STDERR_GRACE).await;
        let stderr = String::from_utf8_lossy(&stderr);
        let last = stderr
            .lines()
            .rev()
            .find(|line| !line.trim().is_empty())
            .unwrap_or("");
        format!("the kernel's driver ended ({status}) {last}")
            .trim()
            .to_owned()
    }

    /// Ends the driver and its kernel (which runs in a session of its own).
    pub fn kill(&mut self) {
        if self.kernel_pid != 0 {
            process_group::signal(self.kernel_pid, Signal::SIGKILL);
            clear(&self.running.kernel, self.kernel_pid);
        }
        process_group::signal(self.pid, Signal::SIGKILL);
        clear(&self.running.driver, self.pid);
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.kill();
    }
}
