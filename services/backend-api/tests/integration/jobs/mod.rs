//! Headless jobs against the real server and a scripted model, run with a `jobs` API key
//! that may do nothing else and is charged the job's tokens.
//!
//! # Layout
//!
//! - `sandbox.rs`: a job that writes a file in a real sandbox (its answer, files and zip),
//!   and an offline job's sandboxes; these two need the Docker engine and the
//!   sandbox-manager binary (see `agent_sandbox`);
//! - `runs.rs`: cancel mid-run, a job that asks and is answered, the time limit;
//! - `queue.rs`: the queue in order, also across a restart, and a full queue refusing more
//!   (429 with `Retry-After`);
//! - `webhook.rs`: a webhook on waiting and on the end, signed and retried (its receiver
//!   serves the automations' tests too);
//! - `input.rs`: attachments the run reads (in a real sandbox), and bad input.
//!
//! The others call no sandbox tool, so they need no sandbox. This file holds what they
//! share.

mod input;
mod queue;
mod runs;
mod sandbox;
mod webhook;

pub(crate) use webhook::{calls, receiver};

use std::io::Read;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::HeaderMap;
use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;

use reqwest::{Method, StatusCode};
use sandbox_manager_client::contract::{ListQuery, NetworkMode};
use serde_json::{json, Value};

use crate::support::fake_llm::{FakeLlm, Reply};
use crate::support::manager::Manager;
use crate::support::{borrowed, TestApp};

const JOBS: &str = "/api/v1/jobs";

/// How long a job may take to get somewhere (the first sandbox starts a container).
const WAIT: Duration = Duration::from_secs(120);

async fn backend(llm: &FakeLlm, extra: &[(&'static str, String)]) -> TestApp {
    let mut settings = llm.settings();
    settings.extend_from_slice(extra);
    TestApp::spawn(&borrowed(&settings)).await
}

/// A `jobs` API key of a new account, and the account's access token.
async fn jobs_key(app: &TestApp, email: &str) -> (String, String) {
    let (token, _, _) = app.register(email).await;
    (app.jobs_key(&token).await, token)
}
