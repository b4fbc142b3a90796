//! Shell sessions through HTTP against the real server and real processes.
//!
//! # Layout
//!
//! - `commands.rs`: a command's output and exit code, its directory and variables, one
//!   that outlives its wait, input, and kill;
//! - `output.rs`: output bounded with a marker, live output streamed and resumed, and bad
//!   requests' errors;
//! - `sessions.rs`: fifty sessions at once, the session limit, a session kept like a
//!   terminal, and input or output that could be mistaken for the shell's own.
//!
//! This file holds the requests they share.

mod commands;
mod output;
mod sessions;

use crate::support;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use support::sse::SseReader;
use support::{alive, expect_code, output_of, spawn_app, spawn_app_with};
use tool_api_contract::shell::{CommandState, ExecRequest, ShellSnapshot};
use tool_api_contract::ErrorCode;

fn run(command: &str) -> ExecRequest {
    ExecRequest {
        command: command.into(),
        ..Default::default()
    }
}

fn run_for(command: &str, timeout_secs: f64) -> ExecRequest {
    ExecRequest {
        timeout_secs: Some(timeout_secs),
        ..run(command)
    }
}
