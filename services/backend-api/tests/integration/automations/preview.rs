//! The editor's preview: the next fire times of triggers not saved yet, checked as a
//! save checks them, and nothing saved.

use reqwest::{Method, StatusCode};
use serde_json::json;

use super::AUTOMATIONS;
use crate::support::TestApp;

#[tokio::test]
async fn a_preview_lists_the_next_fire_times_and_names_a_bad_field() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let preview = format!("{AUTOMATIONS}/preview");
    let shown = app
        .expect(
            StatusCode::OK,
            Method::POST,
            &preview,
            Some(&token),
            Some(
                json!({ "triggers": [{ "type": "schedule", "cron": "0 9 * * MON", "timezone": "UTC" },
                                      { "type": "webhook" }] }),
            ),
        )
        .await;
    let next: Vec<chrono::DateTime<chrono::Utc>> = shown["next_runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(next.len(), 5, "{shown}");
    for (earlier, later) in next.iter().zip(&next[1..]) {
        assert_eq!(*later - *earlier, chrono::Duration::weeks(1), "{shown}");
    }
    let refused = app
        .expect(
            StatusCode::UNPROCESSABLE_ENTITY,
            Method::POST,
            &preview,
            Some(&token),
            Some(json!({ "triggers": [{ "type": "schedule", "cron": "61 * * * *" }] })),
        )
        .await;
    assert_eq!(refused["error"]["field"], "cron", "{refused}");
    // By default a schedule fires at most once a minute.
    let too_often = app
        .expect(
            StatusCode::UNPROCESSABLE_ENTITY,
            Method::POST,
            &preview,
            Some(&token),
            Some(json!({ "triggers": [{ "type": "schedule", "cron": "*/10 * * * * *" }] })),
        )
        .await;
    assert_eq!(too_often["error"]["field"], "cron", "{too_often}");
    assert!(
        too_often["error"]["message"]
            .as_str()
            .unwrap()
            .contains("once every 60 s"),
        "{too_often}"
    );
    app.expect(
        StatusCode::UNAUTHORIZED,
        Method::POST,
        &preview,
        None,
        Some(json!({ "triggers": [] })),
    )
    .await;
    let listed = app
        .expect(StatusCode::OK, Method::GET, AUTOMATIONS, Some(&token), None)
        .await;
    assert_eq!(listed["automations"], json!([]), "nothing was saved");
}
