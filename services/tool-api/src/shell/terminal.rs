//! Interactive terminals: a login-like bash on a PTY, for the person who takes over.
//!
//! Unlike shell sessions, a terminal lives exactly as long as its connection: dropping the
//! [`Terminal`] hangs up and kills its process group, and the manager keeps the pids of
//! open terminals so a shutdown reaches them too.

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex};

use anyhow::Context;
use nix::sys::signal::Signal;
use pty_process::{OwnedReadPty, OwnedWritePty, Size};
use tokio::process::Child;

use crate::error::{ToolError, ToolResult};
use crate::process_group;

/// Pids (= process group ids) of the open terminals.
pub type OpenTerminals = Arc<Mutex<HashSet<u32>>>;

pub struct Terminal {
    pub output: OwnedReadPty,
    pub input: OwnedWritePty,
    pub child: Child,
    pid: u32,
    open: OpenTerminals,
}

impl Terminal {
    pub fn spawn(cwd: &Path, cols: u16, rows: u16, open: OpenTerminals) -> ToolResult<Self> {
        let (pty, pts) = pty_process::open().context("opening a pty")?;
        pty.resize(size(cols, rows)?).context("sizing the pty")?;
        let child = pty_process::Command::new("bash")
            .arg("-l")
            .current_dir(cwd)
            .env("TERM", "xterm-256color")
            .spawn(pts)
            .map_err(|err| match err {
                pty_process::Error::Io(err) => ToolError::io(err, cwd),
                other => {
                    ToolError::Internal(anyhow::Error::new(other).context("starting the terminal shell"))
                }
            })?;
        let pid = child.id().context("a just-spawned child has a pid")?;
        open.lock().unwrap_or_else(|p| p.into_inner()).insert(pid);
        let (output, input) = pty.into_split();
        Ok(Self {
            output,
            input,
            child,
            pid,
            open,
        })
    }

    pub fn resize(&self, cols: u16, rows: u16) -> ToolResult<()> {
        self.input.resize(size(cols, rows)?).context("resizing the pty")?;
        Ok(())
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        self.open
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.pid);
        hang_up(self.pid);
    }
}

/// SIGHUP lets shells save history; SIGKILL makes sure nothing stays behind.
pub fn hang_up(pid: u32) {
    process_group::signal(pid, Signal::SIGHUP);
    process_group::signal(pid, Signal::SIGCONT);
    process_group::signal(pid, Signal::SIGKILL);
}

fn size(cols: u16, rows: u16) -> ToolResult<Size> {
    if cols == 0 || rows == 0 || cols > 1000 || rows > 1000 {
        return Err(ToolError::invalid(format!(
            "terminal size {cols}x{rows} is out of range (1–1000 columns and rows)"
        )));
    }
    Ok(Size::new(rows, cols))
}
