//! How runs end or are held back: a stop mid-request, a cut stream retried (with the
//! request's options), the time budget, no model configured, a restart, and a person over
//! the daily token budget.

use super::*;

#[tokio::test]
async fn stop_cancels_a_run_in_the_middle_of_a_model_request() {
    let llm = FakeLlm::start(vec![Reply::Hang]).await;
    let app = app_with(&llm).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    app.post_message(&token, &id, "Think forever").await;
    stream.until(WAIT, status_is("running")).await;
    while llm.requests().is_empty() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let stopped = app.stop_run(&token, &id).await;
    assert_eq!(stopped["status"], "completed");
    let events = seen(&mut stream, status_is("completed")).await;
    assert_eq!(
        kinds(&events),
        ["status"],
        "nothing else was logged by the cancelled run"
    );
    // A new message starts a new run.
    app.post_message(&token, &id, "Now answer").await;
    let events = stream
        .until(WAIT, |e| e["type"] == "status" && e["status"] != "running")
        .await;
    assert_eq!(events.last().unwrap()["status"], "completed");
}

#[tokio::test]
async fn a_cut_stream_is_retried_and_the_request_options_are_sent() {
    let llm = FakeLlm::start(vec![Reply::Cut, Reply::Text("Recovered.")]).await;
    let mut settings = llm.settings();
    settings.push(("llm.temperature", "0.25".into()));
    settings.push(("llm.max_tokens", "512".into()));
    settings.push(("llm.extra_headers.x-title", "Sandpiper tests".into()));
    let app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    app.post_message(&token, &id, "Hello").await;
    let events = seen(&mut stream, status_is("completed")).await;
    let said: Vec<&Value> = events.iter().filter(|e| e["type"] == "message").collect();
    assert_eq!(said.last().unwrap()["content"], "Recovered.", "{events:?}");
    assert!(
        !events.iter().any(|e| e["content"] == "Half an ans"),
        "the cut answer is not shown"
    );
    let requests = llm.requests();
    assert_eq!(requests.len(), 2, "the cut stream was retried");
    assert_eq!(requests[1]["temperature"], 0.25);
    assert_eq!(requests[1]["max_tokens"], 512);
    assert_eq!(llm.headers()[1]["x-title"], "Sandpiper tests");
}

#[tokio::test]
async fn the_time_budget_ends_a_run_even_in_the_middle_of_a_model_request() {
    let llm = FakeLlm::start(vec![Reply::Hang]).await;
    let mut settings = llm.settings();
    settings.push(("agent.max_run_secs", "1".into()));
    let app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    app.post_message(&token, &id, "Think forever").await;
    let started = Instant::now();
    let events = seen(&mut stream, status_is("failed")).await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "ended after {:?}",
        started.elapsed()
    );
    let error = events.iter().find(|e| e["type"] == "error").unwrap();
    assert!(
        error["message"].as_str().unwrap().contains("time budget"),
        "{error}"
    );
}

#[tokio::test]
async fn without_a_model_a_message_gets_an_error_saying_what_to_set() {
    let app = TestApp::spawn(&[("agent.enabled", "true")]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    app.post_message(&token, &id, "Hello?").await;
    let events = seen(&mut stream, status_is("failed")).await;
    assert_eq!(kinds(&events), ["message", "error", "status"]);
    assert!(
        events[1]["message"].as_str().unwrap().contains("LLM_BASE_URL"),
        "{}",
        events[1]
    );
    // The rest keeps working.
    app.expect(
        StatusCode::OK,
        Method::GET,
        "/api/v1/sessions",
        Some(&token),
        None,
    )
    .await;
}

#[tokio::test]
async fn a_restart_marks_an_interrupted_run_failed() {
    use support::servers::ServerProcess;
    let llm = FakeLlm::start(vec![Reply::Hang]).await;
    let (mongodb, redis) = (ServerProcess::mongodb(), ServerProcess::redis());
    let (uri, url) = (mongodb.mongodb_uri(), redis.redis_url());
    let mut settings: Vec<(&str, String)> = llm.settings();
    settings.push(("mongodb_uri", uri));
    settings.push(("redis_url", url));
    let overrides = borrowed(&settings);
    let dir = tempfile::tempdir().unwrap();
    let mut first = TestApp::spawn_on(dir.path(), &overrides).await;
    let (token, _, _) = first.register("ada@example.org").await;
    let id = first.new_session(&token).await;
    let mut stream = first.events(&token, &id, None).await;
    first.post_message(&token, &id, "Work on this").await;
    stream.until(WAIT, status_is("running")).await;
    first.stop().await;

    let second = TestApp::spawn_on(dir.path(), &overrides).await;
    let session = second
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("/api/v1/sessions/{id}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(session["status"], "failed");
    let mut stream = second.events(&token, &id, Some(2)).await;
    let events = seen(&mut stream, status_is("failed")).await;
    assert_eq!(kinds(&events), ["error", "status"]);
    assert!(
        events[0]["message"].as_str().unwrap().contains("restarted"),
        "{}",
        events[0]
    );
}

#[tokio::test]
async fn a_person_over_the_daily_token_budget_gets_no_more_model_requests() {
    // Each scripted request reports 100 + 20 tokens: three fit under 300, a fourth not.
    let llm = FakeLlm::start(vec![
        Reply::tool("set_title", json!({ "title": "One" })),
        Reply::tool("set_title", json!({ "title": "Two" })),
        Reply::tool("set_title", json!({ "title": "Three" })),
        Reply::Text("never sent"),
    ])
    .await;
    let mut settings = llm.settings();
    settings.push(("agent.daily_token_budget", "300".into()));
    let app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    app.post_message(&token, &id, "Keep going").await;
    let events = seen(&mut stream, status_is("failed")).await;
    let error = events
        .iter()
        .find(|e| e["type"] == "error")
        .expect("an error event");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("360 of 300 tokens today"), "{message}");
    assert!(
        message.contains("resets at") && message.contains("00:00 UTC"),
        "{message}"
    );
    assert_eq!(llm.requests().len(), 3);
    // The next message is refused before any request too.
    app.post_message(&token, &id, "Once more").await;
    seen(&mut stream, status_is("failed")).await;
    assert_eq!(llm.requests().len(), 3);
}
