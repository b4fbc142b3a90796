//! Several models against scripted model servers speaking real HTTP and SSE: the list a
//! person sees (without keys or addresses), each request going to its model's server
//! with its provider id and key, a session that changes model between turns (a change
//! mid-turn applies to the next one; a model the configuration no longer lists is told),
//! a job that names its model, usage and cost by model, the 422s for a model not
//! offered; and the providers' quirks: tool calls sent whole, arguments as an object, no
//! usage, reasoning beside the answer, and a model that cannot call tools.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Provider, Reply, REASONING};
use support::TestApp;

const WAIT: Duration = Duration::from_secs(10);

/// A backend offering `planner` (default; priced) and `coder`, each on its own server.
async fn two_models(planner: &FakeLlm, coder: &FakeLlm) -> TestApp {
    let mut settings = planner.model_settings("planner", "big-model-1");
    settings.extend(coder.model_settings("coder", "small-model-2"));
    settings.extend(
        [
            ("llm.default_model", "planner"),
            ("llm.models.planner.context_tokens", "200000"),
            ("llm.models.planner.input_price_per_million", "2"),
            ("llm.models.planner.output_price_per_million", "10"),
            ("llm.models.coder.context_tokens", "32000"),
            ("llm.models.coder.supports_images", "true"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned())),
    );
    spawn(&settings).await
}

async fn spawn(settings: &[(String, String)]) -> TestApp {
    let settings: Vec<(&str, &str)> = settings.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    TestApp::spawn(&settings).await
}

/// A backend with one model, `only`, on a server that speaks like `provider`.
async fn one_model(provider: Provider, replies: Vec<Reply>, extra: &[(&str, &str)]) -> (FakeLlm, TestApp) {
    let llm = FakeLlm::start_as(provider, replies).await;
    let mut settings = llm.model_settings("only", "only-1");
    settings.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let app = spawn(&settings).await;
    (llm, app)
}

fn assistant_text(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .filter(|e| e["type"] == "message" && e["role"] == "assistant")
        .map(|e| e["content"].as_str().unwrap())
        .collect()
}

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

/// Two calls of the run's own tools in one answer, then a text answer: both run, and
/// the next request answers both.
fn two_calls() -> Vec<Reply> {
    vec![
        Reply::Tools(vec![
            ("set_title", json!({ "title": "Trip" }).to_string()),
            ("message_notify_user", json!({ "text": "On it." }).to_string()),
        ]),
        Reply::Text("All done."),
    ]
}

async fn check_two_calls_ran(llm: &FakeLlm, app: &TestApp, token: &str, id: &str) {
    let events = app.turn(token, id, "Plan a trip").await;
    let failed: Vec<_> = events.iter().filter(|e| e["type"] == "error").collect();
    assert!(failed.is_empty(), "{failed:?}");
    assert_eq!(assistant_text(&events), ["On it.", "All done."]);
    assert_eq!(app.session(token, id).await["title"], "Trip");
    let answered: Vec<String> = llm.requests()[1]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(answered, ["title set", "delivered"]);
}

#[tokio::test]
async fn tool_calls_sent_whole_are_kept_apart_and_run() {
    let provider = Provider {
        whole_calls: true,
        ..Provider::default()
    };
    let (llm, app) = one_model(provider, two_calls(), &[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    check_two_calls_ran(&llm, &app, &token, &id).await;
}

#[tokio::test]
async fn arguments_sent_as_an_object_are_run() {
    let provider = Provider {
        whole_calls: true,
        object_arguments: true,
        ..Provider::default()
    };
    let (llm, app) = one_model(provider, two_calls(), &[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    check_two_calls_ran(&llm, &app, &token, &id).await;
    // The conversation sends them back as text, as every provider accepts them.
    let call = &llm.requests()[1]["messages"][2]["tool_calls"][0]["function"];
    assert_eq!(call["arguments"], json!({ "title": "Trip" }).to_string());
}

#[tokio::test]
async fn an_answer_without_usage_completes_and_counts_nothing() {
    let provider = Provider {
        no_usage: true,
        ..Provider::default()
    };
    let (_llm, app) = one_model(provider, vec![Reply::Text("Hello!")], &[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let events = app.turn(&token, &id, "Hi").await;
    assert_eq!(assistant_text(&events), ["Hello!"]);
    assert_eq!(events.last().unwrap()["status"], "completed");
    assert!(events.iter().all(|e| e["type"] != "usage"), "{events:?}");
    let done = app.session(&token, &id).await;
    assert_eq!(
        done["usage"],
        json!({ "prompt_tokens": 0, "completion_tokens": 0 })
    );
}

#[tokio::test]
async fn reasoning_never_reaches_the_answer() {
    let provider = Provider {
        reasoning: true,
        ..Provider::default()
    };
    let replies = vec![
        Reply::tool("set_title", json!({ "title": "Thought" })),
        Reply::Text("The answer is 42."),
    ];
    let (llm, app) = one_model(provider, replies, &[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let events = app.turn(&token, &id, "Think").await;
    assert_eq!(assistant_text(&events), ["The answer is 42."]);
    let everything = serde_json::to_string(&events).unwrap();
    assert!(!everything.contains("Let me think"), "{everything}");
    let sent_back = llm.requests()[1]["messages"].to_string();
    assert!(!sent_back.contains("Let me think"), "{sent_back}");
    assert!(REASONING.contains("Let me think"));
}

#[tokio::test]
async fn a_model_configured_without_tools_is_not_asked_and_the_person_told() {
    let extra = [("llm.models.only.supports_tools", "false")];
    let (llm, app) = one_model(Provider::default(), vec![Reply::Text("Hi")], &extra).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let events = app.turn(&token, &id, "Hi").await;
    let error = events.iter().find(|e| e["type"] == "error").expect("an error");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("`only` cannot call tools") && message.contains("pick another model"),
        "{message}"
    );
    assert_eq!(events.last().unwrap()["status"], "failed");
    assert!(llm.requests().is_empty());
    // The message was answered by that error: no turn tries it again.
    let settled = app.session(&token, &id).await["last_seq"].clone();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.session(&token, &id).await["last_seq"], settled);
}

#[tokio::test]
async fn a_provider_refusing_tools_is_a_clear_error() {
    let provider = Provider {
        no_tools: true,
        ..Provider::default()
    };
    let (llm, app) = one_model(provider, vec![Reply::Text("Hi")], &[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let events = app.turn(&token, &id, "Hi").await;
    let error = events.iter().find(|e| e["type"] == "error").expect("an error");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("`only`")
            && message.contains("cannot call tools")
            && message.contains("supports_tools = false"),
        "{message}"
    );
    assert_eq!(llm.requests().len(), 1, "a refusal is not retried");
}
