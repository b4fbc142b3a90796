//! Web search, run by the backend against a fake provider with no sandbox-manager: its
//! results, a failed search the model reads, and a configuration that stops start-up.

use super::*;

const SEARCH_KEY: &str = "sk-search-key-31c7";

/// A backend whose model is `llm` and whose search provider is the fake at `provider`,
/// with its key; no sandbox-manager is configured.
async fn app_searching(llm: &FakeLlm, provider: &str) -> TestApp {
    let mut settings = llm.settings();
    settings.push(("search.provider", "searxng".into()));
    settings.push(("search.url", provider.into()));
    settings.push(("search.api_key", SEARCH_KEY.into()));
    TestApp::spawn(&borrowed(&settings)).await
}

#[tokio::test]
async fn web_search_runs_in_the_backend_and_needs_no_sandbox() {
    let provider = Recorder::json(searxng_answer(3)).await;
    let llm = FakeLlm::start(vec![
        Reply::tool(
            "web_search",
            json!({ "query": "sandpiper birds", "max_results": 2 }),
        ),
        Reply::Text("Two pages about sandpipers."),
    ])
    .await;
    let app = app_searching(&llm, &provider.base).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    app.post_message(&token, &id, "Find pages about sandpipers").await;
    let events = seen(&mut stream, status_is("completed")).await;
    assert_eq!(
        kinds(&events),
        ["message", "status", "tool", "tool", "message", "done", "status"]
    );
    let results = json!([
        { "title": "Result 1", "url": "https://site1.example/", "snippet": "Snippet 1" },
        { "title": "Result 2", "url": "https://site2.example/", "snippet": "Snippet 2" },
    ]);
    assert_eq!(events[2]["status"], "calling");
    assert_eq!(events[3]["name"], "web_search");
    assert_eq!(events[3]["status"], "called");
    assert_eq!(events[3]["view"], json!({ "kind": "search", "results": results }));

    // The backend asked the provider, with the operator's key.
    let asked = provider.only_request();
    assert_eq!(asked.path, "/search");
    assert_eq!(asked.query["q"], "sandpiper birds");
    assert_eq!(asked.query["format"], "json");
    assert_eq!(
        asked.header("authorization"),
        Some(format!("Bearer {SEARCH_KEY}").as_str())
    );

    // The model was offered the tool and read what was found.
    let requests = llm.requests();
    let offered = requests[0]["tools"].to_string();
    assert!(offered.contains("\"web_search\""), "{offered}");
    let answer = requests[1]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .unwrap();
    let read: Value = serde_json::from_str(untrusted(answer["content"].as_str().unwrap())).unwrap();
    assert_eq!(read, json!({ "provider": "searxng", "results": results }));
}

#[tokio::test]
async fn a_failed_search_is_the_models_to_read_and_the_turn_goes_on() {
    // Brave's refusal format, echoing the key back as some providers do.
    let refusal = json!({ "type": "ErrorResponse", "error": { "status": 401,
        "code": "SUBSCRIPTION_TOKEN_INVALID", "detail": format!("The token {SEARCH_KEY} is invalid.") } });
    let provider = Recorder::start(401, "application/json", refusal.to_string()).await;
    let llm = FakeLlm::start(vec![
        Reply::tool("web_search", json!({ "query": "terns" })),
        Reply::Text("Search is refused; I will browse instead."),
    ])
    .await;
    let app = app_searching(&llm, &provider.base).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    app.post_message(&token, &id, "Find terns").await;
    let events = seen(&mut stream, status_is("completed")).await;
    assert_eq!(
        kinds(&events),
        ["message", "status", "tool", "tool", "message", "done", "status"]
    );
    let view = &events[3]["view"];
    assert_eq!(view["kind"], "error");
    let shown = view["message"].as_str().unwrap();
    assert!(
        shown.contains("401") && shown.contains("API key was refused"),
        "{shown}"
    );
    let told = serde_json::to_string(&llm.requests()).unwrap();
    assert!(told.contains("web_search failed"), "{told}");
    for said in [shown, told.as_str()] {
        assert!(!said.contains(SEARCH_KEY), "the key is never echoed: {said}");
    }
}

#[tokio::test]
async fn an_unusable_search_configuration_stops_start_up() {
    let dir = tempfile::tempdir().unwrap();
    for (provider, expected) in [("bing", "not a known provider"), ("brave", "SEARCH_API_KEY")] {
        let settings = support::settings(dir.path(), &[("search.provider", provider)]);
        let err = backend_api::Application::build(settings)
            .await
            .err()
            .expect("must refuse");
        assert!(format!("{err:#}").contains(expected), "{provider}: {err:#}");
    }
}

/// What outlives a run or reaches outside is offered only where it may be used: a chat
/// its person opened gets `automation_create` and web search; a job (anyone's prompt, no
/// person present) no `automation_create`; an offline job no web search either.
#[tokio::test]
async fn headless_and_offline_runs_are_offered_nothing_that_lasts_or_reaches_out() {
    let provider = Recorder::json(searxng_answer(1)).await;
    let llm = FakeLlm::start(vec![
        Reply::Text("Hello."),
        Reply::Text("Done online."),
        Reply::Text("Done offline."),
    ])
    .await;
    let app = app_searching(&llm, &provider.base).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    app.turn(&token, &id, "Hello").await;
    let key = app.jobs_key(&token).await;
    for network in ["internet", "offline"] {
        let created = app
            .create_job(&key, json!({ "prompt": "Say hello", "network": network }))
            .await;
        app.until_job(&key, created["id"].as_str().unwrap(), "succeeded")
            .await;
    }
    let offered: Vec<Vec<String>> = llm.requests().iter().map(support::fake_llm::tool_names).collect();
    let has = |at: usize, name: &str| offered[at].iter().any(|tool| tool == name);
    assert!(
        has(0, "automation_create") && has(0, "web_search"),
        "the chat: {:?}",
        offered[0]
    );
    assert!(
        !has(1, "automation_create") && has(1, "web_search"),
        "a job: {:?}",
        offered[1]
    );
    assert!(
        !has(2, "automation_create") && !has(2, "web_search"),
        "an offline job: {:?}",
        offered[2]
    );
    assert!(has(2, "shell_exec"), "{:?}", offered[2]);
}
