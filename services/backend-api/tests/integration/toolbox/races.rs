//! Keeps made at once: a person's tool box never holds two tools of one name (in either
//! store), however many keeps of it race; each one not kept is a 409 with a JSON body.

use reqwest::{Method, StatusCode};
use serde_json::Value;

use super::{keep, make_greet, on_sandboxes, TOOLBOX};
use crate::support::fake_llm::Reply;

#[tokio::test]
async fn keeps_of_one_name_at_once_keep_one_tool() {
    let mut replies = make_greet();
    replies.push(Reply::Text("Made a greeter."));
    let (_llm, _manager, app) = on_sandboxes(replies).await;
    let (bob, _, _) = app.register("bob@example.org").await;
    let chat = app.new_session(&bob).await;
    app.turn(&bob, &chat, "Make a greeter").await;

    let keeps = (0..8).map(|_| keep(&app, &bob, &chat, "greet"));
    let answers = futures::future::join_all(keeps).await;
    let kept = answers
        .iter()
        .filter(|(status, _)| *status == StatusCode::CREATED);
    assert!(kept.count() >= 1, "{answers:#?}");
    for (status, body) in &answers {
        if *status != StatusCode::CREATED {
            assert_eq!(
                (*status, body["error"]["code"].as_str()),
                (StatusCode::CONFLICT, Some("conflict")),
                "{body}"
            );
        }
    }
    let listed: Value = app
        .expect(StatusCode::OK, Method::GET, TOOLBOX, Some(&bob), None)
        .await;
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed:#}");
}
