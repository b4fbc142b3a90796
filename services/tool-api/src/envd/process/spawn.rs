//! Starting a process for the table: on pipes (stdout and stderr apart, stdin a pipe or
//! `/dev/null`) or on a PTY, in a process group of its own, with the tool-api's own
//! environment (whose secrets [`crate::child_env`] already removed) under the variables
//! of the request. A task per output source hands output to the attached streams, and a
//! waiter publishes the end and takes the process out of the table.

use std::os::unix::process::ExitStatusExt;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use bytes::Bytes;
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::{Exit, Input, Output, Process, ProcessTable, PtySize, StartSpec, Subscription};
use crate::envd::error::{EnvdError, EnvdResult};

/// The largest output chunk sent in one event.
const CHUNK_BYTES: usize = 32 << 10;

/// After a process exits, how long its output is still read: a program it left in the
/// background may hold the pipes open for good.
const OUTPUT_GRACE: Duration = Duration::from_millis(200);

pub(super) fn start(table: &Arc<ProcessTable>, spec: StartSpec) -> EnvdResult<(Arc<Process>, Subscription)> {
    if !spec.cwd.is_dir() {
        return Err(EnvdError::invalid(format!(
            "working directory {} does not exist or is not a directory",
            spec.cwd.display()
        )));
    }
    let (child, input, sources) = match spec.pty {
        Some(size) => spawn_pty(&spec, size)?,
        None => spawn_piped(&spec)?,
    };
    let pid = child
        .id()
        .ok_or_else(|| EnvdError::Internal(anyhow::anyhow!("a just-started process has no pid")))?;
    let (ended_sender, ended) = watch::channel(None);
    let process = Arc::new(Process {
        pid,
        config: spec.config,
        tag: spec.tag,
        input: tokio::sync::Mutex::new(input),
        subscribers: Mutex::new(Vec::new()),
        ended,
    });
    // Attached before any output is read, so the starting stream sees all of it.
    let subscription = process.subscribe();
    table.insert(process.clone());
    let readers = sources
        .into_iter()
        .map(|(source, wrap)| tokio::spawn(pump(process.clone(), source, wrap)))
        .collect();
    tokio::spawn(wait(Arc::downgrade(table), pid, child, readers, ended_sender));
    Ok((process, subscription))
}

type Source = (Box<dyn AsyncRead + Send + Unpin>, fn(Bytes) -> Output);

fn spawn_piped(spec: &StartSpec) -> EnvdResult<(tokio::process::Child, Input, Vec<Source>)> {
    let mut command = tokio::process::Command::new(&spec.config.cmd);
    command
        .args(&spec.config.args)
        .envs(&spec.env)
        .current_dir(&spec.cwd)
        .process_group(0)
        .stdin(if spec.stdin { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command
        .spawn()
        .map_err(|err| start_error(err, &spec.config.cmd))?;
    let input = child.stdin.take().map_or(Input::Closed, Input::Pipe);
    let mut sources: Vec<Source> = Vec::new();
    if let Some(stdout) = child.stdout.take() {
        sources.push((Box::new(stdout), Output::Stdout));
    }
    if let Some(stderr) = child.stderr.take() {
        sources.push((Box::new(stderr), Output::Stderr));
    }
    Ok((child, input, sources))
}

fn spawn_pty(spec: &StartSpec, size: PtySize) -> EnvdResult<(tokio::process::Child, Input, Vec<Source>)> {
    let internal =
        |err: pty_process::Error| EnvdError::Internal(anyhow::Error::new(err).context("opening a PTY"));
    let (pty, pts) = pty_process::open().map_err(internal)?;
    pty.resize(pty_size(size)?).map_err(internal)?;
    let child = pty_process::Command::new(&spec.config.cmd)
        .args(&spec.config.args)
        .envs(&spec.env)
        .current_dir(&spec.cwd)
        .spawn(pts)
        .map_err(|err| match err {
            pty_process::Error::Io(err) => start_error(err, &spec.config.cmd),
            other => internal(other),
        })?;
    let (output, input) = pty.into_split();
    Ok((child, Input::Pty(input), vec![(Box::new(output), Output::Pty)]))
}

/// A PTY size the kernel takes.
pub(super) fn pty_size(size: PtySize) -> EnvdResult<pty_process::Size> {
    if size.cols == 0 || size.rows == 0 || size.cols > 1000 || size.rows > 1000 {
        return Err(EnvdError::invalid(format!(
            "PTY size {}x{} is out of range (1–1000 columns and rows)",
            size.cols, size.rows
        )));
    }
    Ok(pty_process::Size::new(size.rows, size.cols))
}

fn start_error(err: std::io::Error, cmd: &str) -> EnvdError {
    match err.kind() {
        std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied => {
            EnvdError::invalid(format!("cannot start {cmd:?}: {err}"))
        }
        _ => EnvdError::Internal(anyhow::Error::new(err).context(format!("starting {cmd:?}"))),
    }
}

/// Reads one output source to its end (a PTY reads as an error once its program is gone).
async fn pump(
    process: Arc<Process>,
    mut source: Box<dyn AsyncRead + Send + Unpin>,
    wrap: fn(Bytes) -> Output,
) {
    let mut buffer = vec![0u8; CHUNK_BYTES];
    while let Ok(read @ 1..) = source.read(&mut buffer).await {
        process
            .publish(wrap(Bytes::copy_from_slice(&buffer[..read])))
            .await;
    }
}

async fn wait(
    table: Weak<ProcessTable>,
    pid: u32,
    mut child: tokio::process::Child,
    readers: Vec<JoinHandle<()>>,
    ended: watch::Sender<Option<Exit>>,
) {
    let status = child.wait().await;
    let deadline = tokio::time::Instant::now() + OUTPUT_GRACE;
    for mut reader in readers {
        if tokio::time::timeout_at(deadline, &mut reader).await.is_err() {
            reader.abort();
        }
    }
    // Out of the table first: a client that saw the end finds the process gone.
    if let Some(table) = table.upgrade() {
        table.remove(pid);
    }
    ended.send_replace(Some(exit_of(status)));
}

/// The end as E2B's envd reports it, in the words of Go's `os.ProcessState`.
fn exit_of(status: std::io::Result<ExitStatus>) -> Exit {
    let (exit_code, exited, status) = match status {
        Ok(status) => match (status.code(), status.signal()) {
            (Some(code), _) => (code, true, format!("exit status {code}")),
            (None, signal) => (-1, false, format!("signal: {}", signal_name(signal.unwrap_or(0)))),
        },
        Err(err) => {
            return Exit {
                exit_code: -1,
                exited: false,
                status: "unknown".into(),
                error: Some(format!("waiting for the process: {err}")),
            }
        }
    };
    Exit {
        error: (exit_code != 0).then(|| status.clone()),
        exit_code,
        exited,
        status,
    }
}

fn signal_name(signal: i32) -> String {
    let name = match signal {
        1 => "hangup",
        2 => "interrupt",
        3 => "quit",
        6 => "aborted",
        9 => "killed",
        11 => "segmentation fault",
        13 => "broken pipe",
        15 => "terminated",
        other => return format!("signal {other}"),
    };
    name.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_read_as_go_reports_them() {
        let exited = exit_of(Ok(ExitStatus::from_raw(3 << 8)));
        assert_eq!(
            (exited.exit_code, exited.exited, exited.status.as_str()),
            (3, true, "exit status 3")
        );
        assert_eq!(exited.error.as_deref(), Some("exit status 3"));
        let killed = exit_of(Ok(ExitStatus::from_raw(9)));
        assert_eq!(
            (killed.exit_code, killed.exited, killed.status.as_str()),
            (-1, false, "signal: killed")
        );
        assert_eq!(exit_of(Ok(ExitStatus::from_raw(0))).error, None);
    }
}
