//! Turns as they go: a run planning, titling, tracking steps and answering; a malformed
//! tool call fed back and a 429 retried; a question waiting for the person; a message
//! sent during a run taken into it once.

use super::*;

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
