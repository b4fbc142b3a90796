//! The queue: jobs beyond the limit wait in order, also across a restart, and a full
//! queue refuses more with `Retry-After` until one starts.

use super::*;

#[tokio::test]
async fn jobs_beyond_the_limit_queue_in_order_also_across_a_restart() {
    // The first job's answer waits until the second is seen queued behind it.
    let first_answer = Arc::new(tokio::sync::Notify::new());
    let llm = FakeLlm::start(vec![
        Reply::Gated(first_answer.clone(), Box::new(Reply::Text("first"))),
        Reply::Text("second"),
        Reply::tool("message_ask_user", json!({ "question": "Sure?" })),
        Reply::Text("third"),
        Reply::Text("fourth"),
    ])
    .await;
    let limit = [("jobs.max_running_per_person", "1".to_owned())];
    let mut app = backend(&llm, &limit).await;
    let (key, _) = jobs_key(&app, "ada@example.org").await;
    let first = app.create_job(&key, json!({ "prompt": "one" })).await;
    let second = app.create_job(&key, json!({ "prompt": "two" })).await;
    assert_eq!(second["status"], "queued");
    let queued = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("{JOBS}?status=queued"),
            Some(&key),
            None,
        )
        .await;
    assert_eq!(queued["jobs"][0]["id"], second["id"]);
    first_answer.notify_one();

    let first = app
        .until_job(&key, first["id"].as_str().unwrap(), "succeeded")
        .await;
    let second = app
        .until_job(&key, second["id"].as_str().unwrap(), "succeeded")
        .await;
    assert_eq!(first["answer"], "first");
    assert_eq!(second["answer"], "second");
    assert!(
        second["started_at"].as_str() >= first["finished_at"].as_str(),
        "{first} {second}"
    );

    // A queued job is stored, and a waiting one keeps its place: after a restart the
    // waiting one is answered and the queued one starts when it has ended.
    let third = app.create_job(&key, json!({ "prompt": "three" })).await;
    let third = third["id"].as_str().unwrap().to_owned();
    let fourth = app.create_job(&key, json!({ "prompt": "four" })).await;
    assert_eq!(fourth["status"], "queued");
    app.until_job(&key, &third, "waiting").await;
    let data = app.take_data().unwrap();
    app.stop().await;
    let mut settings = llm.settings();
    settings.extend_from_slice(&limit);
    let app = TestApp::spawn_on(data.path(), &borrowed(&settings)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        app.job(&key, fourth["id"].as_str().unwrap()).await["status"],
        "queued"
    );
    app.expect(
        StatusCode::CREATED,
        Method::POST,
        &format!("{JOBS}/{third}/reply"),
        Some(&key),
        Some(json!({ "content": "yes" })),
    )
    .await;
    assert_eq!(app.until_job(&key, &third, "succeeded").await["answer"], "third");
    let fourth = app
        .until_job(&key, fourth["id"].as_str().unwrap(), "succeeded")
        .await;
    assert_eq!(fourth["answer"], "fourth");

    // Pages, newest first.
    let page = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("{JOBS}?limit=3"),
            Some(&key),
            None,
        )
        .await;
    assert_eq!(page["jobs"][0]["id"], fourth["id"]);
    let before = page["next_before"].as_str().unwrap();
    let rest = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("{JOBS}?limit=3&before={before}"),
            Some(&key),
            None,
        )
        .await;
    assert_eq!(rest["jobs"].as_array().unwrap().len(), 1);
    assert_eq!(rest["jobs"][0]["answer"], Value::Null, "the list has no answers");
    assert!(rest["next_before"].is_null());
}

#[tokio::test]
async fn a_full_queue_refuses_more_with_retry_after_until_one_starts() {
    let llm = FakeLlm::start(vec![
        Reply::tool("message_ask_user", json!({ "question": "Sure?" })),
        Reply::Text("done"),
        Reply::Text("done"),
        Reply::Text("done"),
    ])
    .await;
    let limits = [
        ("jobs.max_running_per_person", "1".to_owned()),
        ("jobs.max_queued_per_person", "1".to_owned()),
    ];
    let app = backend(&llm, &limits).await;
    let (key, _) = jobs_key(&app, "ada@example.org").await;
    let first = app.create_job(&key, json!({ "prompt": "one" })).await;
    let first = first["id"].as_str().unwrap();
    app.until_job(&key, first, "waiting").await;
    let second = app.create_job(&key, json!({ "prompt": "two" })).await;
    assert_eq!(second["status"], "queued");

    // Refused before its body is read: a large one costs nothing.
    let attachment = json!([{ "name": "a.bin", "content_base64": BASE64.encode(vec![7u8; 512 * 1024]) }]);
    let refused = app
        .call(
            Method::POST,
            JOBS,
            Some(&key),
            Some(json!({ "prompt": "three", "attachments": attachment })),
        )
        .await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.headers()["retry-after"], "30");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "rate_limited", "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("your job queue is full (1 queued)"),
        "{body}"
    );
    let listed = app
        .expect(StatusCode::OK, Method::GET, JOBS, Some(&key), None)
        .await;
    assert_eq!(
        listed["jobs"].as_array().unwrap().len(),
        2,
        "nothing made: {listed}"
    );

    // Another person's queue is their own.
    let (other, _) = jobs_key(&app, "bob@example.org").await;
    app.create_job(&other, json!({ "prompt": "bob's" })).await;

    // Once the queued job starts there is room again.
    app.expect(
        StatusCode::OK,
        Method::POST,
        &format!("{JOBS}/{first}/cancel"),
        Some(&key),
        None,
    )
    .await;
    app.until_job(&key, second["id"].as_str().unwrap(), "succeeded")
        .await;
    app.create_job(&key, json!({ "prompt": "three" })).await;
}
