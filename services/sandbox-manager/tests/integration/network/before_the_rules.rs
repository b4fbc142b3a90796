//! Nothing of a sandbox's user runs before its firewall. A person's home outlives the
//! sandbox (E2B's pause keeps it on a volume), and every Python start in it runs the
//! `.pth` files of its `~/.local`: here one that connects to a service on the host, which
//! the firewall refuses. The kernel that starts with each resumed sandbox runs it, yet in
//! 20 pause/resume cycles the service sees no connection, while a container on the same
//! network without the firewall reaches it at once.

use crate::support;

use std::io::ErrorKind;
use std::net::TcpListener;

use base64::Engine;
use sandbox_manager_client::contract::{CreateSandbox, StorageKind};
use support::{request, sh, tools};

use super::SharedNetwork;

const CYCLES: usize = 20;

/// Imported by a `.pth` at every Python start in the home: notes the start, then tries the
/// host's service.
const EARLY: &str = r#"
import os, socket
with open("/proc/self/cmdline", "rb") as cmdline:
    started = cmdline.read().replace(b"\0", b" ").decode()
with open(os.path.expanduser("~/early-starts"), "a") as starts:
    starts.write(started + "\n")
try:
    socket.create_connection((TARGET), timeout=2).close()
except OSError:
    pass
"#;

#[tokio::test(flavor = "multi_thread")]
async fn a_homes_own_code_never_runs_before_the_firewall_across_resumes() {
    let network = SharedNetwork::create();
    let manager = network.manager(&[]);
    let client = &manager.client;
    let service = TcpListener::bind("0.0.0.0:0").unwrap();
    service.set_nonblocking(true).unwrap();
    let target = format!(
        "'{}', {}",
        network.gateway(),
        service.local_addr().unwrap().port()
    );

    // The service is there for anything on the network without the firewall.
    let reach = format!("import socket; socket.create_connection(({target}), timeout=5).close()");
    network.python(&["-c", &reach]);
    assert_eq!(accepted(&service), 1, "a plain container reaches the service");

    let resume = CreateSandbox {
        storage: Some(StorageKind::Volume),
        warm_kernel: true,
        ..request("early", "mallory")
    };
    let mut sandbox = client.create(&resume).await.unwrap();
    let site = sh(
        &tools(&sandbox),
        "python3 -c 'import site; print(site.getusersitepackages())'",
    )
    .await;
    let early = base64::engine::general_purpose::STANDARD.encode(EARLY.replace("TARGET", &target));
    let plant = format!(
        "mkdir -p {site} && echo {early} | base64 -d > {site}/early.py && echo 'import early' > {site}/early.pth",
        site = site.trim()
    );
    sh(&tools(&sandbox), &plant).await;

    for _ in 0..CYCLES {
        client.stop(&sandbox.id).await.unwrap();
        sandbox = client.create(&resume).await.unwrap();
    }
    let starts = sh(&tools(&sandbox), "cat ~/early-starts").await;
    let kernels = starts.lines().filter(|line| line.contains("ipykernel")).count();
    assert!(
        kernels >= CYCLES,
        "the planted code ran at each kernel start:\n{starts}"
    );
    assert_eq!(accepted(&service), 0, "connections from the sandbox's own code");
    client.delete(&sandbox.id).await.unwrap();
}

/// The connections the service has taken since asked last.
fn accepted(service: &TcpListener) -> usize {
    let mut count = 0;
    loop {
        match service.accept() {
            Ok(_) => count += 1,
            Err(err) if err.kind() == ErrorKind::WouldBlock => return count,
            Err(err) => panic!("accepting: {err}"),
        }
    }
}
