//! One stdio server: the process with its pipes, the tail of its stderr, and its slot.
//! Dropping it kills the process group, so whatever ends the connection ends the server
//! and everything it started (`npx` runs the real server as its child).

use std::io;
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use nix::sys::signal::Signal;
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio_util::codec::{FramedRead, LinesCodec};
use tool_api_contract::mcp::StdioStart;

use super::{reason, Slot};
use crate::stderr_tail::StderrTail;
use crate::system_program;
use crate::{child_env, process_group};

/// stderr bytes kept for the reason the server ended.
const STDERR_TAIL_BYTES: usize = 4 << 10;
/// How long a server may take to exit once it closed its stdout.
const EXIT_WAIT: Duration = Duration::from_secs(1);
/// How long stderr may take to close once the group is killed.
const STDERR_GRACE: Duration = Duration::from_millis(200);

/// The process's stdout, one message per line, each at most the message limit.
pub type Lines = FramedRead<ChildStdout, LinesCodec>;

pub struct StdioServer {
    pub pid: u32,
    pub stdin: ChildStdin,
    pub stdout: Lines,
    pub child: Child,
    stderr: StderrTail,
    max_message_bytes: usize,
    /// Held for the server's life; dropped after the kill.
    _slot: Slot,
}

/// How the relay saw the server end.
pub enum Ending {
    Exited(io::Result<ExitStatus>),
    /// stdout reached its end; the process may still be exiting.
    OutputClosed,
    /// A stdout line over the message limit.
    LineTooLong,
    /// A stdout line that is not UTF-8 (JSON-RPC over stdio is UTF-8 text).
    NotText,
}

impl StdioServer {
    /// Starts `spec` in `cwd`; the error is a message for the person who configured it.
    pub(super) fn spawn(
        spec: &StdioStart,
        cwd: &Path,
        max_message_bytes: usize,
        slot: Slot,
    ) -> Result<Self, String> {
        check(spec)?;
        let program = system_program::resolve(&spec.command)?;
        let mut command = Command::new(program);
        command
            .arg0(&spec.command)
            .args(&spec.args)
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        command.envs(&spec.env).env("PATH", system_program::SYSTEM_PATH);
        let mut child = command.spawn().map_err(|err| spawn_error(&spec.command, &err))?;
        let pid = child.id().ok_or("the process ended before it could be watched")?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            process_group::signal(pid, Signal::SIGKILL);
            return Err("the process's pipes were not set up".into());
        };
        let slot = slot.occupied_by(pid);
        Ok(Self {
            pid,
            stdin,
            stdout: FramedRead::new(stdout, LinesCodec::new_with_max_length(max_message_bytes)),
            child,
            stderr: StderrTail::collect(stderr, STDERR_TAIL_BYTES),
            max_message_bytes,
            _slot: slot,
        })
    }

    /// Stops what is left of the server and says why it ended, in a close reason.
    pub async fn finish(&mut self, ending: Ending) -> String {
        let what = match ending {
            Ending::Exited(status) => exit_text(status),
            Ending::OutputClosed => match tokio::time::timeout(EXIT_WAIT, self.child.wait()).await {
                Ok(status) => exit_text(status),
                Err(_) => "closed its stdout but kept running, so it was stopped".to_owned(),
            },
            Ending::LineTooLong => format!(
                "wrote a message over the {} byte limit, so it was stopped",
                self.max_message_bytes
            ),
            Ending::NotText => "wrote a line that is not UTF-8 text, so it was stopped".to_owned(),
        };
        process_group::signal(self.pid, Signal::SIGKILL);
        let stderr = self.stderr.finish(STDERR_GRACE).await;
        reason::with_stderr(&what, &stderr)
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        process_group::signal(self.pid, Signal::SIGKILL);
    }
}

fn check(spec: &StdioStart) -> Result<(), String> {
    if spec.command.trim().is_empty() {
        return Err("the command is empty".into());
    }
    if spec.command.contains('\0') || spec.args.iter().any(|arg| arg.contains('\0')) {
        return Err("the command or an argument contains a NUL byte".into());
    }
    child_env::check(&spec.env)
}

fn spawn_error(command: &str, err: &io::Error) -> String {
    match err.kind() {
        // The program was found; what it needs (a script's interpreter) was not.
        io::ErrorKind::NotFound => format!(
            "{command}: could not be started (a program it needs, such as its interpreter, is missing)"
        ),
        io::ErrorKind::PermissionDenied => format!("{command}: permission denied (not an executable file)"),
        _ => format!("{command}: could not be started ({err})"),
    }
}

fn exit_text(status: io::Result<ExitStatus>) -> String {
    match status {
        Ok(status) => reason::status(status),
        Err(err) => format!("ended (its exit status could not be read: {err})"),
    }
}
