//! The agent acting in a real sandbox: the real backend, the real sandbox-manager binary
//! against the Docker engine with the sandbox image, and a scripted model.
//!
//! Needs the Docker engine and the sandbox-manager binary (built by `cargo test
//! --workspace`, or `cargo build -p sandbox-manager`).
//!
//! # Layout
//!
//! - `commands.rs`: a run that plans, writes a file and runs it in the shell; stop in the
//!   middle of a command (the command is killed); deleting the session removes its
//!   sandbox;
//! - `replaced.rs`: a sandbox that dies is replaced with its files kept, and a death
//!   mid-run is reported;
//! - `browsing.rs`: the agent browsing a local page, the person seeing its screenshots;
//! - `crash.rs`: a manager killed mid-turn, started again: the turns complete and
//!   deleting the chat leaves nothing behind;
//! - `history.rs`: later turns, also after a restart, remember what earlier ones did and
//!   saw.
//!
//! This file holds the set-up they share.

mod browsing;
mod commands;
mod crash;
mod history;
mod replaced;

use crate::support;

use std::time::{Duration, Instant};

use backend_api::domain::image::ImageId;
use backend_api::domain::session::SessionId;
use backend_api::infrastructure::stores::StoragePorts;
use reqwest::{Method, StatusCode};
use sandbox_manager_client::contract::ListQuery;
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::manager::Manager;
use support::{borrowed, TestApp};
use tool_api_client::contract::shell::CommandState;

/// How long a sandbox step may take (the first one starts a container).
const WAIT: Duration = Duration::from_secs(120);

async fn backend(llm: &FakeLlm, manager: &Manager) -> TestApp {
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    let overrides = borrowed(&settings);
    TestApp::spawn(&overrides).await
}
