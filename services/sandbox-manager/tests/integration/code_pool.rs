//! The code pool against the real engine: sandboxes with a home volume and their code
//! interpreter's kernel started, handed to the sessions that ask for exactly that, their
//! volume following them (kept across a manager restart, taken over by the session's next
//! sandbox after a stop, removed with the sandbox), while a pool sandbox's volume that no
//! record holds after a crash is removed.

use crate::support;

use std::time::Duration;

use sandbox_manager_client::contract::{CreateSandbox, LifecycleKind, StorageKind};
use support::{expect_event, request, sh, tools, Manager};

/// What E2B's code interpreter asks for: files on a volume, the kernel started.
fn code_request(session: &str) -> CreateSandbox {
    CreateSandbox {
        storage: Some(StorageKind::Volume),
        warm_kernel: true,
        ..request(session, "alice")
    }
}

async fn code_pool_ready(manager: &Manager) -> u64 {
    manager.health().await["code_pool"]["ready"].as_u64().unwrap()
}

/// The volume of a pool sandbox, keyed by its id behind a `_` (no session id starts so).
fn pool_volume(manager: &Manager, id: &str) -> String {
    format!("sandpiper-{}-home-_{id}", manager.namespace)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_code_pool_hands_out_its_kernel_and_volume_which_follow_the_session() {
    let mut manager = Manager::start(&[("POOL__CODE_SIZE", "1")]);
    let wait = Duration::from_secs(120);
    support::eventually(wait, "code pool filled", || async {
        code_pool_ready(&manager).await == 1
    })
    .await;
    let pooled = manager.containers();
    assert_eq!(pooled.len(), 1);
    assert_eq!(manager.volumes(), vec![pool_volume(&manager, &pooled[0])]);
    let client = manager.client.clone();
    let mut events = Box::pin(client.events(None).await.unwrap());

    // A request of another shape is not given it: no kernel asked for.
    let plain = CreateSandbox {
        storage: Some(StorageKind::Volume),
        ..request("c-plain", "bob")
    };
    let plain = client.create(&plain).await.unwrap();
    assert_ne!(plain.id, pooled[0]);
    client.delete(&plain.id).await.unwrap();

    let first = client.create(&code_request("c-1")).await.unwrap();
    assert_eq!(first.id, pooled[0], "the pooled sandbox was handed out");
    let ready = expect_event(
        &mut events,
        LifecycleKind::Ready,
        &first.id,
        Duration::from_secs(5),
    )
    .await;
    assert!(ready.message.contains("warm pool"), "{}", ready.message);
    // Its kernel runs before any cell was sent.
    let kernels = sh(&tools(&first), "pgrep -fc ipykernel").await;
    assert_eq!(kernels.trim(), "1", "{kernels}");
    sh(&tools(&first), "echo kept > ~/note.txt").await;
    // A session named like the claimed sandbox gets a volume of its own, not that one.
    let namesake = CreateSandbox {
        storage: Some(StorageKind::Volume),
        ..request(&first.id, "mallory")
    };
    let namesake = client.create(&namesake).await.unwrap();
    let seen = sh(&tools(&namesake), "cat ~/note.txt 2>/dev/null || echo none").await;
    assert_eq!(seen.trim(), "none");
    client.delete(&namesake.id).await.unwrap();

    // A crash: the pool's next sandbox, unclaimed, is an orphan with its volume; the
    // claimed one keeps its own.
    support::eventually(wait, "code pool refilled", || async {
        code_pool_ready(&manager).await == 1
    })
    .await;
    let refill = manager
        .containers()
        .into_iter()
        .find(|id| *id != first.id)
        .expect("the pool's next sandbox");
    manager.kill();
    manager.restart();
    let client = manager.client.clone();
    support::eventually(wait, "the orphan's volume removed", || async {
        !manager.volumes().contains(&pool_volume(&manager, &refill))
    })
    .await;
    assert!(manager.volumes().contains(&pool_volume(&manager, &first.id)));
    let first = client.get(&first.id).await.unwrap();
    assert_eq!(sh(&tools(&first), "cat ~/note.txt").await.trim(), "kept");

    // Stopped (E2B's pause), the session's next sandbox takes its volume over.
    client.stop(&first.id).await.unwrap();
    let resumed = client.create(&code_request("c-1")).await.unwrap();
    assert_ne!(resumed.id, first.id);
    assert_eq!(sh(&tools(&resumed), "cat ~/note.txt").await.trim(), "kept");
    assert!(client.get(&first.id).await.is_err(), "the ended record gave way");

    // Deleted, the volume goes with it.
    client.delete(&resumed.id).await.unwrap();
    assert!(!manager.volumes().contains(&pool_volume(&manager, &first.id)));
    assert!(client.get(&resumed.id).await.is_err());
    drop(events);
}
