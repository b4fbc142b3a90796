//! The sandboxes' networks of one test process (shared by path with backend-api's tests).
//!
//! Every manager a test process starts joins the same two networks, named after the
//! process, and no other process's: suites that run side by side on one engine never make,
//! resolve or remove each other's networks. Not a pair per manager: an engine has about 30
//! address pools, and a suite starts a manager per test, several at once (more on a machine
//! with more cores). Managers of one process sharing a network is what production does
//! too, and the manager resolves a network again when it vanishes.
//!
//! A process cannot remove its networks as it exits, so the first manager a process starts
//! removes those of test processes that have ended.
#![allow(dead_code)]

use std::process::Command;
use std::sync::Once;

const PREFIX: &str = "sandpiper-test-";

/// The manager's settings (without `SANDBOX_MANAGER_`) naming this process's networks.
pub fn settings() -> [(&'static str, String); 2] {
    static SWEPT: Once = Once::new();
    SWEPT.call_once(remove_ended);
    let pid = std::process::id();
    [
        ("SANDBOX__INTERNET_NETWORK", format!("{PREFIX}{pid}-internet")),
        ("SANDBOX__OFFLINE_NETWORK", format!("{PREFIX}{pid}-offline")),
    ]
}

/// Removes the networks of test processes that no longer run (one still in use stays).
fn remove_ended() {
    let Ok(listed) = Command::new("docker")
        .args(["network", "ls", "--format", "{{.Name}}", "--filter"])
        .arg(format!("name={PREFIX}"))
        .output()
    else {
        return;
    };
    for name in String::from_utf8_lossy(&listed.stdout).lines() {
        let owner = name
            .strip_prefix(PREFIX)
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok());
        let ended = owner.is_some_and(|pid| !std::path::Path::new(&format!("/proc/{pid}")).exists());
        if ended {
            let _ = Command::new("docker").args(["network", "rm", name]).output();
        }
    }
}
