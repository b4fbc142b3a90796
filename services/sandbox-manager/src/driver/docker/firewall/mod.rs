//! The firewall every Docker sandbox gets inside its own network namespace: an `internet`
//! sandbox reaches public addresses only, an `offline` one nothing, and neither reaches
//! another sandbox, backend-api, the manager, the host, or a private, loopback,
//! link-local (metadata) or multicast address; only the tool-api's port accepts
//! connections, which is how backend-api and the manager reach it.
//!
//! Why in the sandbox's namespace: its processes run without capabilities, so they
//! cannot change rules there, yet the manager can install them with nothing but the
//! engine's API — a short-lived helper container from the sandbox image joins that one
//! namespace with CAP_NET_ADMIN and loads the ruleset with `nft`; until then the sandbox
//! starts nothing of its user's (tool-api's network gate). The rules then hold
//! whatever network the sandbox shares with whom (Compose puts backend-api on it), and
//! the host's own firewall, whose backend and chains differ from host to host, is never
//! touched. The host's own addresses are blocked too, as a sandbox would otherwise reach
//! the host's services through a public address of it.
//!
//! # Layout
//! - `ruleset`: the nftables rules of one sandbox, and the ranges no sandbox reaches.
//! - `helper`: the short-lived containers that load them and read the host's addresses.

mod helper;
mod ruleset;

use std::collections::HashMap;
use std::net::Ipv4Addr;

use bollard::models::{ContainerCreateBody, HostConfig};
use bollard::Docker;
use sandbox_manager_contract::NetworkMode;
use tokio::sync::OnceCell;

use self::helper::{create, helper_host_config, not_installed, run};
pub(super) use self::helper::{remove, Helper};
use self::ruleset::{is_blocked, ruleset};
use crate::driver::{DriverError, DriverResult, LABEL_MANAGED, LABEL_NAMESPACE, MANAGED_BY};

/// Prints the host's own IPv4 addresses: the `/32 host LOCAL` entries of the routing
/// table, each after the `|--` line naming it. Run on the host's network, where
/// `/proc/net` is the host's.
const HOST_ADDRESSES: &str = r"/\|--/ { address = $2 } /\/32 host LOCAL/ { print address }";

/// Installs sandboxes' rulesets; knows the host's addresses once it has looked them up.
pub(super) struct Firewall {
    /// The image helpers run (the sandbox image) and the manager namespace that names
    /// and labels them.
    image: String,
    namespace: String,
    host_addresses: OnceCell<Vec<Ipv4Addr>>,
}

impl Firewall {
    pub(super) fn new(image: String, namespace: String) -> Self {
        Self {
            image,
            namespace,
            host_addresses: OnceCell::new(),
        }
    }

    /// The name of the helper that installs `container`'s rules, so a leftover of an
    /// interrupted run is found again.
    pub(super) fn helper_name(container: &str) -> String {
        format!("{container}-firewall")
    }

    /// Makes the helper that loads the ruleset for `mode` into `container`'s network
    /// namespace, which it joins once both run: made while the sandbox starts, it is
    /// not on the way of the sandbox's start, which waits for the rules (tool-api's
    /// network gate). The sandbox must not be used when this or [`Helper::run`] fails.
    pub(super) async fn prepare(
        &self,
        docker: &Docker,
        container: &str,
        mode: NetworkMode,
    ) -> DriverResult<Helper> {
        let host = self.host_addresses(docker).await?;
        let config = ContainerCreateBody {
            entrypoint: Some(vec!["nft".into()]),
            cmd: Some(vec![ruleset(mode, host)]),
            host_config: Some(HostConfig {
                network_mode: Some(format!("container:{container}")),
                cap_drop: Some(vec!["ALL".into()]),
                cap_add: Some(vec!["NET_ADMIN".into()]),
                ..helper_host_config()
            }),
            ..self.helper_config("0:0")
        };
        let name = Self::helper_name(container);
        create(docker, &name, config).await.map_err(not_installed)?;
        Ok(Helper { name })
    }

    /// The host's own IPv4 addresses outside [`BLOCKED`], looked up once per manager run.
    async fn host_addresses(&self, docker: &Docker) -> DriverResult<&[Ipv4Addr]> {
        let addresses = self
            .host_addresses
            .get_or_try_init(|| async {
                let config = ContainerCreateBody {
                    entrypoint: Some(vec!["awk".into()]),
                    cmd: Some(vec![HOST_ADDRESSES.into(), "/proc/net/fib_trie".into()]),
                    host_config: Some(HostConfig {
                        network_mode: Some("host".into()),
                        cap_drop: Some(vec!["ALL".into()]),
                        ..helper_host_config()
                    }),
                    ..self.helper_config("1000:1000")
                };
                let name = format!("sandpiper-{}-host-addresses", self.namespace);
                let output = run(docker, &name, config).await.map_err(|err| {
                    DriverError::StartFailed(format!("the host's addresses could not be read: {err}"))
                })?;
                let mut addresses: Vec<Ipv4Addr> = output
                    .lines()
                    .filter_map(|line| line.trim().parse().ok())
                    .filter(|address| !is_blocked(*address))
                    .collect();
                addresses.sort_unstable();
                addresses.dedup();
                tracing::info!(
                    ?addresses,
                    "sandboxes are kept from these addresses of the host too"
                );
                Ok::<_, DriverError>(addresses)
            })
            .await?;
        Ok(addresses)
    }

    fn helper_config(&self, user: &str) -> ContainerCreateBody {
        ContainerCreateBody {
            image: Some(self.image.clone()),
            user: Some(user.into()),
            labels: Some(HashMap::from([
                (LABEL_MANAGED.to_owned(), MANAGED_BY.to_owned()),
                (LABEL_NAMESPACE.to_owned(), self.namespace.clone()),
            ])),
            ..Default::default()
        }
    }
}
