//! Saving an automation again as the editor does, every trigger sent back with its id:
//! a one-shot whose time has passed (its fire written in the store, not waited for),
//! and a schedule saved before the operator raised the shortest gap, are taken
//! unchanged; a new or changed one is held to the rules.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use backend_api::domain::automation::TriggerKind;
use backend_api::domain::ids::AutomationId;
use backend_api::infrastructure::stores::StoragePorts;

use super::{backend, create, AUTOMATIONS, FAST_SCHEDULES};
use crate::support::fake_llm::FakeLlm;
use crate::support::{self, borrowed, TestApp};

/// The triggers as the answer shows them, as the editor sends them back.
fn resent(automation: &Value) -> Value {
    let triggers = automation["triggers"].as_array().unwrap().iter().map(|trigger| match trigger["type"].as_str().unwrap() {
        "at" => json!({ "type": "at", "id": trigger["id"], "at": trigger["at"] }),
        "schedule" => json!({ "type": "schedule", "id": trigger["id"], "cron": trigger["cron"], "timezone": trigger["timezone"] }),
        _ => json!({ "type": "webhook", "id": trigger["id"], "filter": trigger["filter"] }),
    });
    Value::Array(triggers.collect())
}

async fn patch(app: &TestApp, token: &str, id: &str, body: Value) -> (StatusCode, Value) {
    let response = app
        .call(
            Method::PATCH,
            &format!("{AUTOMATIONS}/{id}"),
            Some(token),
            Some(body),
        )
        .await;
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_one_shot_that_fired_saves_again_unchanged_but_not_moved_into_the_past() {
    let llm = FakeLlm::start(vec![]).await;
    let mut app = backend(&llm, &[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let created = create(
        &app,
        &token,
        json!({ "name": "Once", "prompt": "Now", "triggers": [
            { "type": "at", "at": (chrono::Utc::now() + chrono::Duration::hours(1)).to_rfc3339() },
            { "type": "webhook" }] }),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let token = app.jobs_key(&token).await;
    // It fired a minute ago: written in the store as a fire leaves it (its time past,
    // no next fire), rather than waited for.
    let fired_at = chrono::DateTime::from_timestamp(chrono::Utc::now().timestamp() - 60, 0).unwrap();
    let data = app.take_data().unwrap();
    app.stop().await;
    let mut settings = llm.settings();
    settings.push((FAST_SCHEDULES.0, FAST_SCHEDULES.1.into()));
    let stores = StoragePorts::open(&support::settings(data.path(), &borrowed(&settings)))
        .await
        .unwrap();
    let stored = stores
        .automations
        .get(&AutomationId::parse(id).unwrap())
        .await
        .unwrap()
        .unwrap();
    let mut fired = stored.clone();
    fired.triggers[0].kind = TriggerKind::At { at: fired_at };
    fired.next_fire = None;
    fired.revision += 1;
    assert!(stores
        .automations
        .replace(&fired, stored.next_fire)
        .await
        .unwrap());
    drop(stores);
    let app = TestApp::spawn_on(data.path(), &borrowed(&settings)).await;
    let created = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("{AUTOMATIONS}/{id}"),
            Some(&token),
            None,
        )
        .await;

    let triggers = resent(&created);
    let (status, saved) = patch(
        &app,
        &token,
        id,
        json!({ "name": "Once, renamed", "triggers": triggers }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["name"], "Once, renamed");
    assert_eq!(
        saved["triggers"][0]["id"], created["triggers"][0]["id"],
        "{saved}"
    );
    assert_eq!(
        saved["triggers"][1]["url"], created["triggers"][1]["url"],
        "{saved}"
    );
    assert_eq!(
        saved["next_fire"],
        Value::Null,
        "a one-shot that fired fires no more"
    );

    // Moved to another past time, or sent as a new trigger, it is refused naming `at`.
    let mut moved = triggers.clone();
    moved[0]["at"] = json!((fired_at - chrono::Duration::minutes(1)).to_rfc3339());
    let mut new = triggers.clone();
    new[0].as_object_mut().unwrap().remove("id");
    for triggers in [moved, new] {
        let (status, refused) = patch(&app, &token, id, json!({ "triggers": triggers })).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["error"]["field"], "at", "{refused}");
    }
}

#[tokio::test]
async fn a_schedule_saved_before_the_gap_was_raised_saves_again_until_changed() {
    let llm = FakeLlm::start(vec![]).await;
    let mut app = backend(&llm, &[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let created = create(
        &app,
        &token,
        json!({ "name": "Often", "prompt": "Tick", "enabled": false,
                "triggers": [{ "type": "schedule", "cron": "*/5 * * * * *" }] }),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let key = app.jobs_key(&token).await;
    // The operator raises the shortest gap to a minute; the data stays.
    let data = app.take_data().unwrap();
    app.stop().await;
    let mut settings = llm.settings();
    settings.push((FAST_SCHEDULES.0, "60".into()));
    let app = TestApp::spawn_on(data.path(), &borrowed(&settings)).await;
    let token = key;

    let triggers = resent(&created);
    let (status, saved) = patch(
        &app,
        &token,
        id,
        json!({ "name": "Often, renamed", "triggers": triggers }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    let mut changed = triggers.clone();
    changed[0]["cron"] = json!("*/10 * * * * *");
    let (status, refused) = patch(&app, &token, id, json!({ "triggers": changed })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(refused["error"]["field"], "cron", "{refused}");
}
