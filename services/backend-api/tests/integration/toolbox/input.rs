//! Bad keeps: each gets its status with a JSON error body — an unknown, malformed or
//! another person's chat and a name not registered in the chat are not found (404); a
//! bad name, a missing field, a command naming no file and a file that is not text are
//! 422; a folder of too many files, or of too many bytes, is 413. Nothing is kept.

use reqwest::{Method, StatusCode};
use serde_json::json;

use super::{keep, make_greet, on_sandboxes, write, TOOLBOX};
use crate::support::fake_llm::Reply;

/// Registers the greet server again under `name`, started from `folder` (which the
/// steps before filled), for a keep to refuse.
fn register_in(name: &str, folder: &str) -> Reply {
    let script = format!("{folder}/server.js");
    Reply::tool(
        "tool_register",
        json!({ "name": name, "command": "node", "args": [script] }),
    )
}

#[tokio::test]
async fn bad_keeps_get_their_status_and_a_json_body() {
    let shell = |command: &str| Reply::tool("shell_exec", json!({ "command": command }));
    let mut replies = make_greet();
    replies.extend([
        // Too many files beside the script, too many bytes, a file that is not text.
        shell("mkdir -p many && for i in $(seq 60); do echo $i > many/f$i.txt; done && cp tools/greet/*.js many/"),
        register_in("many", "many"),
        shell("mkdir -p big && head -c 600000 /dev/zero | tr '\\0' a > big/pad.txt && cp tools/greet/*.js big/"),
        register_in("big", "big"),
        shell("mkdir -p bin && printf '\\377\\376' > bin/blob && cp tools/greet/*.js bin/"),
        register_in("binary", "bin"),
        // A server whose command names no file: the script is inline.
        write("inline.txt", "x"),
        Reply::tool(
            "tool_register",
            json!({ "name": "inline", "command": "sh", "args": ["-c", "exec node tools/greet/server.js"] }),
        ),
        Reply::Text("Made them."),
    ]);
    let (_llm, _manager, app) = on_sandboxes(replies).await;
    let (bob, _, _) = app.register("bob@example.org").await;
    let (carol, _, _) = app.register("carol@example.org").await;
    let chat = app.new_session(&bob).await;
    let made = app.turn(&bob, &chat, "Make servers").await;
    assert_eq!(made.last().unwrap()["status"], "completed", "{made:#?}");
    let registered = made
        .iter()
        .filter(|e| e["type"] == "tool" && e["status"] == "called" && e["name"] == "tool_register")
        .filter(|e| e["view"]["error"].is_null())
        .count();
    assert_eq!(registered, 5, "every server registered: {made:#?}");

    let unknown = uuid::Uuid::new_v4().to_string();
    let cases = [
        (
            &bob,
            unknown.as_str(),
            "greet",
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (&bob, "not-a-session", "greet", StatusCode::NOT_FOUND, "not_found"),
        (&carol, chat.as_str(), "greet", StatusCode::NOT_FOUND, "not_found"),
        (&bob, chat.as_str(), "never", StatusCode::NOT_FOUND, "not_found"),
        (
            &bob,
            chat.as_str(),
            "a b",
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid",
        ),
        (
            &bob,
            chat.as_str(),
            "inline",
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid",
        ),
        (
            &bob,
            chat.as_str(),
            "binary",
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid",
        ),
        (
            &bob,
            chat.as_str(),
            "many",
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
        ),
        (
            &bob,
            chat.as_str(),
            "big",
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
        ),
    ];
    for (token, session, name, status, code) in cases {
        let (got, body) = keep(&app, token, session, name).await;
        assert_eq!(
            (got, body["error"]["code"].as_str()),
            (status, Some(code)),
            "{name} in {session}: {body}"
        );
        assert!(
            body["error"]["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{body}"
        );
    }
    let (_, inline) = keep(&app, &bob, &chat, "inline").await;
    assert!(inline.to_string().contains("names no file"), "{inline}");
    let (_, many) = keep(&app, &bob, &chat, "many").await;
    assert!(many.to_string().contains("more than 50 files"), "{many}");

    let missing = app
        .expect(
            StatusCode::UNPROCESSABLE_ENTITY,
            Method::POST,
            TOOLBOX,
            Some(&bob),
            Some(json!({ "name": "greet" })),
        )
        .await;
    assert_eq!(missing["error"]["code"], "invalid", "{missing}");
    let kept = app
        .expect(StatusCode::OK, Method::GET, TOOLBOX, Some(&bob), None)
        .await;
    assert_eq!(kept, json!([]), "nothing was kept");
    let (status, greet) = keep(&app, &bob, &chat, "greet").await;
    assert_eq!(status, StatusCode::CREATED, "the good one is kept: {greet}");
    let body = Some(json!({ "enabled": "yes" }));
    let one = format!("{TOOLBOX}/{}", greet["id"].as_str().unwrap());
    app.expect(
        StatusCode::UNPROCESSABLE_ENTITY,
        Method::PATCH,
        &one,
        Some(&bob),
        body,
    )
    .await;
}
