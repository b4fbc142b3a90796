//! Shell sessions and the interactive terminal.
//!
//! A shell session is a named console: each `exec` runs one command (`bash -c`) in its own
//! process group, its output is appended to the session's bounded console buffer, and the
//! call returns when the command ends or when its wait timeout passes — the command then
//! goes on in the background and can be viewed, waited for, fed input or killed later.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct ExecRequest {
    pub command: String,
    /// Working directory; relative to the workspace when not absolute. Defaults to it.
    #[serde(default)]
    pub cwd: Option<String>,
    /// Extra environment variables for this command.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// How long to wait for the command before answering "still running" (default 30 s,
    /// capped by the server).
    #[serde(default)]
    pub timeout_secs: Option<f64>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct WaitRequest {
    /// Default 30 s, capped by the server.
    #[serde(default)]
    pub timeout_secs: Option<f64>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct InputRequest {
    pub input: String,
    /// Send a newline after the input (default true).
    #[serde(default = "yes")]
    pub enter: bool,
}

/// Query of `GET /v1/shell/sessions/{id}`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, IntoParams)]
pub struct ViewQuery {
    /// Return the whole console of the session instead of the last command's output.
    #[serde(default)]
    pub full: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CommandState {
    Running,
    /// Ended by itself; see `exit_code`.
    Exited,
    /// Ended by a signal (a kill, or e.g. a segfault); see `signal`.
    Killed,
}

/// The state of a shell session's latest command and its output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ShellSnapshot {
    pub session: String,
    pub command: String,
    pub state: CommandState,
    pub pid: u32,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    /// stdout and stderr as they were interleaved, lossily decoded as UTF-8.
    pub output: String,
    /// True when older output was dropped from the bounded buffer; `output` then starts
    /// with a marker line.
    pub truncated: bool,
    /// Byte offset in the session console where `output` ends; resume the live stream here.
    pub offset: u64,
    pub started_at_ms: i64,
    pub finished_at_ms: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ShellSessionSummary {
    pub session: String,
    pub command: String,
    pub state: CommandState,
    pub pid: u32,
    pub started_at_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ShellSessionList {
    pub sessions: Vec<ShellSessionSummary>,
}

/// Query of `GET /v1/shell/sessions/{id}/stream` (SSE). Events: `output` (data: a JSON
/// string with the text; `id:` the console offset after it) and `exit` (data: the final
/// [`ShellSnapshot`] without output). `Last-Event-ID` overrides `from`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, IntoParams)]
pub struct StreamQuery {
    /// Console byte offset to start from (default: the start of the latest command).
    #[serde(default)]
    pub from: Option<u64>,
}

/// Query of the terminal WebSocket `GET /v1/shell/terminal`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, IntoParams)]
pub struct TerminalQuery {
    #[serde(default)]
    pub cols: Option<u16>,
    #[serde(default)]
    pub rows: Option<u16>,
    #[serde(default)]
    pub cwd: Option<String>,
}

/// Text frames the terminal client sends. Binary frames are raw keyboard input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TerminalClientMessage {
    Input { data: String },
    Resize { cols: u16, rows: u16 },
}

/// Text frames the server sends. Binary frames are raw terminal output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TerminalServerMessage {
    Exit { code: Option<i32> },
    Error { message: String },
}

fn yes() -> bool {
    true
}
