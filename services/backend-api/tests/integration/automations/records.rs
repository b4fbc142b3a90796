//! Automations' records in both stores, the embedded one and a real MongoDB: a change is
//! stored only over the revision it was read at, so two changes made from the same
//! reading (a webhook's rotation and a run's count, seen undoing the rotation) cannot
//! undo each other; the scheduler's earliest fire time is the earliest of all; the
//! history and the delivery keys stay bounded; creations racing for a person's last
//! places never pass the cap; an automation's files go with it.

use backend_api::domain::automation::{Automation, AutomationRun, FiredBy, DELIVERY_KEY_KEPT};
use backend_api::domain::ids::{AutomationId, RunId, TriggerId};
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
    assert!(store.insert(&stored, usize::MAX).await.unwrap());
    let (mut first, mut second) = (stored.clone(), stored.clone());

    first.name = "Renamed".into();
    first.revision += 1;
    first.edits += 1;
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
    assert_eq!(
        (now.name.as_str(), now.failures, now.revision, now.edits),
        ("Renamed", 0, 1, 1)
    );

    // Made again from a fresh reading, it lands.
    let mut again = now.clone();
    again.failures = 3;
    again.revision += 1;
    assert!(store.replace(&again, None).await.unwrap());
    let now = store.get(&stored.id).await.unwrap().unwrap();
    assert_eq!(
        (now.name.as_str(), now.failures, now.revision, now.edits),
        ("Renamed", 3, 2, 1),
        "a run's count keeps the person's edits"
    );
}

async fn the_earliest_fire_is_the_earliest_of_all(store: &dyn AutomationRepository) {
    assert_eq!(store.earliest_fire().await.unwrap(), None, "nothing scheduled");
    let now = chrono::DateTime::from_timestamp_millis(chrono::Utc::now().timestamp_millis()).unwrap();
    for (minutes, enabled) in [(30, true), (5, true), (60, true), (1, false)] {
        let mut scheduled = automation();
        scheduled.enabled = enabled;
        scheduled.next_fire = enabled.then(|| now + chrono::Duration::minutes(minutes));
        assert!(store.insert(&scheduled, usize::MAX).await.unwrap());
    }
    let earliest = store.earliest_fire().await.unwrap();
    assert_eq!(earliest, Some(now + chrono::Duration::minutes(5)));
}

async fn the_history_keeps_its_newest_entries(store: &dyn AutomationRepository) {
    let automation = automation();
    let start = chrono::Utc::now() - chrono::Duration::hours(2);
    let entries: Vec<AutomationRun> = (0..8)
        .map(|n| {
            let fired_at = start + chrono::Duration::seconds(n as i64);
            AutomationRun {
                id: RunId::at(fired_at),
                automation: automation.id.clone(),
                fired_by: FiredBy::Schedule,
                trigger: None,
                fired_at,
                job_id: None,
                note: None,
            }
        })
        .collect();
    for entry in &entries {
        store.put_run(entry).await.unwrap();
    }
    let other = automation_with_one_entry(store).await;
    store.trim_runs(&automation.id, 5).await.unwrap();
    let kept = store.runs(&automation.id, 100).await.unwrap();
    let ids: Vec<&RunId> = kept.iter().map(|entry| &entry.id).collect();
    let newest: Vec<&RunId> = entries[3..].iter().rev().map(|entry| &entry.id).collect();
    assert_eq!(ids, newest, "the five newest, newest first");
    store.trim_runs(&automation.id, 5).await.unwrap();
    assert_eq!(store.runs(&automation.id, 100).await.unwrap().len(), 5);
    assert_eq!(
        store.runs(&other, 100).await.unwrap().len(),
        1,
        "another's untouched"
    );
}

/// An automation with one history entry.
async fn automation_with_one_entry(store: &dyn AutomationRepository) -> AutomationId {
    let automation = automation();
    let at = chrono::Utc::now();
    let entry = AutomationRun {
        id: RunId::at(at - chrono::Duration::days(1)),
        automation: automation.id.clone(),
        fired_by: FiredBy::Manual,
        trigger: None,
        fired_at: at,
        job_id: None,
        note: None,
    };
    store.put_run(&entry).await.unwrap();
    automation.id
}

async fn a_delivery_key_is_remembered_for_a_while(store: &dyn AutomationRepository) {
    let trigger = TriggerId::new();
    let long_ago = RunId::at(chrono::Utc::now() - DELIVERY_KEY_KEPT - chrono::Duration::hours(1));
    let (first, second) = (RunId::new(), RunId::new());
    assert_eq!(
        store.first_delivery(&trigger, "old", &long_ago).await.unwrap(),
        None
    );
    assert_eq!(
        store.first_delivery(&trigger, "fresh", &first).await.unwrap(),
        None
    );
    // A repeat within the time runs nothing; one after it runs again.
    let repeat = store.first_delivery(&trigger, "fresh", &second).await.unwrap();
    assert_eq!(repeat, Some(first));
    assert_eq!(
        store.first_delivery(&trigger, "old", &second).await.unwrap(),
        None
    );
    let third = RunId::new();
    assert_eq!(
        store.first_delivery(&trigger, "old", &third).await.unwrap(),
        Some(second)
    );
}

async fn racing_creations_stay_within_the_cap(store: &dyn AutomationRepository) {
    const CAP: usize = 3;
    let owner = UserId::new();
    let of_owner = || Automation {
        owner: owner.clone(),
        ..automation()
    };
    let racing: Vec<Automation> = (0..16).map(|_| of_owner()).collect();
    let answers = futures::future::join_all(racing.iter().map(|new| store.insert(new, CAP))).await;
    let kept = answers.into_iter().filter(|kept| *kept.as_ref().unwrap()).count();
    let stored = store.list_for(&owner).await.unwrap().len();
    assert_eq!(kept, stored, "each insert says whether it stayed");
    assert!(stored <= CAP, "{stored} stored past a cap of {CAP}");
    // What room is left goes one at a time, to the cap exactly.
    while store.insert(&of_owner(), CAP).await.unwrap() {}
    assert_eq!(store.list_for(&owner).await.unwrap().len(), CAP);
}

async fn files_go_with_their_automation(store: &dyn AutomationRepository) {
    let (kept, deleted) = (automation(), automation());
    let key = "5e1f";
    for automation in [&kept, &deleted] {
        assert!(store.insert(automation, usize::MAX).await.unwrap());
        store
            .put_file(&automation.id, key, b"first".to_vec())
            .await
            .unwrap();
    }
    store.put_file(&kept.id, key, b"second".to_vec()).await.unwrap();
    assert_eq!(
        store.file(&kept.id, key).await.unwrap(),
        Some(b"second".to_vec()),
        "a put replaces"
    );
    assert!(store.delete(&deleted.id).await.unwrap());
    assert_eq!(store.file(&deleted.id, key).await.unwrap(), None, "gone with it");
    assert_eq!(
        store.file(&kept.id, key).await.unwrap(),
        Some(b"second".to_vec()),
        "another's stays"
    );
    store.remove_file(&kept.id, key).await.unwrap();
    assert_eq!(store.file(&kept.id, key).await.unwrap(), None);
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

#[tokio::test]
async fn history_and_delivery_keys_stay_bounded_in_either_store() {
    let stores = BothStores::open().await;
    for store in [&stores.embedded as &dyn AutomationRepository, &stores.mongo] {
        the_history_keeps_its_newest_entries(store).await;
        a_delivery_key_is_remembered_for_a_while(store).await;
    }
}

#[tokio::test]
async fn creations_at_once_never_pass_a_persons_cap_in_either_store() {
    let stores = BothStores::open().await;
    racing_creations_stay_within_the_cap(&stores.embedded).await;
    racing_creations_stay_within_the_cap(&stores.mongo).await;
}

#[tokio::test]
async fn an_automations_files_go_with_it_in_either_store() {
    let stores = BothStores::open().await;
    files_go_with_their_automation(&stores.embedded).await;
    files_go_with_their_automation(&stores.mongo).await;
}
