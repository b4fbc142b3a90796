//! Shell sessions: named consoles in which the agent runs commands.
//!
//! [`ShellManager`] owns the sessions (created on first use, capped in number) and turns
//! requests into [`Session`] calls: start a command and wait up to a timeout, view, wait,
//! feed input, kill, stream. The interactive terminal for a person lives in [`terminal`].

mod console;
mod launch;
mod session;
mod status_marker;
pub mod terminal;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use anyhow::Context;

use tool_api_contract::shell::{ExecRequest, ShellSessionList, ShellSnapshot};
use tool_api_contract::ErrorCode;

use launch::Launch;
use session::Session;
pub use session::StreamItem;
pub use terminal::Terminal;

use crate::config::Limits;
use crate::error::{ToolError, ToolResult};
use crate::paths::Workspace;

pub struct ShellManager {
    workspace: Workspace,
    limits: Limits,
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    terminals: terminal::OpenTerminals,
    /// Private (0700) directory for the commands' stdin FIFOs; removed on drop.
    fifo_dir: tempfile::TempDir,
}

impl ShellManager {
    pub fn new(workspace: Workspace, limits: Limits) -> anyhow::Result<Self> {
        let fifo_dir = tempfile::Builder::new()
            .prefix("tool-api-stdin-")
            .tempdir()
            .context("creating the directory for command input FIFOs")?;
        Ok(Self {
            workspace,
            limits,
            sessions: Mutex::new(HashMap::new()),
            terminals: terminal::OpenTerminals::default(),
            fifo_dir,
        })
    }

    fn sessions(&self) -> MutexGuard<'_, HashMap<String, Arc<Session>>> {
        self.sessions
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `request` in session `id` (created on first use) and waits for it up to the
    /// request's timeout; a command still running then is reported as such and goes on.
    pub async fn exec(&self, id: &str, request: ExecRequest) -> ToolResult<ShellSnapshot> {
        let wait = self.wait_time(request.timeout_secs)?;
        validate_command(&request)?;
        let cwd = match request.cwd.as_deref() {
            Some(cwd) => Some(self.directory(Some(cwd)).await?),
            None => None,
        };
        let (session, evicted) = self.get_or_create(id)?;
        if let Some(evicted) = evicted {
            evicted.close().await;
        }
        session
            .start(Launch {
                command: request.command,
                cwd,
                env: request.env,
            })
            .await?;
        session.wait(wait).await;
        session.snapshot(false)
    }

    pub fn view(&self, id: &str, full: bool) -> ToolResult<ShellSnapshot> {
        self.get(id)?.snapshot(full)
    }

    pub async fn wait(&self, id: &str, timeout_secs: Option<f64>) -> ToolResult<ShellSnapshot> {
        let wait = self.wait_time(timeout_secs)?;
        let session = self.get(id)?;
        session.wait(wait).await;
        session.snapshot(false)
    }

    pub async fn write_input(&self, id: &str, input: &str, enter: bool) -> ToolResult<ShellSnapshot> {
        let session = self.get(id)?;
        session.write_input(input, enter).await?;
        session.snapshot(false)
    }

    pub async fn kill(&self, id: &str) -> ToolResult<ShellSnapshot> {
        let session = self.get(id)?;
        session.kill().await?;
        session.snapshot(false)
    }

    /// Ends every running command, with `note` in its output (the storage quota's
    /// enforcement).
    pub async fn end_running(&self, note: &str) {
        let running: Vec<_> = self
            .sessions()
            .values()
            .filter(|s| s.is_running())
            .cloned()
            .collect();
        for session in running {
            session.note(note);
            let _ = session.kill().await;
        }
    }

    /// Kills the session's command (if any) and forgets the session.
    pub async fn remove(&self, id: &str) -> ToolResult<()> {
        let session = self.get(id)?;
        if session.is_running() {
            session.kill().await?;
        }
        self.sessions().remove(id);
        session.close().await;
        Ok(())
    }

    pub fn list(&self) -> ShellSessionList {
        let mut sessions: Vec<_> = self.sessions().values().filter_map(|s| s.summary()).collect();
        sessions.sort_by(|a, b| a.session.cmp(&b.session));
        ShellSessionList { sessions }
    }

    pub fn stream(&self, id: &str, from: Option<u64>) -> ToolResult<impl futures::Stream<Item = StreamItem>> {
        self.get(id)?.stream(from)
    }

    pub async fn running_count(&self) -> u32 {
        let count = self.sessions().values().filter(|s| s.is_running()).count();
        u32::try_from(count).unwrap_or(u32::MAX)
    }

    /// Opens an interactive terminal in `cwd` (default: the workspace).
    pub async fn open_terminal(&self, cwd: Option<&str>, cols: u16, rows: u16) -> ToolResult<Terminal> {
        let cwd = self.directory(cwd).await?;
        Terminal::spawn(&cwd, cols, rows, self.terminals.clone())
    }

    /// Kills every process group this server started.
    pub async fn shutdown(&self) {
        for session in self.sessions().values() {
            session.kill_now();
        }
        let terminals: Vec<u32> = self
            .terminals
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .copied()
            .collect();
        for pid in terminals {
            terminal::hang_up(pid);
        }
    }

    /// Resolves a working directory and checks that it is one.
    async fn directory(&self, cwd: Option<&str>) -> ToolResult<PathBuf> {
        let cwd = match cwd {
            Some(cwd) => self.workspace.resolve(cwd)?,
            None => self.workspace.root().to_path_buf(),
        };
        match tokio::fs::metadata(&cwd).await {
            Ok(meta) if meta.is_dir() => Ok(cwd),
            Ok(_) => Err(ToolError::new(
                ErrorCode::WrongKind,
                format!("{}: not a directory", cwd.display()),
            )),
            Err(err) => Err(ToolError::io(err, &cwd)),
        }
    }

    fn get(&self, id: &str) -> ToolResult<Arc<Session>> {
        validate_id(id)?;
        self.sessions()
            .get(id)
            .cloned()
            .ok_or_else(|| ToolError::not_found(format!("no shell session '{id}'")))
    }

    /// The session `id`, created when new; when the limit is reached, the least recently
    /// used idle session makes room and is returned second, for the caller to close.
    fn get_or_create(&self, id: &str) -> ToolResult<(Arc<Session>, Option<Arc<Session>>)> {
        validate_id(id)?;
        let mut sessions = self.sessions();
        if let Some(session) = sessions.get(id) {
            return Ok((session.clone(), None));
        }
        let mut evicted = None;
        if sessions.len() >= self.limits.max_shell_sessions {
            let idle = sessions
                .iter()
                .filter(|(_, s)| !s.is_running())
                .min_by_key(|(_, s)| s.last_used_ms())
                .map(|(k, _)| k.clone());
            match idle {
                Some(idle) => evicted = sessions.remove(&idle),
                None => {
                    return Err(ToolError::new(
                        ErrorCode::LimitReached,
                        format!(
                            "{} shell sessions are running (the limit); kill one first",
                            sessions.len()
                        ),
                    ))
                }
            };
        }
        let session = Arc::new(Session::new(
            id.to_owned(),
            self.limits.shell_buffer_bytes,
            self.workspace.root().to_path_buf(),
            self.fifo_dir.path().to_path_buf(),
        ));
        sessions.insert(id.to_owned(), session.clone());
        Ok((session, evicted))
    }

    fn wait_time(&self, timeout_secs: Option<f64>) -> ToolResult<Duration> {
        let secs = timeout_secs.unwrap_or(self.limits.exec_default_wait_secs);
        if !secs.is_finite() || secs < 0.0 {
            return Err(ToolError::invalid("timeout_secs must be a number of seconds ≥ 0"));
        }
        Ok(Duration::from_secs_f64(secs.min(self.limits.exec_max_wait_secs)))
    }
}

/// Session ids are names a model picks: keep them short and printable.
fn validate_id(id: &str) -> ToolResult<()> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if ok {
        Ok(())
    } else {
        Err(ToolError::invalid(format!(
            "invalid shell session id {id:?}: use 1–64 letters, digits, '-', '_' or '.'"
        )))
    }
}

fn validate_command(request: &ExecRequest) -> ToolResult<()> {
    if request.command.contains('\0') {
        return Err(ToolError::invalid("command contains a NUL byte"));
    }
    if request.command.trim().is_empty() {
        return Err(ToolError::invalid("command is empty"));
    }
    crate::child_env::check(&request.env).map_err(ToolError::invalid)
}
