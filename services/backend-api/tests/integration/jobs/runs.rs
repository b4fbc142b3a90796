//! A job's run: cancelled mid-run, waiting for and going on with a reply, and ended by
//! its time limit.

use super::*;

#[tokio::test]
async fn a_cancelled_job_stops_its_run() {
    let llm = FakeLlm::start(vec![Reply::Hang]).await;
    let app = backend(&llm, &[]).await;
    let (key, token) = jobs_key(&app, "ada@example.org").await;
    let created = app.create_job(&key, json!({ "prompt": "Think forever" })).await;
    let id = created["id"].as_str().unwrap();
    app.until_job(&key, id, "running").await;
    // The model has been asked: the run is in its request.
    let start = Instant::now();
    while llm.requests().is_empty() {
        assert!(start.elapsed() < WAIT, "the model was never asked");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let cancelled = app
        .expect(
            StatusCode::OK,
            Method::POST,
            &format!("{JOBS}/{id}/cancel"),
            Some(&key),
            None,
        )
        .await;
    assert_eq!(cancelled["status"], "cancelled");
    assert!(cancelled["finished_at"].is_string());
    // No run is left: the session is no longer running, and stays so.
    let session = format!("/api/v1/sessions/{}", created["session_id"].as_str().unwrap());
    let session = app
        .expect(StatusCode::OK, Method::GET, &session, Some(&token), None)
        .await;
    assert_eq!(session["status"], "completed");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.job(&key, id).await["status"], "cancelled");
    app.expect(
        StatusCode::CONFLICT,
        Method::POST,
        &format!("{JOBS}/{id}/cancel"),
        Some(&key),
        None,
    )
    .await;
}

#[tokio::test]
async fn a_waiting_job_goes_on_with_the_reply() {
    let llm = FakeLlm::start(vec![
        Reply::tool("message_ask_user", json!({ "question": "Which language?" })),
        Reply::Text("Done in Rust."),
    ])
    .await;
    let app = backend(&llm, &[]).await;
    let (key, _) = jobs_key(&app, "ada@example.org").await;
    let id = app.create_job(&key, json!({ "prompt": "Write a script" })).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.until_job(&key, &id, "waiting").await;

    let reply = format!("{JOBS}/{id}/reply");
    app.expect(
        StatusCode::CREATED,
        Method::POST,
        &reply,
        Some(&key),
        Some(json!({ "content": "Rust" })),
    )
    .await;
    let done = app.until_job(&key, &id, "succeeded").await;
    assert_eq!(done["answer"], "Done in Rust.");
    assert_eq!(llm.last_message_text(1), "Rust");
    app.expect(
        StatusCode::CONFLICT,
        Method::POST,
        &reply,
        Some(&key),
        Some(json!({ "content": "again" })),
    )
    .await;
}

#[tokio::test]
async fn a_job_past_its_time_limit_fails_and_its_run_stops() {
    let llm = FakeLlm::start(vec![Reply::Hang]).await;
    let app = backend(&llm, &[]).await;
    let (key, token) = jobs_key(&app, "ada@example.org").await;
    let created = app
        .create_job(&key, json!({ "prompt": "Think forever", "timeout_secs": 10 }))
        .await;
    let failed = app
        .until_job(&key, created["id"].as_str().unwrap(), "failed")
        .await;
    assert!(
        failed["error"].as_str().unwrap().contains("timeout of 10 s"),
        "{failed}"
    );
    let session = format!("/api/v1/sessions/{}", created["session_id"].as_str().unwrap());
    let session = app
        .expect(StatusCode::OK, Method::GET, &session, Some(&token), None)
        .await;
    assert_ne!(session["status"], "running");
}
