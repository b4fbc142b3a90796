//! What an edit changes beyond its fields: when the automation fires next and whether a
//! persistent one keeps its session; how it is stored when a fire or another change
//! came meanwhile ([`races`]).

use std::time::Duration;

use chrono::Utc;

use super::input::{apply, AutomationEdit, Checks};
use super::rules::AutomationRules;
use super::triggers::NewTrigger;
use crate::domain::automation::{Automation, SessionMode};
use crate::domain::model::{ModelCatalog, ModelInfo, ModelName};
use crate::domain::session::{Network, SessionId};
use crate::domain::user::UserId;

mod races;

fn models() -> ModelCatalog {
    let info = |name: &str| ModelInfo {
        name: ModelName::parse(name).unwrap(),
        context_tokens: 8192,
        supports_tools: true,
        supports_images: false,
        prices: None,
    };
    ModelCatalog::new(
        vec![info("small"), info("large")],
        &ModelName::parse("small").unwrap(),
    )
    .unwrap()
}

const RULES: AutomationRules = AutomationRules {
    max_per_person: 10,
    max_timeout_secs: 3600,
    min_interval: Duration::from_secs(60),
    max_file_bytes: 1024,
};

/// A persistent automation that fires every minute, whose fire time came due at the
/// start of this minute and is not claimed yet.
fn due_automation() -> Automation {
    let new = AutomationEdit {
        name: Some("Morning".into()),
        prompt: Some("Report".into()),
        model: Some("small".into()),
        network: Some("offline".into()),
        triggers: Some(vec![NewTrigger::Schedule {
            id: None,
            cron: "* * * * *".into(),
            timezone: None,
        }]),
        ..AutomationEdit::default()
    };
    let blank = Automation {
        session: SessionMode::Persistent,
        ..Automation::blank(UserId::new(), Utc::now())
    };
    let (mut automation, _) = apply(new, blank, checks(&models())).unwrap();
    automation.session_id = Some(SessionId::new());
    let minute = Utc::now().timestamp() / 60 * 60;
    automation.next_fire = chrono::DateTime::from_timestamp(minute, 0);
    automation
}

fn checks(models: &ModelCatalog) -> Checks<'_> {
    Checks {
        models,
        rules: &RULES,
    }
}

#[test]
fn a_rename_keeps_a_due_time_and_a_change_of_schedule_moves_it() {
    let models = models();
    let due = due_automation();
    let rename = AutomationEdit {
        name: Some("Every morning".into()),
        ..AutomationEdit::default()
    };
    let (renamed, _) = apply(rename, due.clone(), checks(&models)).unwrap();
    assert_eq!(renamed.next_fire, due.next_fire, "the due time is still to fire");
    // The editor sends the triggers with every save: the same ones keep it too.
    let resent = AutomationEdit {
        name: Some("Every morning".into()),
        triggers: Some(vec![NewTrigger::Schedule {
            id: None,
            cron: "* * * * *".into(),
            timezone: None,
        }]),
        ..AutomationEdit::default()
    };
    let (saved, _) = apply(resent, due.clone(), checks(&models)).unwrap();
    assert_eq!(
        saved.next_fire, due.next_fire,
        "the same triggers still fire at it"
    );

    let reschedule = AutomationEdit {
        triggers: Some(vec![NewTrigger::Schedule {
            id: None,
            cron: "0 10 * * *".into(),
            timezone: None,
        }]),
        ..AutomationEdit::default()
    };
    let (moved, _) = apply(reschedule, due.clone(), checks(&models)).unwrap();
    assert!(moved.next_fire > Some(Utc::now()), "{:?}", moved.next_fire);

    let pause = AutomationEdit {
        enabled: Some(false),
        ..AutomationEdit::default()
    };
    let (paused, _) = apply(pause, due, checks(&models)).unwrap();
    assert_eq!(paused.next_fire, None);
}

#[test]
fn a_persistent_automation_given_another_model_or_network_starts_a_new_session() {
    let models = models();
    let due = due_automation();
    let same = AutomationEdit {
        model: Some("small".into()),
        network: Some("offline".into()),
        prompt: Some("Report briefly".into()),
        ..AutomationEdit::default()
    };
    let (kept, _) = apply(same, due.clone(), checks(&models)).unwrap();
    assert_eq!(
        kept.session_id, due.session_id,
        "nothing the session holds changed"
    );

    let larger = AutomationEdit {
        model: Some("large".into()),
        ..AutomationEdit::default()
    };
    let (moved, _) = apply(larger, due.clone(), checks(&models)).unwrap();
    assert_eq!(moved.session_id, None);

    let online = AutomationEdit {
        network: Some("internet".into()),
        ..AutomationEdit::default()
    };
    let (moved, _) = apply(online, due, checks(&models)).unwrap();
    assert_eq!((moved.session_id, moved.network), (None, Some(Network::Internet)));
}

#[test]
fn an_edit_is_held_to_the_rules() {
    let models = models();
    let too_long = AutomationEdit {
        timeout_secs: Some(RULES.max_timeout_secs + 1),
        ..AutomationEdit::default()
    };
    assert!(apply(too_long, due_automation(), checks(&models)).is_err());
    let too_often = AutomationEdit {
        triggers: Some(vec![NewTrigger::Schedule {
            id: None,
            cron: "*/30 * * * * *".into(),
            timezone: None,
        }]),
        ..AutomationEdit::default()
    };
    assert!(apply(too_often, due_automation(), checks(&models)).is_err());
}

#[test]
fn a_fired_one_shot_and_a_schedule_older_than_the_gap_rule_save_again_unchanged() {
    use crate::application::error::AppError;
    use crate::domain::automation::{to_millis, Trigger, TriggerKind};
    use crate::domain::ids::TriggerId;

    let models = models();
    let fired_at = to_millis(Utc::now() - chrono::Duration::hours(1));
    let (at_id, cron_id) = (TriggerId::new(), TriggerId::new());
    // Saved when the shortest gap was 10 s; the rules now say 60 s.
    let mut fired = due_automation();
    fired.triggers = vec![
        Trigger {
            id: at_id.clone(),
            kind: TriggerKind::At { at: fired_at },
        },
        Trigger {
            id: cron_id.clone(),
            kind: TriggerKind::Schedule {
                cron: "*/10 * * * * *".into(),
                timezone: "UTC".into(),
            },
        },
    ];
    let resent = |at: chrono::DateTime<Utc>, cron: &str| AutomationEdit {
        name: Some("Renamed".into()),
        triggers: Some(vec![
            NewTrigger::At {
                id: Some(at_id.as_str().into()),
                at: at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            },
            NewTrigger::Schedule {
                id: Some(cron_id.as_str().into()),
                cron: cron.into(),
                timezone: Some("UTC".into()),
            },
        ]),
        ..AutomationEdit::default()
    };
    let (saved, _) = apply(resent(fired_at, "*/10 * * * * *"), fired.clone(), checks(&models)).unwrap();
    assert_eq!(saved.name, "Renamed");
    let ids: Vec<&TriggerId> = saved.triggers.iter().map(|t| &t.id).collect();
    assert_eq!(ids, [&at_id, &cron_id], "each trigger keeps its id");

    let field = |edit| match apply(edit, fired.clone(), checks(&models)) {
        Err(AppError::InvalidField { field, .. }) => field,
        other => panic!("{:?}", other.map(|(a, _)| a.triggers)),
    };
    let earlier = fired_at - chrono::Duration::minutes(1);
    assert_eq!(
        field(resent(earlier, "*/10 * * * * *")),
        "at",
        "a changed time must be ahead"
    );
    assert_eq!(
        field(resent(fired_at, "*/20 * * * * *")),
        "cron",
        "a changed schedule meets the gap"
    );
    let mut unknown = resent(fired_at, "*/10 * * * * *");
    if let Some(NewTrigger::At { id, .. }) = unknown.triggers.as_mut().and_then(|t| t.first_mut()) {
        *id = Some(cron_id.as_str().into());
    }
    assert_eq!(
        field(unknown),
        "triggers",
        "an id names a stored trigger of its type"
    );
}
