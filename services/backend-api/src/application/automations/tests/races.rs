//! An edit stored over an automation that changed after the edit read it: what the
//! system changed meanwhile (a fire's claim, a run's end) does not stop it and stays as
//! the system left it, the person's own change (another edit, a rotation) makes it lose,
//! a deletion as not found, and the files it sends are kept or removed to match.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use chrono::Utc;
use tempfile::TempDir;

use super::super::files;
use super::super::input::{save_edit, AutomationEdit};
use super::super::triggers::NewTrigger;
use super::{checks, due_automation, models, RULES};
use crate::application::error::AppError;
use crate::domain::automation::Automation;
use crate::domain::job_attachment::NewAttachment;
use crate::domain::ports::{AutomationFiles, AutomationRepository};
use crate::infrastructure::embedded::EmbeddedStore;

fn notes(content: &[u8]) -> Option<Vec<NewAttachment>> {
    Some(vec![NewAttachment {
        name: "notes.txt".into(),
        content_base64: BASE64.encode(content),
    }])
}

/// A store holding a due automation ([`due_automation`]) whose `notes.txt` says "old",
/// and that automation as an edit reads it.
async fn stored() -> (TempDir, EmbeddedStore, Automation) {
    let dir = tempfile::tempdir().unwrap();
    let store = EmbeddedStore::open(dir.path()).unwrap();
    let mut automation = due_automation();
    let change = files::change(&automation, notes(b"old"), None, &RULES).unwrap();
    automation.attachments = change.attachments;
    files::store(&store, &automation.id, change.store).await.unwrap();
    assert!(store.insert(&automation, usize::MAX).await.unwrap());
    (dir, store, automation)
}

/// What the run of the automation as stored gets in `notes.txt`.
async fn notes_run(store: &EmbeddedStore, automation: &Automation) -> Vec<u8> {
    let stored = store.get(&automation.id).await.unwrap().unwrap();
    let run = files::for_run(store, &stored).await.unwrap();
    BASE64.decode(&run[0].content_base64).unwrap()
}

/// A fire's claim, as the scheduler makes it: the due time moved on to the next.
async fn fire(store: &EmbeddedStore, automation: &Automation) -> Option<chrono::DateTime<Utc>> {
    let due = automation.next_fire.unwrap();
    let next = automation.next_fire_after(Utc::now().max(due));
    assert!(store.claim(&automation.id, due, next).await.unwrap());
    next
}

#[tokio::test]
async fn a_fire_between_an_edits_read_and_its_write_does_not_stop_it_nor_fire_again() {
    let models = models();
    let (_dir, store, current) = stored().await;
    let next = fire(&store, &current).await;
    // Saved as the editor does, its schedule sent again, with a new `notes.txt`.
    let edit = AutomationEdit {
        name: Some("Every minute".into()),
        triggers: Some(vec![NewTrigger::Schedule {
            id: Some(current.triggers[0].id.as_str().into()),
            cron: "* * * * *".into(),
            timezone: None,
        }]),
        attachments: notes(b"new, and larger"),
        ..AutomationEdit::default()
    };
    let (saved, _) = save_edit(&store, checks(&models), &current, edit).await.unwrap();
    let stored = store.get(&current.id).await.unwrap().unwrap();
    assert_eq!(
        (stored.name.as_str(), stored.revision),
        ("Every minute", current.revision + 1)
    );
    assert_eq!(
        stored.next_fire, next,
        "the claim stands: the time it fired is not due again"
    );
    assert_eq!(saved.next_fire, next);
    assert_eq!(
        notes_run(&store, &current).await,
        b"new, and larger",
        "the content stored before the first try is kept"
    );
    let old = current.attachments[0].key.as_deref().unwrap();
    assert_eq!(store.file(&current.id, old).await.unwrap(), None);

    // Disabled after another fire, it fires no more.
    fire(&store, &stored).await;
    let disable = AutomationEdit {
        enabled: Some(false),
        ..AutomationEdit::default()
    };
    save_edit(&store, checks(&models), &stored, disable)
        .await
        .unwrap();
    let disabled = store.get(&current.id).await.unwrap().unwrap();
    assert_eq!((disabled.enabled, disabled.next_fire), (false, None));
}

#[tokio::test]
async fn a_runs_end_between_an_edits_read_and_its_write_stays_and_the_edit_lands() {
    let models = models();
    let (_dir, store, current) = stored().await;
    // The run's end counted its last allowed failure and paused the automation.
    let paused = Automation {
        failures: 3,
        enabled: false,
        next_fire: None,
        paused_reason: Some("paused after 3 failed runs in a row".into()),
        revision: current.revision + 1,
        ..current.clone()
    };
    assert!(store.replace(&paused, current.next_fire).await.unwrap());
    // Saved from the editor as it showed the automation: enabled, renamed.
    let edit = AutomationEdit {
        name: Some("Renamed".into()),
        enabled: Some(true),
        ..AutomationEdit::default()
    };
    let (saved, _) = save_edit(&store, checks(&models), &current, edit).await.unwrap();
    let stored = store.get(&current.id).await.unwrap().unwrap();
    assert_eq!(stored.name, "Renamed");
    assert_eq!(
        (
            stored.enabled,
            stored.failures,
            stored.next_fire,
            &stored.paused_reason
        ),
        (false, 3, None, &paused.paused_reason),
        "the pause stands: the form's `enabled` was what the person saw"
    );
    assert_eq!(
        (stored.revision, stored.edits, saved.revision),
        (current.revision + 2, current.edits + 1, stored.revision)
    );
}

#[tokio::test]
async fn an_edit_that_loses_to_another_change_leaves_the_stored_files_as_they_were() {
    let models = models();
    let (_dir, store, current) = stored().await;
    // Edited meanwhile by the person elsewhere (another tab), after this edit read it.
    let meanwhile = Automation {
        name: "Renamed elsewhere".into(),
        revision: current.revision + 1,
        edits: current.edits + 1,
        ..current.clone()
    };
    assert!(store.replace(&meanwhile, current.next_fire).await.unwrap());
    let edit = AutomationEdit {
        name: Some("Renamed".into()),
        attachments: notes(b"new"),
        ..AutomationEdit::default()
    };
    let lost = save_edit(&store, checks(&models), &current, edit).await;
    assert!(matches!(lost, Err(AppError::Conflict(_))), "{:?}", lost.err());
    let stored = store.get(&current.id).await.unwrap().unwrap();
    assert_eq!(stored.name, "Renamed elsewhere");
    assert_eq!(stored.attachments, current.attachments);
    assert_eq!(
        notes_run(&store, &current).await,
        b"old",
        "a run gets the old content"
    );

    // The contents an edit stored are removed when it finally loses.
    let change = files::change(&meanwhile, notes(b"new"), None, &RULES).unwrap();
    let added: Vec<String> = change.store.iter().map(|(key, _)| key.clone()).collect();
    let lost = async { Err::<(), _>(AppError::Conflict("lost".into())) };
    assert!(files::replace(&store, &current.id, change, lost).await.is_err());
    for key in &added {
        assert_eq!(
            store.file(&current.id, key).await.unwrap(),
            None,
            "the lost edit's content is not kept"
        );
    }
    assert_eq!(notes_run(&store, &current).await, b"old");
}

#[tokio::test]
async fn an_edit_of_an_automation_deleted_after_it_was_read_is_not_found() {
    let models = models();
    let (_dir, store, current) = stored().await;
    assert!(store.delete(&current.id).await.unwrap());
    let edit = AutomationEdit {
        name: Some("Renamed".into()),
        ..AutomationEdit::default()
    };
    let lost = save_edit(&store, checks(&models), &current, edit).await;
    assert!(
        matches!(lost, Err(AppError::NotFound("automation"))),
        "{:?}",
        lost.err()
    );
    assert!(store.get(&current.id).await.unwrap().is_none());
}
