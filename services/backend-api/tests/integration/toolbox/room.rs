//! Kept tools never take all of a chat's server places: of five kept tools, a new chat
//! gets three (the others told), and the agent's own `tool_register` there still works.

use serde_json::json;

use super::{keep, make_greet, on_sandboxes, GREET_PATH};
use crate::support::fake_llm::{tool_names, Reply};

fn register(name: &str) -> Reply {
    Reply::tool(
        "tool_register",
        json!({ "name": name, "command": "node", "args": [GREET_PATH] }),
    )
}

#[tokio::test]
async fn kept_tools_leave_the_agent_room_to_register() {
    let names = ["g2", "g3", "g4", "g5", "greet"];
    let mut replies = make_greet();
    replies.extend(names[..4].iter().map(|name| register(name)));
    replies.push(Reply::Text("Made five."));
    replies.extend([register("mine"), Reply::Text("Made mine.")]);
    let (llm, _manager, app) = on_sandboxes(replies).await;
    let (bob, _, _) = app.register("bob@example.org").await;
    let first = app.new_session(&bob).await;
    app.turn(&bob, &first, "Make five").await;
    for name in names {
        let (status, body) = keep(&app, &bob, &first, name).await;
        assert_eq!(status, reqwest::StatusCode::CREATED, "{name}: {body}");
    }

    let second = app.new_session(&bob).await;
    let events = app.turn(&bob, &second, "Make mine").await;
    let request = &llm.requests()[9];
    let kept = tool_names(request)
        .into_iter()
        .filter(|name| name.starts_with("mcp__"))
        .count();
    assert_eq!(kept, 3, "{:?}", tool_names(request));
    let told = events.iter().filter(|e| e["type"] == "error").count();
    assert_eq!(told, 2, "{events:#?}");
    let mine = events
        .iter()
        .find(|e| e["type"] == "tool" && e["status"] == "called" && e["name"] == "tool_register")
        .unwrap();
    assert!(mine["view"]["error"].is_null(), "{mine:#}");
}
