//! The API against the real engine.
//!
//! # Layout
//!
//! - `sandboxes.rs`: create-or-get, access through the returned URL, hardening (no
//!   operator secret in a sandbox's environment), delete, a create whose client leaves,
//!   and volume storage across a restart and a stop;
//! - `limits.rs`: quotas and the memory budget;
//! - `errors.rs`: bad input, and a missing image or engine.
//!
//! This file holds what they share.

mod errors;
mod limits;
mod sandboxes;

use crate::support;

use std::time::Duration;

use sandbox_manager_client::contract::{
    CreateSandbox, ErrorCode, LimitsRequest, ListQuery, NetworkMode, SandboxState, StorageKind,
};
use serde_json::Value;
use support::{code, docker, request, Manager};
use tool_api_client::ToolApiClient;

/// The id of the network of that name.
fn network_id(name: &str) -> String {
    docker(&["network", "inspect", "-f", "{{.Id}}", name])
        .trim()
        .to_owned()
}
