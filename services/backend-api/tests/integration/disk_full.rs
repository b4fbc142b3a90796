//! A full disk under the embedded store: writes are refused with `507` and JSON, reads
//! go on, `/health` says so, and once space is freed the store writes again without a
//! restart, with nothing it acknowledged lost.

use crate::support;

use reqwest::{Method, StatusCode};
use serde_json::Value;
use support::process::BackendProcess;
use support::TestApp;

/// Messages of this size fill the store's disk in a few dozen writes.
const MESSAGE: usize = 90 * 1024;

#[tokio::test]
async fn a_full_disk_refuses_writes_with_507_and_the_store_resumes_once_space_returns() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap().to_owned();
    // The embedded store even when the suite runs over MongoDB and Redis.
    let overrides = [
        ("mongodb_uri", ""),
        ("redis_url", ""),
        ("data_dir_low_space_mb", "24"),
    ];
    let backend = BackendProcess::start_on_small_disk(dir.path(), 48, &overrides).await;
    let app = TestApp::client_of(&backend.base);
    let health = || async {
        let response = app.call(Method::GET, "/health", None, None).await;
        assert_eq!(response.status(), StatusCode::OK);
        response.json::<Value>().await.unwrap()
    };
    assert_eq!(health().await["disk"]["status"], "ok");

    let (token, _, _) = app.register("ada@example.org").await;
    let session = app.new_session(&token).await;
    let kept = app
        .post_message(&token, &session, "written before the disk filled")
        .await;

    // Something else on the machine takes all the space but a little.
    let filled = backend.in_its_mounts(&format!("head -c 40M /dev/zero > '{data}/ballast'"));
    assert!(filled.status.success(), "{filled:?}");
    assert_eq!(health().await["disk"]["status"], "low");

    let text = "x".repeat(MESSAGE);
    let path = format!("/api/v1/sessions/{session}/messages");
    let mut stored = Vec::new();
    let refusal = loop {
        assert!(stored.len() < 200, "200 messages of 90 KiB fit on a 48 MiB disk");
        let response = app
            .call(
                Method::POST,
                &path,
                Some(&token),
                Some(serde_json::json!({ "content": text })),
            )
            .await;
        let status = response.status();
        let body: Value = response.json().await.unwrap();
        match status {
            StatusCode::CREATED => stored.push(body["seq"].as_u64().unwrap()),
            StatusCode::INSUFFICIENT_STORAGE => break body,
            other => panic!("{other}: {body}"),
        }
    };
    assert_eq!(refusal["error"]["code"], "storage_full", "{refusal}");
    assert!(
        refusal["error"]["message"]
            .as_str()
            .unwrap()
            .contains("disk is full"),
        "{refusal}"
    );
    // Refused again while the disk stays full; reads go on.
    let again = app
        .call(
            Method::POST,
            "/api/v1/sessions",
            Some(&token),
            Some(serde_json::json!({})),
        )
        .await;
    assert_eq!(again.status(), StatusCode::INSUFFICIENT_STORAGE);
    let during = health().await;
    assert_eq!(during["status"], "degraded", "{during}");
    assert_eq!(during["disk"]["status"], "full", "{during}");
    app.expect(
        StatusCode::OK,
        Method::GET,
        &format!("/api/v1/sessions/{session}"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(messages(&app, &token, &session, kept).await, [kept]);

    // Space returns; no restart.
    let freed = backend.in_its_mounts(&format!("rm '{data}/ballast'"));
    assert!(freed.status.success(), "{freed:?}");
    let after = app
        .post_message(&token, &session, "written after space returned")
        .await;
    assert_eq!(health().await["status"], "ok");
    let mut expected = vec![kept];
    expected.extend(&stored);
    expected.push(after);
    assert_eq!(
        messages(&app, &token, &session, after).await,
        expected,
        "every acknowledged message, and only those"
    );
}

/// The sequence numbers of the session's messages, read from its event stream up to
/// `last`.
async fn messages(app: &TestApp, token: &str, session: &str, last: u64) -> Vec<u64> {
    let mut stream = app.events(token, session, None).await;
    let mut seqs = Vec::new();
    loop {
        let event = stream.next().await.expect("the stream is open");
        let data: Value = serde_json::from_str(&event.data).unwrap();
        let seq = data["seq"].as_u64().unwrap();
        if data["event"]["type"] == "message" {
            seqs.push(seq);
        }
        if seq >= last {
            return seqs;
        }
    }
}
