//! The sandboxes' networks, tried with real sandboxes of the real manager.
//!
//! # Layout
//! - `red_team`: what a sandbox reaches over the network, from inside, and how the
//!   manager reaches it.
//! - `twins`: the network the manager makes, kept usable when twins of it appear or it
//!   is removed under the manager.
//! - `before_the_rules`: nothing of a sandbox's user runs before its firewall, however
//!   often it is paused and resumed.

mod before_the_rules;
mod red_team;
mod twins;

use std::process::Command;

use crate::support::{self, docker, Manager};

/// A bridge network of the test's own, with Docker's defaults (traffic between containers
/// and NAT on); removed when dropped, after the manager declared later has removed its
/// containers.
struct SharedNetwork {
    name: String,
}

impl SharedNetwork {
    fn create() -> Self {
        let name = format!("sandpiper-net-{}", support::random_suffix());
        docker(&["network", "create", &name]);
        Self { name }
    }

    /// Starts a manager whose sandboxes, internet and offline alike, join this network,
    /// with `more` settings.
    fn manager(&self, more: &[(&str, &str)]) -> Manager {
        let mut settings = vec![
            ("SANDBOX__INTERNET_NETWORK", self.name.as_str()),
            ("SANDBOX__OFFLINE_NETWORK", self.name.as_str()),
        ];
        settings.extend_from_slice(more);
        Manager::start(&settings)
    }

    /// Runs `python3 <args>` in a plain container on the network, without the firewall;
    /// its output.
    fn python(&self, args: &[&str]) -> String {
        let mut run = vec![
            "run",
            "--rm",
            "--network",
            &self.name,
            "--entrypoint",
            "python3",
            support::image(),
        ];
        run.extend(args);
        docker(&run)
    }

    fn gateway(&self) -> String {
        docker(&[
            "network",
            "inspect",
            "-f",
            "{{(index .IPAM.Config 0).Gateway}}",
            &self.name,
        ])
    }
}

impl Drop for SharedNetwork {
    fn drop(&mut self) {
        let _ = Command::new("docker")
            .args(["network", "rm", &self.name])
            .output();
    }
}
