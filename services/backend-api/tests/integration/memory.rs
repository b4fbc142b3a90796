//! Memory across chats, with the scripted model over the real wire: a note the agent
//! keeps in one chat (a tool line the person sees) starts the person's next chat, and
//! no one else's; off means neither the tool nor the notes; a note the agent edits
//! mid-chat leaves that chat's prompt as it began, one edited on the Memory page reaches
//! the chat's next run; a secret is refused to the model; the API
//! answers another person's note with 404 and bad input with 422 JSON; a sub-agent gets
//! neither notes nor tool; and a replay shows nothing of it. Runs on both stores.

use crate::support;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::{borrowed, TestApp};

pub(crate) const NOTE: &str = "Ada deploys with Helm to the staging cluster";

pub(crate) fn note_path(id: &str) -> String {
    format!("/api/v1/memory/notes/{id}")
}

pub(crate) async fn set_memory(app: &TestApp, token: &str, enabled: bool) -> Value {
    let body = Some(json!({ "enabled": enabled }));
    app.expect(StatusCode::OK, Method::PATCH, "/api/v1/memory", Some(token), body)
        .await
}

pub(crate) async fn memory(app: &TestApp, token: &str) -> Value {
    app.expect(StatusCode::OK, Method::GET, "/api/v1/memory", Some(token), None)
        .await
}

/// The system prompt of model request `n`.
pub(crate) fn system_prompt(llm: &FakeLlm, n: usize) -> String {
    let request = &llm.requests()[n];
    assert_eq!(request["messages"][0]["role"], "system");
    request["messages"][0]["content"].as_str().unwrap().to_owned()
}

/// Whether model request `n` offered the `memory` tool.
pub(crate) fn offers_memory(llm: &FakeLlm, n: usize) -> bool {
    let tools = llm.requests()[n]["tools"].as_array().cloned().unwrap_or_default();
    tools.iter().any(|tool| tool["function"]["name"] == "memory")
}

/// The `memory` tool's `called` events of a turn.
pub(crate) fn memory_calls(events: &[Value]) -> Vec<Value> {
    events
        .iter()
        .filter(|e| e["type"] == "tool" && e["name"] == "memory" && e["status"] == "called")
        .cloned()
        .collect()
}

/// A server with the scripted model, and Ada (memory on) with one chat whose agent kept
/// [`NOTE`] (model requests 0 and 1); her token and that chat's id.
pub(crate) async fn ada_with_a_note(llm: &FakeLlm) -> (TestApp, String, String) {
    let settings = llm.settings();
    let app = TestApp::spawn(&borrowed(&settings)).await;
    let (ada, _, _) = app.register("ada@example.org").await;
    let off = memory(&app, &ada).await;
    assert_eq!(
        off,
        json!({ "enabled": false, "notes": [] }),
        "off and empty at first"
    );
    assert_eq!(set_memory(&app, &ada, true).await["enabled"], true);
    let chat = app.new_session(&ada).await;
    let events = app.turn(&ada, &chat, "Remember how I deploy").await;
    let calls = memory_calls(&events);
    assert_eq!(calls.len(), 1, "one memory tool line: {events:#?}");
    assert_eq!(calls[0]["args"]["text"], NOTE);
    let view = &calls[0]["view"];
    assert_eq!(
        (&view["kind"], &view["action"], &view["text"], &view["notes"]),
        (&json!("memory"), &json!("add"), &json!(NOTE), &json!(1)),
        "{:#?}",
        calls[0]
    );
    assert!(
        calls[0].get("written").is_none(),
        "the call is typed: {:#?}",
        calls[0]
    );
    (app, ada, chat)
}

pub(crate) fn keep_the_note() -> Vec<Reply> {
    vec![
        Reply::tool("memory", json!({ "action": "add", "text": NOTE })),
        Reply::Text("Noted."),
    ]
}

#[tokio::test]
async fn a_note_kept_in_one_chat_starts_the_persons_next_chat_and_no_one_elses() {
    let mut replies = keep_the_note();
    replies.extend([
        Reply::Text("Hi Ada"),
        Reply::Text("Hi Bob"),
        Reply::Text("Hi again"),
    ]);
    let llm = FakeLlm::start(replies).await;
    let (app, ada, chat_1) = ada_with_a_note(&llm).await;
    // Chat 1 was offered the tool, and its own prompt did not change.
    assert!(offers_memory(&llm, 0));
    assert!(!system_prompt(&llm, 0).contains(NOTE));
    assert!(!system_prompt(&llm, 1).contains(NOTE));
    let kept = memory(&app, &ada).await;
    assert_eq!(kept["notes"][0]["text"], NOTE);
    assert_eq!(
        kept["notes"][0]["session_id"],
        chat_1.as_str(),
        "it names its chat"
    );

    // Ada's next chat starts with it, in its first request.
    let chat_2 = app.new_session(&ada).await;
    app.turn(&ada, &chat_2, "Deploy the app").await;
    assert!(
        system_prompt(&llm, 2).contains(NOTE),
        "{}",
        system_prompt(&llm, 2)
    );

    // Bob, with memory on too, gets nothing of hers.
    let (bob, _, _) = app.register("bob@example.org").await;
    set_memory(&app, &bob, true).await;
    let bobs = app.new_session(&bob).await;
    app.turn(&bob, &bobs, "Deploy the app").await;
    assert!(!system_prompt(&llm, 3).contains(NOTE));
    assert!(offers_memory(&llm, 3));
    assert_eq!(memory(&app, &bob).await["notes"], json!([]));

    // Off: a new chat gets neither the notes nor the tool; the notes stay.
    assert_eq!(set_memory(&app, &ada, false).await["notes"][0]["text"], NOTE);
    let chat_3 = app.new_session(&ada).await;
    app.turn(&ada, &chat_3, "Deploy the app").await;
    assert!(!system_prompt(&llm, 4).contains(NOTE));
    assert!(!offers_memory(&llm, 4));
}

#[tokio::test]
async fn a_note_changed_mid_chat_leaves_that_chats_prompt_as_it_began() {
    let mut replies = keep_the_note();
    replies.extend([
        Reply::Text("Hi"),
        // The agent rewrites the note in the same chat's next turn.
        Reply::tool(
            "memory",
            json!({ "action": "replace", "old": "Helm", "text": "Ada deploys with Argo CD" }),
        ),
        Reply::Text("Updated."),
        Reply::Text("A new chat"),
    ]);
    let llm = FakeLlm::start(replies).await;
    let (app, ada, _) = ada_with_a_note(&llm).await;
    let chat = app.new_session(&ada).await;
    app.turn(&ada, &chat, "Hello").await;
    let began = system_prompt(&llm, 2);
    assert!(began.contains(NOTE));

    // Edited on the Memory page between this chat's turns (the person's change reaches
    // the next run), then by the agent within the turn (which leaves the prompt be).
    let id = memory(&app, &ada).await["notes"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let edit = Some(json!({ "text": "Ada deploys with Helm to production" }));
    let edited = app
        .expect(StatusCode::OK, Method::PATCH, &note_path(&id), Some(&ada), edit)
        .await;
    assert_eq!(edited["text"], "Ada deploys with Helm to production");
    let events = app.turn(&ada, &chat, "Change how I deploy").await;
    let view = &memory_calls(&events)[0]["view"];
    assert_eq!(
        (&view["kind"], &view["action"], &view["old"], &view["text"]),
        (
            &json!("memory"),
            &json!("replace"),
            &json!("Helm"),
            &json!("Ada deploys with Argo CD")
        ),
        "{view}"
    );
    let edited = system_prompt(&llm, 3);
    assert!(
        edited.contains("Helm to production") && !edited.contains(NOTE),
        "{edited}"
    );
    assert_eq!(
        system_prompt(&llm, 4),
        edited,
        "the agent's edit changed the prompt"
    );
    assert_ne!(edited, began);
    // A new chat gets the notes as they are now.
    let next = app.new_session(&ada).await;
    app.turn(&ada, &next, "Hello").await;
    let now = system_prompt(&llm, 5);
    assert!(
        now.contains("Ada deploys with Argo CD") && !now.contains(NOTE),
        "{now}"
    );
}

#[tokio::test]
async fn secrets_are_refused_and_another_persons_note_is_not_found() {
    let mut replies = keep_the_note();
    replies.extend([
        Reply::tool(
            "memory",
            json!({ "action": "add", "text": "Ada's deploy token=ghp_Zx81kQ0pLm2Nb7Vc4Xz9" }),
        ),
        Reply::Text("I will not keep that."),
    ]);
    let llm = FakeLlm::start(replies).await;
    let (app, ada, chat) = ada_with_a_note(&llm).await;

    // The agent's secret is refused: a failed tool line, the reason for the model.
    let events = app.turn(&ada, &chat, "Remember my token").await;
    let refused = &memory_calls(&events)[0];
    assert_eq!(refused["view"]["kind"], "error", "{refused:#?}");
    let told = llm.last_message_text(3);
    assert!(told.contains("never keeps keys, tokens or passwords"), "{told}");
    assert_eq!(memory(&app, &ada).await["notes"].as_array().unwrap().len(), 1);

    let id = memory(&app, &ada).await["notes"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (bob, _, _) = app.register("bob@example.org").await;
    let edit = || Some(json!({ "text": "Bob was here" }));
    for (method, body) in [(Method::PATCH, edit()), (Method::DELETE, None)] {
        for path in [note_path(&id), note_path("not-an-id")] {
            let answer = app
                .expect(
                    StatusCode::NOT_FOUND,
                    method.clone(),
                    &path,
                    Some(&bob),
                    body.clone(),
                )
                .await;
            assert_eq!(answer["error"]["code"], "not_found", "{method} {path}: {answer}");
        }
    }
    assert_eq!(
        memory(&app, &ada).await["notes"][0]["text"],
        NOTE,
        "Ada's note stands"
    );

    // Bad input: 422 with a JSON body naming what to fix, and nothing changes.
    let long = "x".repeat(501);
    for bad in [
        json!({ "text": "" }),
        json!({ "text": long }),
        json!({ "text": "password: hunter2" }),
        json!({}),
    ] {
        let answer = app
            .expect(
                StatusCode::UNPROCESSABLE_ENTITY,
                Method::PATCH,
                &note_path(&id),
                Some(&ada),
                Some(bad),
            )
            .await;
        assert_eq!(answer["error"]["code"], "invalid", "{answer}");
    }
    for bad in [
        json!({ "enabled": "yes" }),
        json!({}),
        json!({ "enabled": true, "extra": 1 }),
    ] {
        let answer = app
            .expect(
                StatusCode::UNPROCESSABLE_ENTITY,
                Method::PATCH,
                "/api/v1/memory",
                Some(&ada),
                Some(bad),
            )
            .await;
        assert_eq!(answer["error"]["code"], "invalid", "{answer}");
    }
    assert_eq!(memory(&app, &ada).await["notes"][0]["text"], NOTE);

    // Delete one, wipe all: memory stays on.
    app.expect(
        StatusCode::NO_CONTENT,
        Method::DELETE,
        &note_path(&id),
        Some(&ada),
        None,
    )
    .await;
    app.expect(
        StatusCode::NOT_FOUND,
        Method::DELETE,
        &note_path(&id),
        Some(&ada),
        None,
    )
    .await;
    app.expect(
        StatusCode::NO_CONTENT,
        Method::DELETE,
        "/api/v1/memory",
        Some(&ada),
        None,
    )
    .await;
    assert_eq!(memory(&app, &ada).await, json!({ "enabled": true, "notes": [] }));
    app.expect(
        StatusCode::UNAUTHORIZED,
        Method::GET,
        "/api/v1/memory",
        None,
        None,
    )
    .await;
}

#[tokio::test]
async fn a_replay_shows_nothing_of_the_persons_memory() {
    let mut replies = keep_the_note();
    replies.push(Reply::Text("Hello from chat 2"));
    let llm = FakeLlm::start(replies).await;
    let (app, ada, chat_1) = ada_with_a_note(&llm).await;
    let chat_2 = app.new_session(&ada).await;
    app.turn(&ada, &chat_2, "Hello").await;
    assert!(system_prompt(&llm, 2).contains(NOTE));
    for chat in [chat_1, chat_2] {
        let path = format!("/api/v1/sessions/{chat}/share");
        let shared = app
            .expect(StatusCode::OK, Method::POST, &path, Some(&ada), None)
            .await;
        let link = shared["share_token"].as_str().expect("a link token").to_owned();
        let path = format!("/api/v1/shared/{link}/events?after=0&limit=1000");
        let replay = app.expect(StatusCode::OK, Method::GET, &path, None, None).await;
        let text = replay.to_string();
        assert!(
            replay.as_array().is_some_and(|events| !events.is_empty()),
            "{text}"
        );
        assert!(!text.contains("Helm") && !text.contains("\"memory\""), "{text}");
    }
}

#[tokio::test]
async fn a_sub_agent_gets_neither_the_notes_nor_the_tool() {
    const TASK: &str = "Sub-task: list the deploy targets";
    let mut replies = keep_the_note();
    replies.extend([
        Reply::tool("delegate", json!({ "task": TASK })),
        Reply::Text("Done."),
    ]);
    let llm = FakeLlm::start(replies).await;
    llm.route(TASK, vec![Reply::Text("staging and production")]);
    let (app, ada, _) = ada_with_a_note(&llm).await;
    let chat = app.new_session(&ada).await;
    app.turn(&ada, &chat, "Delegate it").await;
    assert!(system_prompt(&llm, 2).contains(NOTE), "the lead has the notes");
    let requests = llm.requests();
    let sub = requests
        .iter()
        .position(|r| r["messages"][1]["content"].as_str() == Some(TASK))
        .expect("the sub-agent asked the model");
    assert!(!system_prompt(&llm, sub).contains(NOTE));
    assert!(!offers_memory(&llm, sub));
}
