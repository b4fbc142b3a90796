//! A chat's registration of a kept tool goes with the tool: disabled by its person, the
//! chat that got it no longer offers it from its next turn.

use reqwest::{Method, StatusCode};
use serde_json::json;

use super::{keep, make_greet, offers_greet, on_sandboxes, TOOLBOX};
use crate::support::fake_llm::Reply;

#[tokio::test]
async fn a_disabled_kept_tool_leaves_the_chats_that_got_it() {
    let mut replies = make_greet();
    replies.push(Reply::Text("Made a greeter."));
    replies.extend([Reply::Text("Got it."), Reply::Text("Without it.")]);
    let (llm, _manager, app) = on_sandboxes(replies).await;
    let (bob, _, _) = app.register("bob@example.org").await;
    let first = app.new_session(&bob).await;
    app.turn(&bob, &first, "Make a greeter").await;
    let (status, kept) = keep(&app, &bob, &first, "greet").await;
    assert_eq!(status, StatusCode::CREATED, "{kept}");

    let second = app.new_session(&bob).await;
    app.turn(&bob, &second, "Hello").await;
    assert_eq!(offers_greet(&llm, 5), [true]);
    let one = format!("{TOOLBOX}/{}", kept["id"].as_str().unwrap());
    let off = Some(json!({ "enabled": false }));
    app.expect(StatusCode::OK, Method::PATCH, &one, Some(&bob), off)
        .await;
    app.turn(&bob, &second, "Hello again").await;
    assert_eq!(offers_greet(&llm, 6), [false]);
    let registered = format!("/api/v1/sessions/{second}/registered-tools");
    let listed = app
        .expect(StatusCode::OK, Method::GET, &registered, Some(&bob), None)
        .await;
    assert_eq!(listed, json!([]), "its registration is gone");
}
