//! The manager's own network kept usable: twins of one name (two managers racing on an
//! older engine) merged, the twin in use kept, and a network removed under a running
//! manager made again.

use crate::support;

use std::process::Command;

use support::{docker, request, Manager};

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
