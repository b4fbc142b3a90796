//! Lifecycle against the real engine: the warm pool, reaping, health, restarts, OOM kills,
//! and the event stream that reports them, its numbering kept across a manager restart.

use crate::support;

use std::time::{Duration, Instant};

use futures::StreamExt;
use sandbox_manager_client::contract::{CreateSandbox, LifecycleKind, LimitsRequest, SandboxState};
use support::{docker, expect_event, request, Manager};
use tool_api_client::contract::info::DesktopState;
use tool_api_client::ToolApiClient;

async fn pool_ready(manager: &Manager) -> u64 {
    let health = manager.health().await;
    health["pool"]["ready"].as_u64().unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_pool_hands_out_ready_sandboxes_with_their_own_secrets_and_refills() {
    let manager = Manager::start(&[("POOL__SIZE", "1")]);
    let client = &manager.client;
    support::eventually(Duration::from_secs(90), "pool filled", || async {
        pool_ready(&manager).await == 1
    })
    .await;
    let pooled = manager.containers();
    assert_eq!(pooled.len(), 1);
    let mut events = Box::pin(client.events(None).await.unwrap());

    // How fast a claim is, is the benchmark's to say (`benches/manager.rs`); under a
    // loaded engine a timed assertion here only fails at random.
    let first = client.create(&request("p-1", "alice")).await.unwrap();
    assert_eq!(
        vec![first.id.clone()],
        pooled,
        "the pooled container was handed out"
    );
    let ready = expect_event(
        &mut events,
        LifecycleKind::Ready,
        &first.id,
        Duration::from_secs(5),
    )
    .await;
    assert!(ready.message.contains("warm pool"), "{}", ready.message);
    let access = first.tool_api.clone().unwrap();
    assert!(ToolApiClient::new(&access.url, &access.token)
        .info()
        .await
        .is_ok());
    // Pooled light: the desktop waits for its first use, and the engine reserves little.
    let health = ToolApiClient::new(&access.url, &access.token)
        .health()
        .await
        .unwrap();
    assert_eq!(health.desktop.unwrap().state, DesktopState::Stopped, "{health:?}");
    let container = format!("sandpiper-{}-{}", manager.namespace, first.id);
    let reserved = docker(&["inspect", "-f", "{{.HostConfig.MemoryReservation}}", &container]);
    assert_eq!(reserved.trim(), (64u64 << 20).to_string());

    // The pool refills with a different sandbox; the next session gets other secrets.
    support::eventually(Duration::from_secs(90), "pool refilled", || async {
        pool_ready(&manager).await == 1
    })
    .await;
    let second = client.create(&request("p-2", "bob")).await.unwrap();
    assert_ne!(second.id, first.id);
    let (a, b) = (first.tool_api.unwrap(), second.tool_api.unwrap());
    assert_ne!(a.token, b.token);
    // Each token opens only its own sandbox.
    let crossed = ToolApiClient::new(&b.url, &a.token).info().await;
    assert!(crossed.is_err());

    // A request the pool does not fit (other limits) is started cold.
    let custom = CreateSandbox {
        limits: Some(LimitsRequest {
            memory_mb: Some(1024),
            ..Default::default()
        }),
        ..request("p-3", "carol")
    };
    let cold = client.create(&custom).await.unwrap();
    expect_event(
        &mut events,
        LifecycleKind::Creating,
        &cold.id,
        Duration::from_secs(5),
    )
    .await;
    assert_eq!(cold.limits.memory_mb, 1024);
}

#[tokio::test(flavor = "multi_thread")]
async fn lifecycle_events_keep_their_numbers_across_a_restart() {
    let mut manager = Manager::start(&[]);
    let client = manager.client.clone();
    let mut events = Box::pin(client.events(None).await.unwrap());
    let first = client.create(&request("e-1", "alice")).await.unwrap();
    let wait = Duration::from_secs(90);
    let creating = expect_event(&mut events, LifecycleKind::Creating, &first.id, wait).await;
    let ready = expect_event(&mut events, LifecycleKind::Ready, &first.id, wait).await;
    drop(events);

    manager.restart();
    let client = manager.client.clone();
    // A client that had seen `creating` resumes and gets `ready` as it was.
    let mut resumed = Box::pin(client.events(Some(creating.seq)).await.unwrap());
    let replayed = expect_event(
        &mut resumed,
        LifecycleKind::Ready,
        &first.id,
        Duration::from_secs(5),
    )
    .await;
    assert_eq!(replayed, ready);
    // And the numbers go on instead of starting again.
    let second = client.create(&request("e-2", "alice")).await.unwrap();
    let next = expect_event(&mut resumed, LifecycleKind::Creating, &second.id, wait).await;
    assert!(next.seq > ready.seq, "{} after {}", next.seq, ready.seq);
}

#[tokio::test(flavor = "multi_thread")]
async fn idle_sandboxes_expire_and_keep_alive_or_keep_while_idle_holds_them() {
    let manager = Manager::start(&[("LIFETIME__IDLE_TTL_SECS", "4")]);
    let client = &manager.client;
    let mut events = Box::pin(client.events(None).await.unwrap());
    let idle = client.create(&request("t-1", "alice")).await.unwrap();
    let kept = client.create(&request("t-2", "alice")).await.unwrap();
    // Kept alive from the moment it is ready: the next start alone can outlast the TTL on
    // a busy machine.
    let keeper = tokio::spawn({
        let (client, id) = (client.clone(), kept.id.clone());
        async move {
            loop {
                client.keep_alive(&id).await.unwrap();
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    });
    // Its caller keeps its end (E2B's timeout): never kept alive, never ended for it.
    let exempt = CreateSandbox {
        keep_while_idle: true,
        ..request("t-3", "alice")
    };
    let exempt = client.create(&exempt).await.unwrap();
    let started = Instant::now();
    let expired = expect_event(
        &mut events,
        LifecycleKind::Expired,
        &idle.id,
        Duration::from_secs(30),
    )
    .await;
    assert!(expired.message.contains("idle"), "{}", expired.message);
    assert_eq!(client.get(&idle.id).await.unwrap().state, SandboxState::Expired);
    // The kept one lives on past the TTL while it is kept alive.
    while started.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert!(!keeper.is_finished(), "keep-alive failed");
    keeper.abort();
    assert_eq!(client.get(&kept.id).await.unwrap().state, SandboxState::Ready);
    assert_eq!(client.get(&exempt.id).await.unwrap().state, SandboxState::Ready);
    let mut running = manager.containers();
    running.sort();
    let mut expected = vec![kept.id.clone(), exempt.id.clone()];
    expected.sort();
    assert_eq!(running, expected);
    // An expired sandbox cannot be kept alive; its session gets a new one on create.
    assert_eq!(
        client
            .keep_alive(&idle.id)
            .await
            .unwrap_err()
            .code()
            .map(|c| c.status()),
        Some(409)
    );
    let renewed = client.create(&request("t-1", "alice")).await.unwrap();
    assert_ne!(renewed.id, idle.id);
    assert_eq!(renewed.state, SandboxState::Ready);
    assert!(client.get(&idle.id).await.is_err(), "the expired record gave way");
}

#[tokio::test(flavor = "multi_thread")]
async fn health_restarts_and_oom_kills_are_reported_as_events() {
    let manager = Manager::start(&[("LIFETIME__UNHEALTHY_AFTER", "2")]);
    let client = &manager.client;
    let create = CreateSandbox {
        limits: Some(LimitsRequest {
            memory_mb: Some(768),
            ..Default::default()
        }),
        ..request("h-1", "alice")
    };
    let sandbox = client.create(&create).await.unwrap();
    let mut events = Box::pin(client.events(None).await.unwrap());
    let name = manager.container_name(&sandbox.id);

    // Stopped: unhealthy; continued: ready again. A signal rather than `docker pause`,
    // because the cgroup freezer fails on some engines ("unable to freeze").
    let signal = |which: &str| docker(&["exec", &name, "pkill", which, "-x", "tool-api"]);
    signal("-STOP");
    let unhealthy = expect_event(
        &mut events,
        LifecycleKind::Unhealthy,
        &sandbox.id,
        Duration::from_secs(30),
    )
    .await;
    assert!(
        unhealthy.message.contains("health checks"),
        "{}",
        unhealthy.message
    );
    assert_eq!(
        client.get(&sandbox.id).await.unwrap().state,
        SandboxState::Unhealthy
    );
    signal("-CONT");
    expect_event(
        &mut events,
        LifecycleKind::Ready,
        &sandbox.id,
        Duration::from_secs(30),
    )
    .await;

    // A process over the memory limit is killed by the kernel and reported.
    let access = sandbox.tool_api.clone().unwrap();
    let tools = ToolApiClient::new(&access.url, &access.token);
    let hog = tool_api_client::contract::shell::ExecRequest {
        command: "python3 -c 'x = b\"x\" * (1500 * 1024 * 1024)'".into(),
        ..Default::default()
    };
    let killed = tools.exec("hog", &hog).await.unwrap();
    assert_ne!(
        killed.exit_code,
        Some(0),
        "the hog cannot succeed: {}",
        killed.output
    );
    let oom = expect_event(
        &mut events,
        LifecycleKind::OomKilled,
        &sandbox.id,
        Duration::from_secs(30),
    )
    .await;
    assert!(oom.message.contains("768 MiB"), "{}", oom.message);

    // Killed from outside: started again, on new ports, with the same token.
    docker(&["kill", &name]);
    let restarted = expect_event(
        &mut events,
        LifecycleKind::Restarted,
        &sandbox.id,
        Duration::from_secs(60),
    )
    .await;
    assert!(
        restarted.message.contains("exit code 137"),
        "{}",
        restarted.message
    );
    let now = client.get(&sandbox.id).await.unwrap();
    assert_eq!((now.state, now.restarts), (SandboxState::Ready, 1));
    let access = now.tool_api.unwrap();
    assert_eq!(access.token, sandbox.tool_api.unwrap().token);
    assert!(ToolApiClient::new(&access.url, &access.token)
        .info()
        .await
        .is_ok());

    // Resuming with Last-Event-ID replays exactly what came after.
    let seen: Vec<u64> = vec![unhealthy.seq, oom.seq, restarted.seq];
    let mut resumed = Box::pin(client.events(Some(unhealthy.seq)).await.unwrap());
    let mut replayed = Vec::new();
    while let Ok(Some(event)) = tokio::time::timeout(Duration::from_millis(500), resumed.next()).await {
        replayed.push(event.unwrap().seq);
    }
    assert_eq!(replayed.first(), Some(&(unhealthy.seq + 1)), "{replayed:?}");
    assert!(
        replayed.windows(2).all(|w| w[1] == w[0] + 1),
        "no gap, no duplicate: {replayed:?}"
    );
    assert!(replayed.contains(&seen[2]));
}
