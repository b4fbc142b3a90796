//! Which model answers: the list, a session's choice and its changes, a job's model,
//! usage by model, and models not offered or no longer listed.

use super::*;

#[tokio::test]
async fn the_models_are_listed_without_keys_or_addresses() {
    let planner = FakeLlm::start_as(Provider::with_key("key-of-planner"), vec![]).await;
    let coder = FakeLlm::start_as(Provider::with_key("key-of-coder"), vec![]).await;
    let app = two_models(&planner, &coder).await;
    let (token, _, _) = app.register("ada@example.org").await;

    let response = app.call(Method::GET, "/api/v1/models", Some(&token), None).await;
    assert_eq!(response.status(), StatusCode::OK);
    let text = response.text().await.unwrap();
    for secret in [
        "key-of-planner",
        "key-of-coder",
        &planner.base_url,
        &coder.base_url,
        "big-model-1",
    ] {
        assert!(!text.contains(secret), "{secret} is not shown: {text}");
    }
    let list: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        list,
        json!({ "models": [
            { "name": "planner", "context_tokens": 200000, "supports_tools": true, "supports_images": false,
              "prices": { "input_per_million": 2.0, "output_per_million": 10.0 }, "default": true },
            { "name": "coder", "context_tokens": 32000, "supports_tools": true, "supports_images": true,
              "prices": null, "default": false },
        ] })
    );
    app.expect(
        StatusCode::UNAUTHORIZED,
        Method::GET,
        "/api/v1/models",
        None,
        None,
    )
    .await;
    // A key for jobs may ask which models its jobs may name.
    let key = app.jobs_key(&token).await;
    app.expect(StatusCode::OK, Method::GET, "/api/v1/models", Some(&key), None)
        .await;
}

#[tokio::test]
async fn a_session_changes_model_between_turns_and_counts_usage_by_model() {
    let planner = FakeLlm::start_as(
        Provider::with_key("key-of-planner"),
        vec![Reply::Text("Planned."), Reply::Text("Planned again.")],
    )
    .await;
    let coder = FakeLlm::start_as(Provider::with_key("key-of-coder"), vec![Reply::Text("Coded.")]).await;
    let app = two_models(&planner, &coder).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    assert_eq!(app.session(&token, &id).await["model"], "planner", "the default");

    assert_eq!(
        assistant_text(&app.turn(&token, &id, "Plan it").await),
        ["Planned."]
    );
    let path = format!("/api/v1/sessions/{id}");
    let changed = app
        .expect(
            StatusCode::OK,
            Method::PATCH,
            &path,
            Some(&token),
            Some(json!({ "model": "coder" })),
        )
        .await;
    assert_eq!(changed["model"], "coder");
    assert_eq!(changed["title"], "New chat", "the title stays");
    assert_eq!(
        assistant_text(&app.turn(&token, &id, "Code it").await),
        ["Coded."]
    );
    app.expect(
        StatusCode::OK,
        Method::PATCH,
        &path,
        Some(&token),
        Some(json!({ "model": "planner" })),
    )
    .await;
    assert_eq!(
        assistant_text(&app.turn(&token, &id, "Check it").await),
        ["Planned again."]
    );

    // Each request went to its model's server, with its provider id and its key.
    assert_eq!(planner.models_asked(), ["big-model-1", "big-model-1"]);
    assert_eq!(coder.models_asked(), ["small-model-2"]);
    assert!(coder
        .headers()
        .iter()
        .all(|h| h["authorization"] == "Bearer key-of-coder"));
    // The second planner request carried the whole conversation, the coder's answer too.
    let history = planner.requests()[1]["messages"].to_string();
    assert!(history.contains("Coded."), "{history}");

    // 100 prompt and 20 completion tokens per request; the planner's cost 2 and 10 per
    // million: 2 × (100 × 2 + 20 × 10) / 1e6.
    let done = app.session(&token, &id).await;
    assert_eq!(
        done["usage"],
        json!({ "prompt_tokens": 300, "completion_tokens": 60 })
    );
    let by_model = &done["usage_by_model"];
    assert_eq!(by_model.as_array().unwrap().len(), 2, "{by_model}");
    let planner_usage = &by_model[0];
    assert_eq!(planner_usage["model"], "planner");
    assert_eq!(planner_usage["prompt_tokens"], 200);
    assert_eq!(planner_usage["completion_tokens"], 40);
    let cost = planner_usage["cost"].as_f64().unwrap();
    assert!((cost - 0.0008).abs() < 1e-12, "{cost}");
    assert_eq!(
        by_model[1],
        json!({ "model": "coder", "prompt_tokens": 100, "completion_tokens": 20 }),
        "no prices, no cost"
    );
    // The process's counters (shared by the tests in it) name the model too.
    let metrics = app
        .http
        .get(format!("{}/metrics", app.base))
        .send()
        .await
        .unwrap();
    let metrics = metrics.text().await.unwrap();
    for line in [
        "llm_prompt_tokens{model=\"coder\"}",
        "llm_completion_tokens{model=\"planner\"}",
    ] {
        assert!(metrics.contains(line), "{line} in {metrics}");
    }
}

#[tokio::test]
async fn a_session_started_with_a_model_asks_it_first() {
    let planner = FakeLlm::start(vec![]).await;
    let coder = FakeLlm::start(vec![Reply::Text("Coded.")]).await;
    let app = two_models(&planner, &coder).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let created = app
        .expect(
            StatusCode::CREATED,
            Method::POST,
            "/api/v1/sessions",
            Some(&token),
            Some(json!({ "title": "Code", "model": "coder" })),
        )
        .await;
    assert_eq!(created["model"], "coder");
    let id = created["id"].as_str().unwrap();
    assert_eq!(assistant_text(&app.turn(&token, id, "Code it").await), ["Coded."]);
    assert_eq!(coder.models_asked(), ["small-model-2"]);
    assert!(planner.requests().is_empty());
}

#[tokio::test]
async fn a_model_not_offered_is_refused_naming_the_field() {
    let planner = FakeLlm::start(vec![]).await;
    let coder = FakeLlm::start(vec![]).await;
    let app = two_models(&planner, &coder).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let unprocessable = StatusCode::UNPROCESSABLE_ENTITY;
    let check = |refused: Value| {
        assert_eq!(refused["error"]["code"], "invalid", "{refused}");
        assert_eq!(refused["error"]["field"], "model", "{refused}");
        let message = refused["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("`gpt-nope`") && message.contains("planner, coder"),
            "{message}"
        );
    };
    let body = Some(json!({ "model": "gpt-nope" }));
    check(
        app.expect(
            unprocessable,
            Method::POST,
            "/api/v1/sessions",
            Some(&token),
            body.clone(),
        )
        .await,
    );
    let id = app.new_session(&token).await;
    let path = format!("/api/v1/sessions/{id}");
    check(
        app.expect(unprocessable, Method::PATCH, &path, Some(&token), body)
            .await,
    );
    assert_eq!(app.session(&token, &id).await["model"], "planner", "unchanged");
    let key = app.jobs_key(&token).await;
    let job = Some(json!({ "prompt": "hi", "model": "gpt-nope" }));
    check(
        app.expect(unprocessable, Method::POST, "/api/v1/jobs", Some(&key), job)
            .await,
    );
}

#[tokio::test]
async fn a_job_runs_with_the_model_it_names() {
    let planner = FakeLlm::start(vec![]).await;
    let coder = FakeLlm::start(vec![Reply::Text("Done by the coder.")]).await;
    let app = two_models(&planner, &coder).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let key = app.jobs_key(&token).await;
    let job = app
        .expect(
            StatusCode::CREATED,
            Method::POST,
            "/api/v1/jobs",
            Some(&key),
            Some(json!({ "prompt": "Write it", "model": "coder" })),
        )
        .await;
    let path = format!("/api/v1/jobs/{}", job["id"].as_str().unwrap());
    let start = std::time::Instant::now();
    let done = loop {
        let job = app
            .expect(StatusCode::OK, Method::GET, &path, Some(&key), None)
            .await;
        if job["status"] == "succeeded" {
            break job;
        }
        assert!(start.elapsed() < WAIT, "the job never succeeded: {job}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(done["answer"], "Done by the coder.");
    assert_eq!(coder.models_asked(), ["small-model-2"]);
    assert!(planner.requests().is_empty());
    let job_session = app.session(&token, job["session_id"].as_str().unwrap()).await;
    assert_eq!(job_session["model"], "coder");
}

#[tokio::test]
async fn a_change_during_a_turn_applies_from_the_next_one() {
    // The turn's first answer waits until the change is in, however slow the machine.
    let first_answer = Arc::new(tokio::sync::Notify::new());
    let planner = FakeLlm::start(vec![
        Reply::Gated(
            first_answer.clone(),
            Box::new(Reply::tool("set_title", json!({ "title": "Plan" }))),
        ),
        Reply::Text("Planned."),
    ])
    .await;
    let coder = FakeLlm::start(vec![Reply::Text("Coded.")]).await;
    let app = two_models(&planner, &coder).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    app.post_message(&token, &id, "Plan it").await;
    let start = std::time::Instant::now();
    while planner.requests().is_empty() {
        assert!(start.elapsed() < WAIT, "the planner was never asked");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The turn's first request is under way: the change is taken, not refused.
    let path = format!("/api/v1/sessions/{id}");
    let changed = app
        .expect(
            StatusCode::OK,
            Method::PATCH,
            &path,
            Some(&token),
            Some(json!({ "model": "coder" })),
        )
        .await;
    assert_eq!(
        (changed["status"].as_str(), changed["model"].as_str()),
        (Some("running"), Some("coder"))
    );
    first_answer.notify_one();
    stream
        .until(WAIT, |e| e["type"] == "status" && e["status"] == "completed")
        .await;
    assert_eq!(
        planner.models_asked(),
        ["big-model-1", "big-model-1"],
        "the turn kept its model"
    );
    assert!(coder.requests().is_empty());
    assert_eq!(
        assistant_text(&app.turn(&token, &id, "Code it").await),
        ["Coded."]
    );
    assert_eq!(coder.models_asked(), ["small-model-2"]);
}

#[tokio::test]
async fn a_session_whose_model_was_removed_is_told_to_pick_another() {
    let planner = FakeLlm::start(vec![Reply::Text("Planned.")]).await;
    let coder = FakeLlm::start(vec![]).await;
    let mut first = two_models(&planner, &coder).await;
    let (token, _, _) = first.register("ada@example.org").await;
    let id = first.new_session(&token).await;
    let path = format!("/api/v1/sessions/{id}");
    first
        .expect(
            StatusCode::OK,
            Method::PATCH,
            &path,
            Some(&token),
            Some(json!({ "model": "coder" })),
        )
        .await;
    let data = first.take_data().unwrap();
    first.stop().await;

    // The operator lists the planner only now.
    let settings = planner.model_settings("planner", "big-model-1");
    let settings: Vec<(&str, &str)> = settings.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let second = TestApp::spawn_on(data.path(), &settings).await;
    let events = second.turn(&token, &id, "Go on").await;
    let error = events.iter().find(|e| e["type"] == "error").expect("an error");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("`coder` this session uses is no longer offered"),
        "{message}"
    );
    assert!(coder.requests().is_empty() && planner.requests().is_empty());
    // Picking a model that is offered lets it go on.
    second
        .expect(
            StatusCode::OK,
            Method::PATCH,
            &path,
            Some(&token),
            Some(json!({ "model": "planner" })),
        )
        .await;
    assert_eq!(
        assistant_text(&second.turn(&token, &id, "Go on").await),
        ["Planned."]
    );
}
