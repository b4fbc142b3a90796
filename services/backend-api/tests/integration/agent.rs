//! The agent loop against a scripted OpenAI-compatible server speaking real HTTP and SSE:
//! planning and titles, a malformed tool call fed back, a 429 retried, a question that
//! waits for the person, stop in the middle of a model request, no model configured, a
//! person's daily token budget; web search, which the backend runs itself against a fake
//! provider (`web_fakes`) with no sandbox-manager configured at all.
//! (Tools in a real sandbox: `agent_sandbox.rs`.)

use crate::support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use support::fake_llm::{untrusted, FakeLlm, Reply};
use support::{borrowed, SseStream, TestApp};
use web_fakes::{searxng_answer, Recorder};

/// How long the scripted runs may take to get anywhere.
const WAIT: Duration = Duration::from_secs(10);

async fn app_with(llm: &FakeLlm) -> TestApp {
    let settings = llm.settings();
    let overrides = borrowed(&settings);
    TestApp::spawn(&overrides).await
}

fn status_is(status: &'static str) -> impl Fn(&Value) -> bool {
    move |e| e["type"] == "status" && e["status"] == status
}

/// What the person sees of a run: its events without the `usage` one that ends each
/// turn (checked on its own, through the session's totals) and the agent's `memory`
/// (checked through what later model requests carry).
async fn seen(stream: &mut SseStream, last: impl Fn(&Value) -> bool) -> Vec<Value> {
    let events = stream.until(WAIT, last).await;
    events
        .into_iter()
        .filter(|e| e["type"] != "usage" && e["type"] != "memory")
        .collect()
}

fn kinds(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_run_plans_titles_tracks_steps_and_answers() {
    let llm = FakeLlm::start(vec![
        Reply::Tools(vec![
            ("set_title", json!({ "title": "Greeting" }).to_string()),
            (
                "plan_update",
                json!({ "steps": [{ "id": "1", "description": "Say hello" }] }).to_string(),
            ),
        ]),
        Reply::tool("step_update", json!({ "step_id": "1", "status": "completed" })),
        Reply::Text("Hello, Ada!"),
    ])
    .await;
    let app = app_with(&llm).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    app.post_message(&token, &id, "Say hello to me").await;
    let events = seen(&mut stream, status_is("completed")).await;
    assert_eq!(
        kinds(&events),
        ["message", "status", "title", "plan", "step", "message", "done", "status"]
    );
    assert_eq!(events[2]["title"], "Greeting");
    assert_eq!(events[3]["steps"][0]["description"], "Say hello");
    assert_eq!(events[4]["status"], "completed");
    assert_eq!(
        events[5],
        json!({ "type": "message", "role": "assistant", "content": "Hello, Ada!" })
    );

    // The model saw the person's message, the tools, and every tool call answered.
    let requests = llm.requests();
    assert_eq!(requests.len(), 3);
    assert_eq!(requests[0]["stream"], true);
    assert_eq!(
        requests[0]["messages"][1],
        json!({ "role": "user", "content": "Say hello to me" })
    );
    let tools: Vec<&str> = requests[0]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    for name in [
        "plan_update",
        "message_ask_user",
        "shell_exec",
        "file_write",
        "browser_navigate",
        "web_fetch",
    ] {
        assert!(tools.contains(&name), "{name} is offered: {tools:?}");
    }
    assert!(
        !tools.contains(&"web_search"),
        "no search provider, no web_search: {tools:?}"
    );
    let answered: Vec<&str> = requests[2]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["tool_call_id"].as_str())
        .collect();
    assert_eq!(answered.len(), 3, "{answered:?}");

    // The session's summary follows: title and status.
    let session = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("/api/v1/sessions/{id}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(session["title"], "Greeting");
    assert_eq!(session["status"], "completed");
    // Each of the three requests cost 100 + 20 tokens (as the provider reported).
    assert_eq!(
        session["usage"],
        json!({ "prompt_tokens": 300, "completion_tokens": 60 })
    );
}

#[tokio::test]
async fn a_malformed_tool_call_is_fed_back_and_a_429_is_retried() {
    let llm = FakeLlm::start(vec![
        Reply::Tools(vec![("set_title", "{\"title\": \"Bro".into())]),
        Reply::Status(429),
        Reply::Status(503),
        Reply::Text("Recovered."),
    ])
    .await;
    let app = app_with(&llm).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    app.post_message(&token, &id, "Go").await;
    let events = seen(&mut stream, status_is("completed")).await;
    assert_eq!(
        kinds(&events),
        ["message", "status", "tool", "tool", "message", "done", "status"]
    );
    assert_eq!(events[2]["status"], "calling", "every called has its calling");
    assert_eq!(events[3]["view"]["kind"], "error");
    let requests = llm.requests();
    assert_eq!(requests.len(), 4, "one answer, two failures retried, one answer");
    let fed_back = requests[3]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .unwrap();
    assert!(
        fed_back["content"].as_str().unwrap().contains("not valid JSON"),
        "{fed_back}"
    );
}

#[tokio::test]
async fn asking_the_person_waits_and_the_reply_continues_the_run() {
    let llm = FakeLlm::start(vec![
        Reply::tool(
            "message_ask_user",
            json!({ "question": "Which city?", "take_over": false }),
        ),
        Reply::Text("Paris it is."),
    ])
    .await;
    let app = app_with(&llm).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    app.post_message(&token, &id, "Book a trip").await;
    let events = seen(&mut stream, status_is("waiting")).await;
    assert_eq!(kinds(&events), ["message", "status", "wait", "status"]);
    assert_eq!(events[2]["prompt"], "Which city?");

    app.post_message(&token, &id, "Paris").await;
    let events = seen(&mut stream, status_is("completed")).await;
    assert_eq!(kinds(&events), ["message", "status", "message", "done", "status"]);
    // The reply's request holds the question as the call that asked it, answered.
    let last = llm.requests().pop().unwrap();
    let said: Vec<(&str, &str)> = last["messages"].as_array().unwrap()[1..]
        .iter()
        .map(|m| {
            let call = &m["tool_calls"][0]["function"];
            let text = m["content"].as_str().or(call["arguments"].as_str());
            (m["role"].as_str().unwrap(), text.unwrap_or(""))
        })
        .collect();
    assert_eq!(
        said,
        [
            ("user", "Book a trip"),
            ("assistant", r#"{"question":"Which city?","take_over":false}"#),
            ("tool", "asked; the person's reply comes as their next message"),
            ("user", "Paris")
        ]
    );
}

#[tokio::test]
async fn a_message_sent_during_a_run_is_taken_into_it_once() {
    // The first answer waits until the follow-up is in, however slow the machine.
    let first_answer = Arc::new(tokio::sync::Notify::new());
    let llm = FakeLlm::start(vec![
        Reply::Gated(first_answer.clone(), Box::new(Reply::Text("First answer."))),
        Reply::Text("Second answer, with the follow-up."),
    ])
    .await;
    let app = app_with(&llm).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    app.post_message(&token, &id, "First question").await;
    stream.until(WAIT, status_is("running")).await;
    let deadline = Instant::now() + WAIT;
    while llm.requests().is_empty() {
        assert!(Instant::now() < deadline, "the model was never asked");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    app.post_message(&token, &id, "And a follow-up").await;
    first_answer.notify_one();
    let events = seen(&mut stream, status_is("completed")).await;
    let said: Vec<&str> = events
        .iter()
        .filter(|e| e["type"] == "message")
        .map(|e| e["content"].as_str().unwrap())
        .collect();
    assert_eq!(
        said,
        [
            "And a follow-up",
            "First answer.",
            "Second answer, with the follow-up."
        ]
    );
    // The follow-up was answered within the run, and nothing was asked again after it.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let requests = llm.requests();
    assert_eq!(requests.len(), 2, "an extra model request after the run ended");
    let second = requests[1]["messages"].to_string();
    assert!(second.contains("And a follow-up"), "{second}");
}

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
