//! An automation's files: each run finds them in its workspace's `uploads/` (a real
//! sandbox), they are held to the cap the answer names, added and removed by an edit,
//! and go with the automation (both stores, directly).

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::{backend, create, AUTOMATIONS};
use crate::support::fake_llm::{FakeLlm, Reply};
use crate::support::manager::Manager;

fn file(name: &str, content: &[u8]) -> Value {
    json!({ "name": name, "content_base64": BASE64.encode(content) })
}

#[tokio::test]
async fn each_run_finds_the_automations_file_in_its_uploads() {
    let llm = FakeLlm::start(vec![
        Reply::tool("shell_exec", json!({ "command": "cat uploads/orders.csv" })),
        Reply::Text("Two orders."),
    ])
    .await;
    let manager = Manager::start();
    let app = backend(&llm, &manager.settings()).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let csv = b"order,total\n1,12\n2,30\n";
    let created = create(
        &app,
        &token,
        json!({ "name": "Orders", "prompt": "Sum the orders", "network": "offline",
                "attachments": [file("orders.csv", csv)],
                "triggers": [{ "type": "schedule", "cron": "0 9 * * MON" }] }),
    )
    .await;
    assert_eq!(
        created["attachments"],
        json!([{ "name": "orders.csv", "size": csv.len() }])
    );
    let run = format!("{AUTOMATIONS}/{}/run", created["id"].as_str().unwrap());
    let started = app
        .expect(StatusCode::ACCEPTED, Method::POST, &run, Some(&token), None)
        .await;
    app.until_job(&token, started["job_id"].as_str().unwrap(), "succeeded")
        .await;
    let prompt = llm.last_message_text(0);
    assert!(
        prompt.contains("uploads/orders.csv"),
        "the prompt names it: {prompt}"
    );
    let read = llm.last_message_text(1);
    assert!(read.contains("2,30"), "the run read: {read}");
}

#[tokio::test]
async fn files_are_capped_named_and_changed_by_an_edit() {
    let llm = FakeLlm::start(vec![]).await;
    let app = backend(&llm, &[("jobs.max_attachment_bytes", "1024".into())]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let weekly = json!([{ "type": "schedule", "cron": "0 9 * * MON" }]);
    let new = |attachments: Value| json!({ "name": "n", "prompt": "x", "triggers": weekly, "attachments": attachments });
    let refused = app
        .expect(
            StatusCode::PAYLOAD_TOO_LARGE,
            Method::POST,
            AUTOMATIONS,
            Some(&token),
            Some(new(json!([file("big.bin", &[7u8; 2000])]))),
        )
        .await;
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("at most 1 KiB"), "{refused}");
    for bad in [
        json!([file("../up.txt", b"x")]),
        json!([file("a", b"x"), file("a", b"y")]),
    ] {
        let refused = app
            .expect(
                StatusCode::UNPROCESSABLE_ENTITY,
                Method::POST,
                AUTOMATIONS,
                Some(&token),
                Some(new(bad)),
            )
            .await;
        assert_eq!(refused["error"]["field"], "attachments", "{refused}");
    }
    let listed = app
        .expect(StatusCode::OK, Method::GET, AUTOMATIONS, Some(&token), None)
        .await;
    assert_eq!(listed["automations"], json!([]), "nothing refused was made");

    let created = create(&app, &token, new(json!([file("a.txt", &[1u8; 600])]))).await;
    let one = format!("{AUTOMATIONS}/{}", created["id"].as_str().unwrap());
    let patch = |body: Value| app.call(Method::PATCH, &one, Some(&token), Some(body));
    // Together with the kept one it would pass the cap; once that one goes, it fits.
    let response = patch(json!({ "attachments": [file("b.txt", &[2u8; 600])] })).await;
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let response =
        patch(json!({ "attachments": [file("b.txt", &[2u8; 600])], "remove_attachments": ["a.txt"] })).await;
    assert_eq!(response.status(), StatusCode::OK);
    let edited: Value = response.json().await.unwrap();
    assert_eq!(edited["attachments"], json!([{ "name": "b.txt", "size": 600 }]));
    // The editor's other saves leave them as they are.
    let renamed = app
        .expect(
            StatusCode::OK,
            Method::PATCH,
            &one,
            Some(&token),
            Some(json!({ "name": "Renamed" })),
        )
        .await;
    assert_eq!(renamed["attachments"], edited["attachments"]);
}
