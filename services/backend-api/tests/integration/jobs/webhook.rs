//! The webhook: the job, signed, when it waits and when it ends, retried until taken.

use super::*;
use crate::support::signatures::assert_signed;

#[tokio::test]
async fn the_webhook_gets_the_job_signed_when_it_waits_and_ends_and_is_retried() {
    let llm = FakeLlm::start(vec![
        Reply::tool("message_ask_user", json!({ "question": "Which language?" })),
        Reply::Text("Done in Rust."),
    ])
    .await;
    let app = backend(&llm, &[("jobs.allow_private_webhooks", "true".to_owned())]).await;
    let (key, _) = jobs_key(&app, "ada@example.org").await;
    let (url, got) = receiver().await;
    let created = app
        .create_job(&key, json!({ "prompt": "Write a script", "webhook_url": url }))
        .await;
    let secret = created["webhook_secret"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("whsec_"), "{created}");
    let id = created["id"].as_str().unwrap();
    assert_eq!(
        app.job(&key, id).await["webhook_secret"],
        Value::Null,
        "shown once"
    );

    // The first call fails, so the `waiting` body comes twice.
    let waiting = calls(&got, 2).await;
    app.expect(
        StatusCode::CREATED,
        Method::POST,
        &format!("{JOBS}/{id}/reply"),
        Some(&key),
        Some(json!({ "content": "Rust" })),
    )
    .await;
    let all = calls(&got, 3).await;
    assert_eq!(all[..2], waiting[..]);
    let statuses: Vec<Value> = all
        .iter()
        .map(|(signature, body)| {
            assert_signed(signature, &secret, body);
            let body: Value = serde_json::from_slice(body).unwrap();
            assert_eq!(body["id"], id);
            body["status"].clone()
        })
        .collect();
    assert_eq!(statuses, [json!("waiting"), json!("waiting"), json!("succeeded")]);
    let last: Value = serde_json::from_slice(&all[2].1).unwrap();
    assert_eq!(last["answer"], "Done in Rust.");
}

/// What a webhook receiver got: each call's signature header and body.
pub(crate) type Calls = Arc<Mutex<Vec<(String, Vec<u8>)>>>;

/// A webhook receiver on 127.0.0.1 that fails its first call (500) and takes the rest;
/// its URL and what it got.
pub(crate) async fn receiver() -> (String, Calls) {
    let calls = Calls::default();
    let kept = calls.clone();
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |headers: HeaderMap, body: axum::body::Bytes| {
            let calls = kept.clone();
            async move {
                let signature = headers
                    .get("x-sandpiper-signature")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_owned();
                let mut calls = calls.lock().unwrap();
                calls.push((signature, body.to_vec()));
                if calls.len() == 1 {
                    StatusCode::INTERNAL_SERVER_ERROR
                } else {
                    StatusCode::NO_CONTENT
                }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, calls)
}

/// Waits until the receiver has had `n` calls.
pub(crate) async fn calls(got: &Calls, n: usize) -> Vec<(String, Vec<u8>)> {
    let start = Instant::now();
    loop {
        let calls = got.lock().unwrap().clone();
        if calls.len() >= n {
            return calls;
        }
        assert!(
            start.elapsed() < WAIT,
            "the webhook got {} calls, not {n}",
            calls.len()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
