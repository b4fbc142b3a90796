//! Providers' quirks: tool calls sent whole or with arguments as an object, answers
//! without usage, reasoning kept out of the answer, models that cannot call tools.

use super::*;

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
