//! Rented sandboxes' records in both stores, the embedded one and a real MongoDB: a change
//! (or the sweep's end) lands only on the reading it was made from, so the sweep pausing
//! or ending a sandbox and a connect resuming it cannot write over each other (the
//! service reads again when told).

use std::collections::BTreeMap;

use backend_api::domain::e2b::{E2bSandbox, E2bSandboxId, E2bState, Template};
use backend_api::domain::ports::{E2bSandboxRepository, Updated};
use backend_api::domain::session::Network;
use backend_api::domain::user::UserId;
use backend_api::infrastructure::embedded::EmbeddedStore;
use backend_api::infrastructure::mongo::MongoStore;
use chrono::{Duration, SubsecRound, Utc};

use crate::support::servers::ServerProcess;

fn running() -> E2bSandbox {
    E2bSandbox {
        id: E2bSandboxId::new(),
        owner: UserId::new(),
        template: Template::Base,
        metadata: BTreeMap::new(),
        network: Network::Internet,
        cpu_count: 1,
        memory_mb: 512,
        started_at: Utc::now(),
        end_at: (Utc::now() + Duration::seconds(60)).trunc_subsecs(0),
        state: E2bState::Running,
        auto_pause: true,
        env_vars: BTreeMap::new(),
    }
}

async fn changes_land_only_on_their_reading(store: &dyn E2bSandboxRepository) {
    let read = running();
    store.insert(&read).await.unwrap();

    // The sweep's pause lands first; a connect made from the same reading does not.
    let mut paused = read.clone();
    paused.pause(Utc::now());
    assert_eq!(store.update(&paused, &read).await.unwrap(), Updated::Stored);
    let mut extended = read.clone();
    extended.end_at += Duration::seconds(300);
    assert_eq!(
        store.update(&extended, &read).await.unwrap(),
        Updated::ChangedMeanwhile
    );
    let stored = store.get(&read.id).await.unwrap().unwrap();
    assert_eq!((stored.state, stored.end_at), (paused.state, paused.end_at));

    // Read again, the change lands.
    let mut resumed = stored.clone();
    resumed.state = E2bState::Running;
    resumed.end_at = extended.end_at;
    assert_eq!(store.update(&resumed, &stored).await.unwrap(), Updated::Stored);
    let stored = store.get(&read.id).await.unwrap().unwrap();
    assert_eq!(
        (stored.state, stored.end_at),
        (E2bState::Running, extended.end_at)
    );

    // The sweep's end, made from the reading before the resume, does not land; made
    // from the stored one, it removes the sandbox, once.
    assert_eq!(
        store.remove_as_read(&paused).await.unwrap(),
        Updated::ChangedMeanwhile
    );
    assert!(store.get(&read.id).await.unwrap().is_some());
    assert_eq!(store.remove_as_read(&stored).await.unwrap(), Updated::Stored);
    assert_eq!(store.remove_as_read(&stored).await.unwrap(), Updated::Removed);

    // Once removed, a change says so and stores nothing.
    assert!(!store.remove(&read.id).await.unwrap());
    assert_eq!(store.update(&resumed, &stored).await.unwrap(), Updated::Removed);
    assert!(store.get(&read.id).await.unwrap().is_none());
    assert!(
        store.list(&read.owner).await.unwrap().is_empty(),
        "out of the owner's list"
    );
}

#[tokio::test]
async fn a_rented_sandboxs_change_lands_only_on_the_reading_it_was_made_from() {
    let dir = tempfile::tempdir().unwrap();
    let embedded = EmbeddedStore::open(dir.path()).unwrap();
    changes_land_only_on_their_reading(&embedded).await;

    let mongodb = ServerProcess::mongodb();
    let mongo = MongoStore::connect(&mongodb.mongodb_uri(), "e2b_records")
        .await
        .unwrap();
    changes_land_only_on_their_reading(&mongo).await;
}

/// A record stored before sandboxes could pause has no `state` in MongoDB: it runs, and
/// a change made from reading it as running lands.
#[tokio::test]
async fn a_record_from_before_pausing_changes_as_a_running_one() {
    use mongodb::bson::{to_document, Document};

    let mongodb = ServerProcess::mongodb();
    let uri = mongodb.mongodb_uri();
    let store = MongoStore::connect(&uri, "e2b_legacy").await.unwrap();
    let read = running();
    let mut legacy = to_document(&read).unwrap();
    legacy.remove("state");
    let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
    let records = client
        .database("e2b_legacy")
        .collection::<Document>("e2b_sandboxes");
    records.insert_one(legacy).await.unwrap();
    assert_eq!(
        store.get(&read.id).await.unwrap().unwrap().state,
        E2bState::Running
    );

    let mut paused = read.clone();
    paused.pause(Utc::now());
    assert_eq!(store.update(&paused, &read).await.unwrap(), Updated::Stored);
    assert_eq!(
        store.get(&read.id).await.unwrap().unwrap().state,
        E2bState::Paused
    );
}
