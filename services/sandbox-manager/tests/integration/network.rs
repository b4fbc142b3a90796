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
use std::process::Command;
use std::time::Duration;

use sandbox_manager_client::contract::{CreateSandbox, NetworkMode};
use support::{docker, request, Manager};
use tool_api_client::contract::files::WriteFileRequest;
use tool_api_client::ToolApiClient;

/// Connects to each target and names what happened (`deploy/checks/net_probe.py`).
const PROBE: &str = include_str!("../../../../deploy/checks/net_probe.py");

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
    let manager = Manager::start(&[
        ("SANDBOX__INTERNET_NETWORK", &network.name),
        ("SANDBOX__OFFLINE_NETWORK", &network.name),
        ("SANDBOX__ADDRESS_MODE", "bridge"),
    ]);
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
    let mut control = vec![
        "run",
        "--rm",
        "--network",
        &network.name,
        "--entrypoint",
        "python3",
        support::image(),
        "-c",
        PROBE,
    ];
    control.extend(served.iter().map(String::as_str));
    let control = verdicts(&docker(&control));
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

fn tools(sandbox: &sandbox_manager_client::contract::Sandbox) -> ToolApiClient {
    let access = sandbox.tool_api.clone().unwrap();
    ToolApiClient::new(&access.url, &access.token)
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

/// Two managers making the sandboxes' network at once on an engine before API 1.44 make
/// twins of one name, and the engine then starts no container on either ("ambiguous"). The
/// manager keeps one, removes the other, and its sandboxes start.
#[tokio::test(flavor = "multi_thread")]
async fn twin_networks_of_one_name_are_merged_and_sandboxes_start() {
    let name = format!("sandpiper-twin-{}", support::random_suffix());
    let made = make_twins(&name, 2).await;
    let _cleanup = made.iter().map(|id| NetworkGuard(id.clone())).collect::<Vec<_>>();

    let manager = Manager::start(&[
        ("SANDBOX__INTERNET_NETWORK", &name),
        ("SANDBOX__OFFLINE_NETWORK", &name),
    ]);
    let sandbox = manager.client.create(&request("twins", "alice")).await.unwrap();
    let left = networks_named(&name);
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(joined_network(&manager, &sandbox.id), left[0]);
}

/// A twin appears beside a network a container is already on (another manager made it
/// before it saw the first): the twin in use is the one kept, whatever the ids, and new
/// sandboxes join it.
#[tokio::test(flavor = "multi_thread")]
async fn the_twin_in_use_is_the_one_kept() {
    let name = format!("sandpiper-used-{}", support::random_suffix());
    // The network in use, made again until its id is not among the smallest (a quarter
    // of ids are), so that a twin with a smaller id — which a choice by id alone would
    // keep — comes within a few tries.
    let first = loop {
        let made = make_twins(&name, 1)
            .await
            .pop()
            .expect("the first network is made");
        if made.as_str() >= "4" {
            break made;
        }
        docker(&["network", "rm", &made]);
    };
    let _first = NetworkGuard(first.clone());
    let _user = ContainerGuard(docker(&[
        "run",
        "-d",
        "--network",
        &first,
        "--entrypoint",
        "sleep",
        support::image(),
        "600",
    ]));
    // Twins, each removed again unless its id is smaller, so that no more than two
    // networks (two of the engine's few address pools) are held at once. An engine from
    // API 1.44 on refuses twins: nothing to choose then.
    let mut twin = None;
    for _ in 0..100 {
        match make_twins(&name, 1).await.pop() {
            Some(made) if made < first => {
                twin = Some(NetworkGuard(made));
                break;
            }
            Some(made) => {
                docker(&["network", "rm", &made]);
            }
            None => break,
        }
    }
    let _twin = twin;

    let manager = Manager::start(&[
        ("SANDBOX__INTERNET_NETWORK", &name),
        ("SANDBOX__OFFLINE_NETWORK", &name),
    ]);
    let sandbox = manager.client.create(&request("used", "alice")).await.unwrap();
    assert_eq!(networks_named(&name), vec![first.clone()]);
    assert_eq!(joined_network(&manager, &sandbox.id), first);
}

/// Makes `count` networks named `name` through the engine's API, as two managers racing
/// on an engine before API 1.44 do; a newer engine refuses a twin, and fewer are made.
async fn make_twins(name: &str, count: usize) -> Vec<String> {
    let engine = bollard::Docker::connect_with_local_defaults().unwrap();
    let mut made = Vec::new();
    for _ in 0..count {
        let request = bollard::models::NetworkCreateRequest {
            name: name.to_owned(),
            ..Default::default()
        };
        match engine.create_network(request).await {
            Ok(network) => made.push(network.id),
            Err(err) => assert!(err.to_string().contains("already exists"), "{err}"),
        }
    }
    made
}

/// The network a running manager resolved is removed under it (an operator's `docker
/// network prune`, another manager): the next sandbox starts all the same, on the network
/// made anew.
#[tokio::test(flavor = "multi_thread")]
async fn a_network_removed_under_a_running_manager_is_made_again() {
    let name = format!("sandpiper-gone-{}", support::random_suffix());
    // Made before the manager so it drops after it: the network can go only once the
    // manager's containers have left it.
    let _cleanup = NetworkGuard(name.clone());
    let manager = Manager::start(&[
        ("SANDBOX__INTERNET_NETWORK", &name),
        ("SANDBOX__OFFLINE_NETWORK", &name),
    ]);
    let first = manager.client.create(&request("before", "alice")).await.unwrap();
    let removed = joined_network(&manager, &first.id);
    manager.client.delete(&first.id).await.unwrap();
    docker(&["network", "rm", &removed]);

    let second = manager.client.create(&request("after", "alice")).await.unwrap();
    let made_again = networks_named(&name);
    assert_eq!(made_again.len(), 1, "{made_again:?}");
    assert_ne!(made_again[0], removed);
    assert_eq!(joined_network(&manager, &second.id), made_again[0]);
}

/// The full ids of the networks named exactly `name`.
fn networks_named(name: &str) -> Vec<String> {
    let filter = format!("name=^{name}$");
    let listed = docker(&["network", "ls", "-q", "--no-trunc", "--filter", &filter]);
    listed.lines().map(str::to_owned).collect()
}

/// The id of the one network the sandbox's container is on.
fn joined_network(manager: &Manager, sandbox_id: &str) -> String {
    docker(&[
        "inspect",
        "-f",
        "{{range .NetworkSettings.Networks}}{{.NetworkID}}{{end}}",
        &manager.container_name(sandbox_id),
    ])
}

/// Removes a network when dropped.
struct NetworkGuard(String);

/// Removes a container when dropped.
struct ContainerGuard(String);

impl Drop for ContainerGuard {
    fn drop(&mut self) {
        let _ = Command::new("docker").args(["rm", "-f", &self.0]).output();
    }
}

impl Drop for NetworkGuard {
    fn drop(&mut self) {
        let _ = Command::new("docker").args(["network", "rm", &self.0]).output();
    }
}

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
