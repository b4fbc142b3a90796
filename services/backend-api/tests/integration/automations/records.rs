//! Automations' records in both stores, the embedded one and a real MongoDB: a change is
//! stored only over the revision it was read at, so two changes made from the same
//! reading (a webhook's rotation and a run's count, seen undoing the rotation) cannot
//! undo each other.

use backend_api::domain::automation::{Automation, AutomationId, MissedRuns, SessionMode};
use backend_api::domain::ports::AutomationRepository;
use backend_api::domain::user::UserId;
use backend_api::infrastructure::embedded::EmbeddedStore;
use backend_api::infrastructure::mongo::MongoStore;

use crate::support::servers::ServerProcess;

fn automation() -> Automation {
    Automation {
        id: AutomationId::new(),
        owner: UserId::new(),
        name: "Nightly".into(),
        prompt: "Report".into(),
        model: None,
        network: None,
        timeout_secs: None,
        session: SessionMode::Fresh,
        session_id: None,
        enabled: true,
        missed: MissedRuns::RunOnce,
        failures: 0,
        paused_reason: None,
        triggers: Vec::new(),
        next_fire: None,
        api_key: None,
        created_at: chrono::Utc::now(),
        revision: 0,
    }
}

async fn a_change_lands_only_on_its_revision(store: &dyn AutomationRepository) {
    let stored = automation();
    store.insert(&stored).await.unwrap();
    let (mut first, mut second) = (stored.clone(), stored.clone());

    first.name = "Renamed".into();
    first.revision += 1;
    assert!(
        store.replace(&first, None).await.unwrap(),
        "the first change lands"
    );
    second.failures = 3;
    second.revision += 1;
    assert!(
        !store.replace(&second, None).await.unwrap(),
        "a change made from the same reading does not"
    );
    let now = store.get(&stored.id).await.unwrap().unwrap();
    assert_eq!((now.name.as_str(), now.failures, now.revision), ("Renamed", 0, 1));

    // Made again from a fresh reading, it lands.
    let mut again = now.clone();
    again.failures = 3;
    again.revision += 1;
    assert!(store.replace(&again, None).await.unwrap());
    let now = store.get(&stored.id).await.unwrap().unwrap();
    assert_eq!((now.name.as_str(), now.failures, now.revision), ("Renamed", 3, 2));
}

#[tokio::test]
async fn a_change_lands_only_on_the_revision_it_was_read_at() {
    let dir = tempfile::tempdir().unwrap();
    let embedded = EmbeddedStore::open(dir.path()).unwrap();
    a_change_lands_only_on_its_revision(&embedded).await;

    let mongodb = ServerProcess::mongodb();
    let mongo = MongoStore::connect(&mongodb.mongodb_uri(), "automation_records")
        .await
        .unwrap();
    a_change_lands_only_on_its_revision(&mongo).await;
}
