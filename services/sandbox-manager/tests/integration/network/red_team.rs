//! Red team: what a sandbox reaches over the network, tried from inside real sandboxes the
//! real manager started. They share one ordinary bridge with traffic between containers
//! on and NAT out — the topology of Compose, and the most open one — so their own
//! firewall is all that keeps them in. A plain container on that bridge, with no
//! firewall, shows that each target with a server behind it is really there. The
//! manager reaches them at their own addresses on that bridge (`address_mode=bridge`):
//! nothing is published, and the firewall's one open port must still admit the host.

use crate::support;

use std::collections::HashMap;
use std::net::{TcpListener, UdpSocket};
use std::time::Duration;

use super::SharedNetwork;
use sandbox_manager_client::contract::{CreateSandbox, NetworkMode};
use support::{docker, request, tools};
use tool_api_client::contract::files::WriteFileRequest;
use tool_api_client::ToolApiClient;

/// Connects to each target and names what happened (`deploy/checks/net_probe.py`).
const PROBE: &str = include_str!("../../../../../deploy/checks/net_probe.py");

/// Where nothing listens here, but a cloud's metadata service or a private network's
/// hosts would: the firewall refuses before anything could answer.
const NOWHERE: [&str; 5] = [
    "169.254.169.254:80",
    "100.100.100.200:80",
    "10.0.0.1:80",
    "172.16.0.1:80",
    "192.168.0.1:80",
];

/// A public address (documentation range, so no one's server): whether anything answers
/// depends on the machine's way out, but only the firewall of an offline sandbox refuses.
const PUBLIC: &str = "198.51.100.1:80";

#[tokio::test(flavor = "multi_thread")]
async fn sandboxes_reach_public_addresses_only_and_offline_ones_nothing() {
    let network = SharedNetwork::create();
    let manager = network.manager(&[("SANDBOX__ADDRESS_MODE", "bridge")]);
    let client = &manager.client;
    // A service on the sandboxes' network, as backend-api and the manager are in Compose.
    let backend = format!("{}-backend", network.name);
    let namespace = format!("org.sandpiper.manager={}", manager.namespace);
    docker(&[
        "run",
        "-d",
        "--name",
        &backend,
        "--network",
        &network.name,
        "--label",
        &namespace,
        "--entrypoint",
        "python3",
        support::image(),
        "-m",
        "http.server",
        "8000",
    ]);
    // A service on the host, on every address of it.
    let host_service = TcpListener::bind("0.0.0.0:0").unwrap();
    let host_port = host_service.local_addr().unwrap().port();

    let offline = CreateSandbox {
        network: Some(NetworkMode::Offline),
        ..request("net-c", "carol")
    };
    let (a, b) = (request("net-a", "alice"), request("net-b", "bob"));
    let (a, b, c) = tokio::join!(client.create(&a), client.create(&b), client.create(&offline));
    let (a, b, c) = (a.unwrap(), b.unwrap(), c.unwrap());
    let peer = format!(
        "{}:8080",
        address_on(&manager.container_name(&b.id), &network.name)
    );
    let mut served = vec![
        peer.clone(),
        format!("{backend}:8000"),
        format!("{}:{host_port}", network.gateway()),
    ];
    served.extend(primary_host_address().map(|host| format!("{host}:{host_port}")));

    // The targets are there: a container without the firewall reaches every one.
    let mut control = vec!["-c", PROBE];
    control.extend(served.iter().map(String::as_str));
    let control = verdicts(&network.python(&control));
    for target in &served {
        assert_eq!(
            control[target.as_str()],
            "open",
            "{target} from a plain container"
        );
    }

    // The backend's side: the manager reached each sandbox's tool-api to call it ready,
    // and the test reaches it through the URL it was given: the sandbox's own address,
    // with no port published on the host.
    assert_eq!(b.tool_api.as_ref().unwrap().url, format!("http://{peer}"));
    let published = docker(&["port", &manager.container_name(&b.id)]);
    assert!(published.is_empty(), "published: {published}");
    let restarted_id = b.id.clone();
    let (a, c) = (tools(&a), tools(&c));
    let everything: Vec<&str> = served
        .iter()
        .map(String::as_str)
        .chain(NOWHERE)
        .chain([PUBLIC])
        .collect();
    let seen = probe(&a, &everything).await;
    for target in served.iter().map(String::as_str).chain(NOWHERE) {
        assert_eq!(seen[target], "firewall", "{target} from an internet sandbox");
    }
    assert_ne!(
        seen[PUBLIC], "firewall",
        "a public address from an internet sandbox"
    );
    let seen = probe(&c, &everything).await;
    for target in &everything {
        assert_eq!(seen[*target], "firewall", "{target} from an offline sandbox");
    }

    // The sandbox's user cannot take the rules down.
    let flush = support::sh(&a, "nft flush ruleset 2>&1 || true").await;
    assert!(flush.contains("Operation not permitted"), "{flush}");
    assert_eq!(probe(&a, &[peer.as_str()]).await[peer.as_str()], "firewall");

    // A sandbox the manager starts again gets its rules again, for its own mode, and is
    // reached at its address after the start.
    docker(&["kill", &manager.container_name(&restarted_id)]);
    let b = support::restarted(client, &restarted_id, 1, Duration::from_secs(60)).await;
    let stand_in = format!("{backend}:8000");
    let seen = probe(&b, &[&stand_in, PUBLIC]).await;
    assert_eq!(seen[&stand_in], "firewall", "after a restart");
    assert_ne!(seen[PUBLIC], "firewall", "after a restart, still online");
}

/// Runs the probe in the sandbox, as its user.
async fn probe(sandbox: &ToolApiClient, targets: &[&str]) -> HashMap<String, String> {
    let script = WriteFileRequest {
        path: "net_probe.py".into(),
        content: PROBE.into(),
        append: false,
    };
    sandbox.write_file(&script).await.unwrap();
    let output = support::sh(sandbox, &format!("python3 net_probe.py {}", targets.join(" "))).await;
    verdicts(&output)
}

fn verdicts(output: &str) -> HashMap<String, String> {
    output
        .lines()
        .filter_map(|line| line.trim().split_once(' '))
        .map(|(target, verdict)| (target.to_owned(), verdict.to_owned()))
        .collect()
}

/// The container's address on `network`.
fn address_on(container: &str, network: &str) -> String {
    let format = format!("{{{{(index .NetworkSettings.Networks \"{network}\").IPAddress}}}}");
    docker(&["inspect", "-f", &format, container])
}

/// The host's address towards the internet, when it has a route there (no packet is sent).
fn primary_host_address() -> Option<std::net::IpAddr> {
    let socket = UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect(PUBLIC).ok()?;
    Some(socket.local_addr().ok()?.ip()).filter(|ip| !ip.is_unspecified())
}
