//! The tool box (`/api/v1/toolbox`), with the scripted model over the real wire, a real
//! sandbox and the suite's stores: a tool the agent registered is kept by its person
//! (its folder's files copied from the sandbox, hidden ones left out), reaches their next
//! chat (its files written into that chat's sandbox, registered, called there), never
//! another person's chat, where its id is not found on any route; only an admin
//! publishes it, and then it reaches the other person's chat too; disabled, it reaches
//! no new chat of its person; deleted, it is gone. A chat's registered servers are
//! listed for its person only. `input` checks bad keeps, and
//! `sessions` that deleting a chat removes its registrations.
//!
//! The server is plain Node.js (no SDK), so a later chat's sandbox runs it without
//! anything unpacked first. Needs the Docker engine, the sandbox image and the
//! sandbox-manager binary, like `tool_register`.

mod dropped;
mod input;
mod races;
mod room;
mod sessions;
mod write_back;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::fake_llm::{tool_names, FakeLlm, Reply};
use crate::support::manager::Manager;
use crate::support::{borrowed, TestApp};

/// The toolbox routes.
const TOOLBOX: &str = "/api/v1/toolbox";

/// Where [`GREET_SERVER`] is written, relative to the workspace.
const GREET_PATH: &str = "tools/greet/server.js";

/// A dependency-free MCP stdio server with one tool, `greet`, whose words come from
/// [`GREET_WORDS`] in the same folder.
const GREET_SERVER: &str = r#"
const { greeting } = require("./words.js");
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return;
  if (method === "initialize") {
    const serverInfo = { name: "greet", version: "1.0.0" };
    send({ id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo } });
  } else if (method === "tools/list") {
    const tool = { name: "greet", description: "Greets someone",
                   inputSchema: { type: "object", properties: { name: { type: "string" } } } };
    send({ id, result: { tools: [tool] } });
  } else if (method === "tools/call") {
    send({ id, result: { content: [{ type: "text", text: greeting(params.arguments.name) }] } });
  } else {
    send({ id, error: { code: -32601, message: "unknown method" } });
  }
});
"#;

const GREET_WORDS: &str = r#"exports.greeting = (name) => `kept-hello, ${name}`;"#;

/// The agent's steps that write the greet server (and a hidden file beside it) and
/// register it.
/// A backend on the real sandbox-manager whose scripted model answers `replies` (the
/// manager lives as long as what is returned).
async fn on_sandboxes(replies: Vec<Reply>) -> (FakeLlm, Manager, TestApp) {
    let llm = FakeLlm::start(replies).await;
    let manager = Manager::start();
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    let app = TestApp::spawn(&borrowed(&settings)).await;
    (llm, manager, app)
}

fn make_greet() -> Vec<Reply> {
    vec![
        write("tools/greet/words.js", GREET_WORDS),
        write("tools/greet/.draft", "not kept"),
        write(GREET_PATH, GREET_SERVER),
        Reply::tool(
            "tool_register",
            json!({ "name": "greet", "command": "node", "args": [GREET_PATH] }),
        ),
    ]
}

fn write(path: &str, content: &str) -> Reply {
    Reply::tool("file_write", json!({ "path": path, "content": content }))
}

fn greet(name: &str) -> Reply {
    Reply::tool("mcp__greet__greet", json!({ "name": name }))
}

/// The last tool result the model was sent in `request`.
fn last_result(request: &Value) -> String {
    let messages = request["messages"].as_array().unwrap();
    let tool = messages.iter().rev().find(|m| m["role"] == "tool").unwrap();
    tool["content"].as_str().unwrap_or_default().to_owned()
}

/// Keeps the chat's tool `name` for the person of `token`: the answer's status and body.
async fn keep(app: &TestApp, token: &str, session: &str, name: &str) -> (StatusCode, Value) {
    let body = json!({ "session_id": session, "name": name });
    let response = app.call(Method::POST, TOOLBOX, Some(token), Some(body)).await;
    let status = response.status();
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {status} {text}"));
    (status, body)
}

/// Each request from `from` on offers, or (`offered` false) never offers, the kept tool.
fn offers_greet(llm: &FakeLlm, from: usize) -> Vec<bool> {
    let requests = llm.requests();
    requests[from..]
        .iter()
        .map(|request| tool_names(request).contains(&"mcp__greet__greet".to_owned()))
        .collect()
}

#[tokio::test]
async fn a_kept_tool_reaches_its_person_s_next_chats_and_only_theirs_until_published() {
    let mut replies = make_greet();
    replies.push(Reply::Text("Made a greeter."));
    replies.extend([greet("Bob"), Reply::Text("Greeted Bob.")]);
    replies.extend([greet("Carol"), Reply::Text("No such tool.")]);
    replies.extend([greet("Carol"), Reply::Text("Greeted Carol.")]);
    replies.push(Reply::Text("Nothing kept here."));
    let llm = FakeLlm::start(replies).await;
    let manager = crate::support::manager::Manager::start();
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    let app = TestApp::spawn(&crate::support::borrowed(&settings)).await;
    let (ada, _, _) = app.register("ada@example.org").await; // the first: an admin
    let (bob, _, _) = app.register("bob@example.org").await;
    let (carol, _, _) = app.register("carol@example.org").await;

    // Bob's first chat: the agent makes the tool; Bob keeps it.
    let first = app.new_session(&bob).await;
    let made = app.turn(&bob, &first, "Make a greeter").await;
    assert_eq!(made.last().unwrap()["status"], "completed", "{made:#?}");
    let (status, kept) = keep(&app, &bob, &first, "greet").await;
    assert_eq!(status, StatusCode::CREATED, "{kept}");
    let files: Vec<&str> = kept["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        [
            "/home/sandbox/workspace/tools/greet/server.js",
            "/home/sandbox/workspace/tools/greet/words.js"
        ],
        "the script's folder, the hidden file left out: {kept}"
    );
    assert!(kept["files"][1]["content"]
        .as_str()
        .unwrap()
        .contains("kept-hello"));
    assert_eq!(kept["tools"][0]["name"], "mcp__greet__greet");
    assert_eq!(
        (kept["enabled"].clone(), kept["published"].clone()),
        (json!(true), json!(false))
    );
    let id = kept["id"].as_str().unwrap().to_owned();
    let one = format!("{TOOLBOX}/{id}");
    // The chat's Tools tab: its server, where its source is, and that Bob keeps it.
    let registered = format!("/api/v1/sessions/{first}/registered-tools");
    let listed = app
        .expect(StatusCode::OK, Method::GET, &registered, Some(&bob), None)
        .await;
    assert_eq!(listed[0]["sources"], json!([GREET_PATH]), "{listed}");
    assert_eq!(listed[0]["kept_id"], id.as_str(), "{listed}");
    app.expect(
        StatusCode::NOT_FOUND,
        Method::GET,
        &registered,
        Some(&carol),
        None,
    )
    .await;

    // Bob's next chat: offered from its first request, and called in its sandbox.
    let second = app.new_session(&bob).await;
    let used = app.turn(&bob, &second, "Greet me").await;
    assert_eq!(used.last().unwrap()["status"], "completed", "{used:#?}");
    assert_eq!(offers_greet(&llm, 5), [true, true]);
    let greeted = last_result(&llm.requests()[6]);
    assert!(greeted.contains("kept-hello, Bob"), "{greeted}");

    // Carol's chat: never offered; calling it is an unknown tool.
    let carols = app.new_session(&carol).await;
    app.turn(&carol, &carols, "Greet me").await;
    assert_eq!(offers_greet(&llm, 7), [false, false]);
    assert!(last_result(&llm.requests()[8]).contains("no tool named mcp__greet__greet"));

    // Bob's id is not Carol's on any route; publishing is for admins only.
    let (patch, enable) = (Method::PATCH, Some(json!({ "enabled": false })));
    for (method, body) in [(Method::GET, None), (patch, enable), (Method::DELETE, None)] {
        let refused = app
            .expect(StatusCode::NOT_FOUND, method, &one, Some(&carol), body)
            .await;
        assert_eq!(refused["error"]["code"], "not_found", "{refused}");
    }
    let publish = format!("{one}/publish");
    let read_at = |tool: &Value| Some(json!({ "kept_at": tool["kept_at"] }));
    for token in [&carol, &bob] {
        for (method, body) in [(Method::POST, read_at(&kept)), (Method::DELETE, None)] {
            let refused = app
                .expect(StatusCode::FORBIDDEN, method, &publish, Some(token), body)
                .await;
            assert_eq!(refused["error"]["code"], "forbidden", "{refused}");
        }
    }
    let theirs = app
        .expect(StatusCode::OK, Method::GET, TOOLBOX, Some(&carol), None)
        .await;
    assert_eq!(theirs, json!([]));
    let everyone = format!("{TOOLBOX}?everyone=true");
    app.expect(StatusCode::FORBIDDEN, Method::GET, &everyone, Some(&carol), None)
        .await;

    // The admin reads its code, then publishes it: Carol's next chat gets it.
    let all = app
        .expect(StatusCode::OK, Method::GET, &everyone, Some(&ada), None)
        .await;
    assert_eq!(all[0]["id"], id.as_str(), "{all}");
    let read = app
        .expect(StatusCode::OK, Method::GET, &one, Some(&ada), None)
        .await;
    assert!(read["files"][0]["content"]
        .as_str()
        .unwrap()
        .contains("tools/list"));
    let unknown = format!("{TOOLBOX}/{}/publish", uuid::Uuid::new_v4());
    app.expect(
        StatusCode::NOT_FOUND,
        Method::POST,
        &unknown,
        Some(&ada),
        read_at(&read),
    )
    .await;
    // Bob keeps it anew after Ada read it: what she read is not what would be published.
    let (status, anew) = keep(&app, &bob, &first, "greet").await;
    assert_eq!(
        (status, anew["id"].as_str()),
        (StatusCode::CREATED, Some(id.as_str()))
    );
    let stale = app
        .expect(
            StatusCode::CONFLICT,
            Method::POST,
            &publish,
            Some(&ada),
            read_at(&read),
        )
        .await;
    assert_eq!(stale["error"]["code"], "conflict", "{stale}");
    let no_time = Some(json!({}));
    app.expect(
        StatusCode::UNPROCESSABLE_ENTITY,
        Method::POST,
        &publish,
        Some(&ada),
        no_time,
    )
    .await;
    let read = app
        .expect(StatusCode::OK, Method::GET, &one, Some(&ada), None)
        .await;
    let published = app
        .expect(StatusCode::OK, Method::POST, &publish, Some(&ada), read_at(&read))
        .await;
    assert_eq!(published["published"], true);
    let carols = app.new_session(&carol).await;
    app.turn(&carol, &carols, "Greet me now").await;
    assert_eq!(offers_greet(&llm, 9), [true, true]);
    assert!(last_result(&llm.requests()[10]).contains("kept-hello, Carol"));

    // Disabled by Bob: his next chat does not get it (his own published one neither).
    let body = Some(json!({ "enabled": false }));
    let disabled = app
        .expect(StatusCode::OK, Method::PATCH, &one, Some(&bob), body)
        .await;
    assert_eq!(disabled["enabled"], false);
    let third = app.new_session(&bob).await;
    app.turn(&bob, &third, "Hello").await;
    assert_eq!(offers_greet(&llm, 11), [false]);

    // Deleted: gone from his tool box.
    app.expect(StatusCode::NO_CONTENT, Method::DELETE, &one, Some(&bob), None)
        .await;
    app.expect(StatusCode::NOT_FOUND, Method::GET, &one, Some(&bob), None)
        .await;
    let left = app
        .expect(StatusCode::OK, Method::GET, TOOLBOX, Some(&bob), None)
        .await;
    assert_eq!(left, json!([]));
}
