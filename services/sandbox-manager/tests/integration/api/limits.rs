//! Limits: quotas refusing with 429 and a message, and the memory budget counting what
//! sandboxes use.

use super::*;

#[tokio::test(flavor = "multi_thread")]
async fn quotas_refuse_with_429_and_a_message() {
    let manager = Manager::start(&[("QUOTA__PER_OWNER", "1"), ("QUOTA__GLOBAL", "2")]);
    let client = &manager.client;
    client.create(&request("q-1", "alice")).await.unwrap();
    let err = client.create(&request("q-2", "alice")).await.unwrap_err();
    let message = err.to_string();
    assert_eq!(code(err), (429, ErrorCode::OwnerQuotaExceeded));
    assert!(message.contains("quota is 1"), "{message}");
    client.create(&request("q-3", "bob")).await.unwrap();
    let err = client.create(&request("q-4", "carol")).await.unwrap_err();
    assert_eq!(code(err), (429, ErrorCode::CapacityReached));
    // Refusals made nothing.
    assert_eq!(manager.containers().len(), 2);
}

/// The memory budget counts what the sandboxes use: light ones leave room; one that
/// takes 350 MiB keeps the next out (429, saying why) until it lets go.
#[tokio::test(flavor = "multi_thread")]
async fn the_memory_budget_counts_what_sandboxes_use() {
    let manager = Manager::start(&[("QUOTA__MEMORY_MB", "400")]);
    let client = &manager.client;
    let first = client.create(&request("m-1", "alice")).await.unwrap();
    client.create(&request("m-2", "bob")).await.unwrap();
    let used = || async { manager.health().await["memory"]["used_mb"].as_u64().unwrap() };
    assert_eq!(manager.health().await["memory"]["budget_mb"], 400);
    // Reported by the health checks: light sandboxes use far less than their reservation.
    support::eventually(Duration::from_secs(20), "light sandboxes reported", || async {
        used().await < 64
    })
    .await;

    let access = first.tool_api.unwrap();
    let tools = ToolApiClient::new(&access.url, &access.token);
    support::sh(
        &tools,
        "nohup python3 -c 'import time; b = b\"x\" * (350 << 20); time.sleep(600)' >/dev/null 2>&1 &",
    )
    .await;
    support::eventually(Duration::from_secs(20), "the big one reported", || async {
        used().await >= 350
    })
    .await;
    let err = client.create(&request("m-3", "carol")).await.unwrap_err();
    let message = err.to_string();
    assert_eq!(code(err), (429, ErrorCode::CapacityReached));
    assert!(message.contains("of the 400 MiB"), "{message}");

    support::sh(&tools, "pkill -f 'time.sleep'; true").await;
    support::eventually(Duration::from_secs(20), "the memory given back", || async {
        used().await < 64
    })
    .await;
    client.create(&request("m-3", "carol")).await.unwrap();
}
