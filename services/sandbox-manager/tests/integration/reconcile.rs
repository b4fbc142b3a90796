//! Crashes: a manager SIGKILLed in the middle of creates and deletes, restarted, leaves
//! exactly the containers its records explain; records of containers that vanished while
//! it was down are marked lost; foreign containers of its namespace are removed.

use crate::support;

use std::time::Duration;

use sandbox_manager_client::contract::{ListQuery, SandboxState};
use support::{docker, request, Manager};

#[tokio::test(flavor = "multi_thread")]
async fn a_killed_manager_restarts_into_a_consistent_state() {
    let mut manager = Manager::start(&[("POOL__SIZE", "1")]);
    let client = manager.client.clone();
    let kept = client.create(&request("r-1", "alice")).await.unwrap();
    let vanishing = client.create(&request("r-2", "alice")).await.unwrap();
    let deleted = client.create(&request("r-3", "bob")).await.unwrap();

    // Creates and a delete in flight when the manager dies.
    let in_flight: Vec<_> = (0..3)
        .map(|i| {
            let client = client.clone();
            tokio::spawn(async move { client.create(&request(&format!("r-new-{i}"), "carol")).await })
        })
        .collect();
    let deleting = {
        let client = client.clone();
        let id = deleted.id.clone();
        tokio::spawn(async move { client.delete(&id).await })
    };
    // Killed once the delete is on record (so its finishing is owed), which under load
    // can take longer than the creates need to get going.
    support::eventually(Duration::from_secs(30), "the delete recorded", || async {
        client
            .get(&deleted.id)
            .await
            .map_or(true, |s| s.state == SandboxState::Removing)
    })
    .await;
    manager.kill();
    // Whatever they answered (a pool claim may have finished), the state must add up.
    let mut finished = Vec::new();
    for task in in_flight {
        if let Ok(sandbox) = task.await.unwrap() {
            finished.push(sandbox.id);
        }
    }
    let _ = deleting.await.unwrap();

    // While it is down: one sandbox's container disappears, a stray appears.
    docker(&["rm", "-f", &manager.container_name(&vanishing.id)]);
    let stray_label = format!("org.sandpiper.manager={}", manager.namespace);
    docker(&[
        "create",
        "--label",
        &stray_label,
        "--label",
        "org.sandpiper.sandbox=sbx-stray",
        "--name",
        &manager.container_name("sbx-stray"),
        support::image(),
    ]);

    // Containers no answered create explains: the old pool's, the stray and those of
    // interrupted creates. An interrupted create may still have recorded its sandbox as
    // ready before the kill (only the answer was lost); that one is kept, so which of
    // these must go is decided against the records after the restart.
    let mut explained = vec![kept.id.clone(), vanishing.id.clone(), deleted.id.clone()];
    explained.extend(finished);
    let mut unanswered: Vec<String> = manager.containers();
    unanswered.retain(|c| !explained.contains(c));

    manager.restart();
    let client = manager.client.clone();
    support::eventually(Duration::from_secs(60), "reconciled", || async {
        let records = client.list(&ListQuery::default()).await.unwrap();
        let live: Vec<String> = records
            .iter()
            .filter(|r| r.state.is_live())
            .map(|r| r.id.clone())
            .collect();
        let containers = manager.containers();
        let pooled = containers
            .iter()
            .filter(|c| !records.iter().any(|r| &r.id == *c))
            .count();
        // Every container is a live record's or the (refilled) pool's one; nothing else.
        live.iter().all(|id| containers.contains(id))
            && pooled <= 1
            && containers.len() == live.len() + pooled
            && records
                .iter()
                .all(|r| r.state != SandboxState::Creating && r.state != SandboxState::Removing)
            && unanswered
                .iter()
                .all(|c| live.contains(c) || !containers.contains(c))
    })
    .await;

    let records = client.list(&ListQuery::default()).await.unwrap();
    let state_of = |id: &str| records.iter().find(|r| r.id == id).map(|r| r.state);
    assert_eq!(state_of(&kept.id), Some(SandboxState::Ready));
    assert_eq!(state_of(&vanishing.id), Some(SandboxState::Lost));
    assert_eq!(state_of(&deleted.id), None, "the interrupted delete was finished");
    assert!(unanswered.contains(&"sbx-stray".to_owned()));
    assert!(!manager.containers().contains(&"sbx-stray".to_owned()));
    // The survivor still answers with its old token.
    let access = client.get(&kept.id).await.unwrap().tool_api.unwrap();
    assert!(tool_api_client::ToolApiClient::new(&access.url, &access.token)
        .info()
        .await
        .is_ok());
    // A lost session gets a fresh sandbox when asked again.
    let again = client.create(&request("r-2", "alice")).await.unwrap();
    assert_eq!(again.state, SandboxState::Ready);
}
