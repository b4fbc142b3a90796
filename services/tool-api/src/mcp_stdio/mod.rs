//! MCP stdio servers run inside the sandbox for backend-api, which speaks MCP to them
//! over a WebSocket (`GET /v1/mcp/stdio`; the wire is described in
//! `tool_api_contract::mcp`). This module starts and stops the processes and knows
//! nothing of HTTP: [`StdioServers`] hands out a bounded number of slots, a [`Slot`]
//! starts one [`StdioServer`], and `http::mcp_stdio` relays its lines.
//!
//! A server runs as the sandbox user in the workspace, in a process group of its own,
//! with the environment shell sessions get less the tool-api's secrets, plus its own,
//! and `PATH` set to the system's directories. Its program is found there only, and
//! must be one the sandbox user cannot change ([`crate::system_program`]).

mod process;
pub mod reason;

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use nix::sys::signal::Signal;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tool_api_contract::mcp::StdioStart;
use tool_api_contract::ErrorCode;

pub use process::{Ending, Lines, StdioServer};

use crate::config::Limits;
use crate::error::{ToolError, ToolResult};
use crate::process_group;

pub struct StdioServers {
    workspace: PathBuf,
    max_servers: usize,
    max_message_bytes: usize,
    slots: Arc<Semaphore>,
    /// Process group ids of the running servers, for [`StdioServers::shutdown`].
    running: Arc<Mutex<HashSet<u32>>>,
}

impl StdioServers {
    pub fn new(workspace: PathBuf, limits: &Limits) -> Self {
        Self {
            workspace,
            max_servers: limits.mcp_stdio_max_servers,
            max_message_bytes: limits.mcp_stdio_message_max_bytes,
            slots: Arc::new(Semaphore::new(limits.mcp_stdio_max_servers)),
            running: Arc::default(),
        }
    }

    /// The largest message either way, in bytes.
    pub fn max_message_bytes(&self) -> usize {
        self.max_message_bytes
    }

    /// Room for one more server, taken before the WebSocket upgrade so that a full
    /// sandbox answers with an ordinary `429 limit_reached`.
    pub fn reserve(self: &Arc<Self>) -> ToolResult<Slot> {
        let permit = self.slots.clone().try_acquire_owned().map_err(|_| {
            ToolError::new(
                ErrorCode::LimitReached,
                format!(
                    "{} MCP stdio servers are running in this sandbox, the most it runs at once; stop one first",
                    self.max_servers
                ),
            )
        })?;
        Ok(Slot {
            servers: self.clone(),
            _permit: permit,
            pid: None,
        })
    }

    /// Kills every running server's process group (the tool-api is stopping).
    pub fn shutdown(&self) {
        for &pid in self.running().iter() {
            process_group::signal(pid, Signal::SIGKILL);
        }
    }

    fn running(&self) -> MutexGuard<'_, HashSet<u32>> {
        self.running.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// One reserved place; freed when dropped, with or without a server in it.
pub struct Slot {
    servers: Arc<StdioServers>,
    _permit: OwnedSemaphorePermit,
    pid: Option<u32>,
}

impl Slot {
    /// Starts `spec`; the error is a message for the person who configured the server.
    pub fn start(self, spec: &StdioStart) -> Result<StdioServer, String> {
        let servers = self.servers.clone();
        StdioServer::spawn(spec, &servers.workspace, servers.max_message_bytes, self)
    }

    fn occupied_by(mut self, pid: u32) -> Self {
        self.servers.running().insert(pid);
        self.pid = Some(pid);
        self
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(pid) = self.pid {
            self.servers.running().remove(&pid);
        }
    }
}
