//! What the person sees of the sandbox tools whose answers have views of their own (a
//! folder's listing, found files, matched lines, the page's console and a script's value,
//! a fetched page): the real backend and a real sandbox, a scripted model, and each
//! `called` event's view checked against what the sandbox holds.
//!
//! Needs the Docker engine and the sandbox-manager binary, as `agent_sandbox` does.

use crate::support;

use std::time::Duration;

use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::manager::Manager;
use support::{borrowed, TestApp};

/// How long the run may take (it starts a container and the browser).
const WAIT: Duration = Duration::from_secs(180);

const PAGE: &str = "<title>Birds</title><p>The heron waits.</p>\
    <script>console.log('page loaded'); console.error('no seeds left')</script>";

/// Serves the workspace on port 8931 and returns once the port answers (a busy machine can
/// take seconds to start Python), or after 30 s.
const SERVE_PAGE: &str = "(python3 -m http.server 8931 --bind 127.0.0.1 >/dev/null 2>&1 &); \
    for _ in $(seq 300); do (exec 3<>/dev/tcp/127.0.0.1/8931) 2>/dev/null && break; sleep 0.1; done";

#[tokio::test]
async fn listings_matches_console_and_fetched_pages_have_typed_views() {
    let llm = FakeLlm::start(vec![
        Reply::tool(
            "file_write",
            json!({ "path": "notes/birds.txt", "content": "heron\nsandpiper\nplover\n" }),
        ),
        Reply::tool("file_write", json!({ "path": "page.html", "content": PAGE })),
        Reply::tool("file_list", json!({ "path": "." })),
        Reply::tool("file_find", json!({ "path": ".", "glob": "**/*.txt" })),
        Reply::tool("file_search", json!({ "path": ".", "regex": "sand|heron" })),
        Reply::tool(
            "browser_navigate",
            json!({ "url": "file:///home/sandbox/workspace/page.html" }),
        ),
        Reply::tool("browser_console_view", json!({})),
        Reply::tool(
            "browser_console_exec",
            json!({ "javascript": "({ title: document.title, n: 2 + 2 })" }),
        ),
        Reply::tool("browser_console_exec", json!({ "javascript": "missing.thing" })),
        Reply::tool("shell_exec", json!({ "command": SERVE_PAGE })),
        Reply::tool("web_fetch", json!({ "url": "http://127.0.0.1:8931/page.html" })),
        Reply::Text("Looked around."),
    ])
    .await;
    let manager = Manager::start();
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    let app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    app.post_message(&token, &id, "Look around the workspace").await;
    let events = stream
        .until(WAIT, |e| e["type"] == "status" && e["status"] != "running")
        .await;
    assert_eq!(events.last().unwrap()["status"], "completed", "{events:#?}");
    let view = |name: &str, nth: usize| -> Value {
        events
            .iter()
            .filter(|e| e["type"] == "tool" && e["status"] == "called" && e["name"] == name)
            .nth(nth)
            .unwrap_or_else(|| panic!("no {name} call: {events:#?}"))["view"]
            .clone()
    };

    let listing = view("file_list", 0);
    assert_eq!(listing["kind"], "listing", "{listing}");
    assert_eq!(listing["path"], "/home/sandbox/workspace");
    let entries: Vec<(&str, &str)> = listing["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap(), e["kind"].as_str().unwrap()))
        .collect();
    assert!(entries.contains(&("notes", "dir")), "{entries:?}");
    assert!(entries.contains(&("page.html", "file")), "{entries:?}");

    let found = view("file_find", 0);
    assert_eq!(found["kind"], "found", "{found}");
    assert_eq!(
        found["matches"],
        json!(["/home/sandbox/workspace/notes/birds.txt"])
    );

    let matches = view("file_search", 0);
    assert_eq!(matches["kind"], "matches", "{matches}");
    let lines: Vec<(&str, u64, &str)> = matches["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["path"].as_str().unwrap(),
                m["line"].as_u64().unwrap(),
                m["text"].as_str().unwrap(),
            )
        })
        .collect();
    let birds = "/home/sandbox/workspace/notes/birds.txt";
    assert!(lines.contains(&(birds, 1, "heron")), "{lines:?}");
    assert!(lines.contains(&(birds, 2, "sandpiper")), "{lines:?}");

    let console = view("browser_console_view", 0);
    assert_eq!(console["kind"], "console", "{console}");
    let said: Vec<(&str, &str)> = console["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["level"].as_str().unwrap(), m["text"].as_str().unwrap()))
        .collect();
    assert!(said.contains(&("log", "page loaded")), "{said:?}");
    assert!(said.contains(&("error", "no seeds left")), "{said:?}");

    let value = view("browser_console_exec", 0);
    assert_eq!(value["kind"], "evaluated", "{value}");
    assert_eq!(value["result"], json!({ "title": "Birds", "n": 4 }));
    let thrown = view("browser_console_exec", 1);
    assert_eq!(thrown["kind"], "evaluated", "{thrown}");
    assert!(
        thrown["exception"]
            .as_str()
            .unwrap_or_default()
            .contains("missing"),
        "{thrown}"
    );

    let fetched = view("web_fetch", 0);
    assert_eq!(fetched["kind"], "fetched", "{fetched}");
    assert_eq!(fetched["status"], 200);
    assert_eq!(fetched["title"], "Birds");
    assert!(
        fetched["text"].as_str().unwrap().contains("The heron waits."),
        "{fetched}"
    );
}
