//! A kept tool never replaces a file of the chat that gets it: the person's own
//! `words.js` at the kept path stays as they wrote it, the tool is refused once with a
//! message naming that file, and later turns of the chat do not try it again.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::{keep, last_result, make_greet, offers_greet, on_sandboxes, write, TOOLBOX};
use crate::support::fake_llm::Reply;

/// The kept file the person's own one stands in the way of.
const IN_THE_WAY: &str = "/home/sandbox/workspace/tools/greet/words.js";

fn errors(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e["type"] == "error")
        .map(|e| e["message"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test]
async fn a_kept_tool_never_overwrites_a_chat_s_own_file() {
    let mut replies = make_greet();
    replies.push(Reply::Text("Made a greeter."));
    replies.extend([
        write("tools/greet/words.js", "my own words"),
        Reply::Text("Wrote mine."),
    ]);
    replies.extend([
        Reply::tool("file_read", json!({ "path": "tools/greet/words.js" })),
        Reply::Text("Read it."),
    ]);
    replies.push(Reply::Text("Hello again."));
    let (llm, _manager, app) = on_sandboxes(replies).await;
    let (bob, _, _) = app.register("bob@example.org").await;

    let first = app.new_session(&bob).await;
    app.turn(&bob, &first, "Make a greeter").await;
    let (status, kept) = keep(&app, &bob, &first, "greet").await;
    assert_eq!(status, StatusCode::CREATED, "{kept}");
    let one = format!("{TOOLBOX}/{}", kept["id"].as_str().unwrap());
    let enabled = |on: bool| Some(json!({ "enabled": on }));

    // Disabled while Bob's next chat writes its own file where the kept one was.
    app.expect(StatusCode::OK, Method::PATCH, &one, Some(&bob), enabled(false))
        .await;
    let second = app.new_session(&bob).await;
    app.turn(&bob, &second, "Write my words").await;
    app.expect(StatusCode::OK, Method::PATCH, &one, Some(&bob), enabled(true))
        .await;

    // Enabled again: refused in that chat, naming the file, which stays his.
    let refused = app.turn(&bob, &second, "Read my words").await;
    let told = errors(&refused);
    assert_eq!(told.len(), 1, "{refused:#?}");
    assert!(told[0].contains(IN_THE_WAY), "{told:?}");
    assert_eq!(offers_greet(&llm, 7), [false, false]);
    let read = last_result(&llm.requests()[8]);
    assert!(read.contains("my own words"), "{read}");

    // The next turn does not try it again: nothing told, nothing offered.
    let again = app.turn(&bob, &second, "Hello").await;
    assert_eq!(errors(&again), Vec::<String>::new(), "{again:#?}");
    assert_eq!(offers_greet(&llm, 9), [false]);
}
