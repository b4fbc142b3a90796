//! The firewall every Docker sandbox gets inside its own network namespace: an `internet`
//! sandbox reaches public addresses only, an `offline` one nothing, and neither reaches
//! another sandbox, backend-api, the manager, the host, or a private, loopback,
//! link-local (metadata) or multicast address; only the tool-api's port accepts
//! connections, which is how backend-api and the manager reach it.
//!
//! Why in the sandbox's namespace: its processes run without capabilities, so they
//! cannot change rules there, yet the manager can install them with nothing but the
//! engine's API — a short-lived helper container from the sandbox image joins that one
//! namespace with CAP_NET_ADMIN and loads the ruleset with `nft`. The rules then hold
//! whatever network the sandbox shares with whom (Compose puts backend-api on it), and
//! the host's own firewall, whose backend and chains differ from host to host, is never
//! touched. The host's own addresses are blocked too, as a sandbox would otherwise reach
//! the host's services through a public address of it.

use std::collections::HashMap;
use std::net::Ipv4Addr;

use bollard::errors::Error as BollardError;
use bollard::models::{ContainerCreateBody, HostConfig};
use bollard::query_parameters::{
    CreateContainerOptionsBuilder, LogsOptionsBuilder, RemoveContainerOptionsBuilder,
};
use bollard::Docker;
use futures::{StreamExt, TryStreamExt};
use sandbox_manager_contract::NetworkMode;
use tokio::sync::OnceCell;

use super::engine_error::classify;
use crate::driver::{DriverError, DriverResult, LABEL_MANAGED, LABEL_NAMESPACE, MANAGED_BY, TOOL_API_PORT};

/// IPv4 ranges no sandbox reaches: those IANA's special-purpose registry marks as not
/// globally reachable where real networks live — "this network", private (RFC 1918),
/// shared address space (carrier NAT; some clouds' metadata service), loopback,
/// link-local (169.254.169.254), IETF protocol assignments — and multicast, reserved
/// and broadcast. The documentation and benchmarking ranges route nowhere and are left
/// alone; IPv6 is refused altogether (the sandbox networks have none).
const BLOCKED: [(Ipv4Addr, u8); 9] = [
    (Ipv4Addr::new(0, 0, 0, 0), 8),
    (Ipv4Addr::new(10, 0, 0, 0), 8),
    (Ipv4Addr::new(100, 64, 0, 0), 10),
    (Ipv4Addr::new(127, 0, 0, 0), 8),
    (Ipv4Addr::new(169, 254, 0, 0), 16),
    (Ipv4Addr::new(172, 16, 0, 0), 12),
    (Ipv4Addr::new(192, 0, 0, 0), 24),
    (Ipv4Addr::new(192, 168, 0, 0), 16),
    (Ipv4Addr::new(224, 0, 0, 0), 3),
];

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

    /// Loads the ruleset for `mode` into the network namespace of the running `container`.
    /// The sandbox must not be used when this fails.
    pub(super) async fn install(
        &self,
        docker: &Docker,
        container: &str,
        mode: NetworkMode,
    ) -> DriverResult<()> {
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
        run(docker, &Self::helper_name(container), config)
            .await
            .map(drop)
            .map_err(|err| {
                DriverError::StartFailed(format!("the sandbox's firewall was not installed: {err}"))
            })
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

/// What every helper shares: read-only, no privilege gained, bounded.
fn helper_host_config() -> HostConfig {
    HostConfig {
        readonly_rootfs: Some(true),
        security_opt: Some(vec!["no-new-privileges".into()]),
        memory: Some(64 * 1024 * 1024),
        pids_limit: Some(16),
        ..Default::default()
    }
}

fn is_blocked(address: Ipv4Addr) -> bool {
    BLOCKED.iter().any(|&(network, prefix)| {
        let mask = u32::MAX << (32 - u32::from(prefix));
        u32::from(address) & mask == u32::from(network)
    })
}

/// The nftables ruleset of one sandbox. Refusals are rejects, not drops, so a blocked
/// connection fails at once ("No route to host") instead of hanging until a time-out.
fn ruleset(mode: NetworkMode, host: &[Ipv4Addr]) -> String {
    let outward = match mode {
        NetworkMode::Offline => String::new(),
        NetworkMode::Internet => {
            let blocked: Vec<String> = BLOCKED
                .iter()
                .map(|(network, prefix)| format!("{network}/{prefix}"))
                .chain(host.iter().map(ToString::to_string))
                .collect();
            // Root owns no process of the sandbox: its sockets there are the engine's DNS
            // server forwarding the sandbox's queries to the host's resolvers, which may
            // well have private addresses.
            format!(
                "    meta skuid 0 meta l4proto {{ tcp, udp }} th dport 53 accept\n    \
                 ip daddr {{ {} }} reject with icmpx type admin-prohibited\n    \
                 meta nfproto ipv4 accept\n",
                blocked.join(", ")
            )
        }
    };
    // The table is created, deleted and made again in one transaction: installing twice
    // replaces the rules instead of adding a second copy.
    format!(
        "table inet sandpiper\n\
         delete table inet sandpiper\n\
         table inet sandpiper {{\n  \
           chain input {{\n    \
             type filter hook input priority filter; policy drop;\n    \
             iif lo accept\n    \
             ct state established,related accept\n    \
             tcp dport {TOOL_API_PORT} accept\n  \
           }}\n  \
           chain output {{\n    \
             type filter hook output priority filter; policy drop;\n    \
             oif lo accept\n    \
             ct state established,related accept\n\
         {outward}    \
             reject with icmpx type admin-prohibited\n  \
           }}\n\
         }}\n"
    )
}

/// Runs a helper container to its end and returns its output; a leftover of the same
/// name (a run the manager did not see to its end) is removed first.
async fn run(docker: &Docker, name: &str, config: ContainerCreateBody) -> DriverResult<String> {
    remove(docker, name).await?;
    let options = CreateContainerOptionsBuilder::default().name(name).build();
    docker
        .create_container(Some(options), config)
        .await
        .map_err(classify)?;
    let outcome = finish(docker, name).await;
    remove(docker, name).await?;
    outcome
}

async fn finish(docker: &Docker, name: &str) -> DriverResult<String> {
    docker
        .start_container(name, None::<bollard::query_parameters::StartContainerOptions>)
        .await
        .map_err(classify)?;
    let exit = docker.wait_container(name, None).next().await;
    let options = LogsOptionsBuilder::default().stdout(true).stderr(true).build();
    let output: Vec<_> = docker
        .logs(name, Some(options))
        .try_collect()
        .await
        .map_err(classify)?;
    let output: String = output.iter().map(ToString::to_string).collect();
    match exit {
        Some(Ok(_)) => Ok(output),
        Some(Err(BollardError::DockerContainerWaitError { code, .. })) => Err(DriverError::Engine(format!(
            "exit code {code}: {}",
            output.trim()
        ))),
        Some(Err(err)) => Err(classify(err)),
        None => Err(DriverError::Engine("the engine did not say how it ended".into())),
    }
}

/// Removes a helper (or its leftover); succeeds when there is none.
pub(super) async fn remove(docker: &Docker, name: &str) -> DriverResult<()> {
    let options = RemoveContainerOptionsBuilder::default().force(true).build();
    match docker.remove_container(name, Some(options)).await {
        Ok(()) | Err(BollardError::DockerResponseServerError { status_code: 404, .. }) => Ok(()),
        Err(err) => Err(classify(err)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_blocked_by_prefix() {
        for blocked in [
            "10.1.2.3",
            "172.31.255.1",
            "169.254.169.254",
            "100.100.100.200",
            "127.0.0.53",
            "224.0.0.1",
        ] {
            assert!(is_blocked(blocked.parse().unwrap()), "{blocked}");
        }
        for open in [
            "172.32.0.1",
            "8.8.8.8",
            "192.0.2.2",
            "100.128.0.1",
            "203.0.113.80",
        ] {
            assert!(!is_blocked(open.parse().unwrap()), "{open}");
        }
    }

    #[test]
    fn only_internet_sandboxes_have_a_way_out() {
        let host = [Ipv4Addr::new(192, 0, 2, 2)];
        let internet = ruleset(NetworkMode::Internet, &host);
        assert!(
            internet.contains("192.168.0.0/16, 224.0.0.0/3, 192.0.2.2 }"),
            "{internet}"
        );
        assert!(internet.contains("meta nfproto ipv4 accept"), "{internet}");
        let offline = ruleset(NetworkMode::Offline, &host);
        assert!(
            !offline.contains("nfproto") && !offline.contains("skuid"),
            "{offline}"
        );
        for rules in [internet, offline] {
            assert!(rules.contains("tcp dport 8080 accept"), "{rules}");
            assert!(
                rules
                    .trim_end()
                    .ends_with("reject with icmpx type admin-prohibited\n  }\n}"),
                "{rules}"
            );
        }
    }
}
