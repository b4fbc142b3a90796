//! Automations' records in both stores, the embedded one and a real MongoDB: a change is
//! stored only over the revision it was read at, so two changes made from the same
//! reading (a webhook's rotation and a run's count, seen undoing the rotation) cannot
//! undo each other; the scheduler's earliest fire time is the earliest of all.

use backend_api::domain::automation::Automation;
use backend_api::domain::ports::AutomationRepository;
use backend_api::domain::user::UserId;
use backend_api::infrastructure::embedded::EmbeddedStore;
use backend_api::infrastructure::mongo::MongoStore;

use crate::support::servers::ServerProcess;

fn automation() -> Automation {
    Automation {
        name: "Nightly".into(),
        prompt: "Report".into(),
        ..Automation::blank(UserId::new(), chrono::Utc::now())
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

async fn the_earliest_fire_is_the_earliest_of_all(store: &dyn AutomationRepository) {
    assert_eq!(store.earliest_fire().await.unwrap(), None, "nothing scheduled");
    let now = chrono::DateTime::from_timestamp_millis(chrono::Utc::now().timestamp_millis()).unwrap();
    for (minutes, enabled) in [(30, true), (5, true), (60, true), (1, false)] {
        let mut scheduled = automation();
        scheduled.enabled = enabled;
        scheduled.next_fire = enabled.then(|| now + chrono::Duration::minutes(minutes));
        store.insert(&scheduled).await.unwrap();
    }
    let earliest = store.earliest_fire().await.unwrap();
    assert_eq!(earliest, Some(now + chrono::Duration::minutes(5)));
}

/// The embedded store and a real MongoDB, each new, kept alive while held.
struct BothStores {
    embedded: EmbeddedStore,
    mongo: MongoStore,
    _dir: tempfile::TempDir,
    _mongodb: ServerProcess,
}

impl BothStores {
    async fn open() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let mongodb = ServerProcess::mongodb();
        Self {
            embedded: EmbeddedStore::open(dir.path()).unwrap(),
            mongo: MongoStore::connect(&mongodb.mongodb_uri(), "automation_records")
                .await
                .unwrap(),
            _dir: dir,
            _mongodb: mongodb,
        }
    }
}

#[tokio::test]
async fn the_scheduler_sleeps_until_the_earliest_fire_in_either_store() {
    let stores = BothStores::open().await;
    the_earliest_fire_is_the_earliest_of_all(&stores.embedded).await;
    the_earliest_fire_is_the_earliest_of_all(&stores.mongo).await;
}

#[tokio::test]
async fn a_change_lands_only_on_the_revision_it_was_read_at() {
    let stores = BothStores::open().await;
    a_change_lands_only_on_its_revision(&stores.embedded).await;
    a_change_lands_only_on_its_revision(&stores.mongo).await;
}
