//! MCP servers the agent makes (`tool_register`), with the scripted model over the real
//! wire and a real sandbox: the agent writes a small server with the official MCP SDK
//! for Node (copied into the sandbox from the repository's `tests/mcp-servers`, as a
//! sandbox may not reach a package registry), registers it and calls its tool in the
//! same turn; a broken one's error reaches the model and the fixed one registers under
//! the same name; a later turn, after a restart, offers it again from the store and
//! starts it again in the sandbox; another person's chat is
//! never offered it, and calling it there is an unknown tool. Bad arguments (no name, a
//! bad name, an admin's server's name, a command that does not start, too many servers)
//! each reach the model with their reason, and so does a registered server that crashes
//! in a call (started again on the next).
//!
//! Needs the Docker engine, the sandbox image and the sandbox-manager binary, like
//! `mcp_sandbox`.

use crate::support;

use serde_json::{json, Value};
use support::fake_llm::{tool_names, FakeLlm, Reply};
use support::manager::Manager;
use support::mcp_servers::{config_file, packed_everything, upload, UNPACK_EVERYTHING};
use support::{borrowed, TestApp};

/// The server the agent writes with the official SDK: `add`, and `crash`, which ends it.
const CALC: &str = r#"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
const server = new McpServer({ name: "calc", version: "1.0.0" });
server.registerTool("add", { description: "Adds two numbers", inputSchema: { a: z.number(), b: z.number() } },
  async ({ a, b }) => ({ content: [{ type: "text", text: `sum=${a + b}` }] }));
server.registerTool("crash", { description: "Ends the server" }, async () => {
  process.stderr.write("crashed on purpose\n");
  process.exit(3);
});
await server.connect(new StdioServerTransport());
"#;

/// The same server with a mistake that ends it as it starts.
const BROKEN: &str = r#"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
throw new Error("calc is broken: no transport yet");
"#;

/// The tool results the model was sent in `request`, in order.
pub(crate) fn tool_results(request: &Value) -> Vec<String> {
    request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap_or_default().to_owned())
        .collect()
}

pub(crate) fn write(path: &str, content: &str) -> Reply {
    Reply::tool("file_write", json!({ "path": path, "content": content }))
}

fn register(name: &str, test: Option<Value>) -> Value {
    let mut args = json!({ "name": name, "command": "node", "args": ["mcp/calc.mjs"] });
    if let Some(test) = test {
        args["test"] = test;
    }
    args
}

pub(crate) fn called<'a>(events: &'a [Value], name: &str) -> Vec<&'a Value> {
    events
        .iter()
        .filter(|e| e["type"] == "tool" && e["status"] == "called" && e["name"] == name)
        .collect()
}

/// The backend with `llm`, a real sandbox-manager (running while the returned one lives)
/// and `more` settings, and Ada signed up with a session: her token and its id.
pub(crate) async fn with_sandbox(
    llm: &FakeLlm,
    more: Vec<(&'static str, String)>,
) -> (Manager, TestApp, String, String) {
    let manager = Manager::start();
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    settings.extend(more);
    let app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let session = app.new_session(&token).await;
    (manager, app, token, session)
}

#[tokio::test]
async fn a_server_the_agent_writes_is_registered_called_fixed_and_kept_for_its_session_only() {
    let add = json!({ "tool": "add", "arguments": { "a": 2, "b": 3 } });
    let llm = FakeLlm::start(vec![
        // A's first turn: unpack the SDK, write a broken server, register it (refused
        // with how it ended), fix it, register it again, call its tool.
        Reply::tool("shell_exec", json!({ "command": UNPACK_EVERYTHING })),
        write("mcp/calc.mjs", BROKEN),
        Reply::tool("tool_register", register("calc", Some(add.clone()))),
        write("mcp/calc.mjs", CALC),
        Reply::tool("tool_register", register("calc", Some(add))),
        Reply::tool("mcp__calc__add", json!({ "a": 20, "b": 22 })),
        Reply::Text("It adds."),
        // A's second turn: offered again, from the store, and started again.
        Reply::tool("mcp__calc__add", json!({ "a": 1, "b": 1 })),
        Reply::Text("Still adds."),
        // B's chat: never offered A's server; calling it is an unknown tool.
        Reply::tool("mcp__calc__add", json!({ "a": 1, "b": 2 })),
        Reply::Text("No such tool."),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let manager = Manager::start();
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    let mut app = TestApp::spawn(&borrowed(&settings)).await;
    let (a, _, _) = app.register("ada@example.org").await;
    let a_session = app.new_session(&a).await;
    upload(&app, &a, &a_session, "mcp.tar.gz", packed_everything(dir.path())).await;

    let first = app.turn(&a, &a_session, "Make yourself an adding tool").await;
    assert_eq!(first.last().unwrap()["status"], "completed", "{first:#?}");
    let registered = called(&first, "tool_register");
    assert_eq!(registered.len(), 2, "{first:#?}");
    let refused = &registered[0]["view"];
    assert_eq!(refused["kind"], "tool_register", "{refused}");
    assert_eq!(refused["tools"], json!([]));
    assert!(
        refused["error"].as_str().unwrap().contains("calc is broken"),
        "the person sees how it ended: {refused}"
    );
    let kept = &registered[1]["view"];
    assert_eq!(kept["error"], Value::Null, "{kept}");
    assert_eq!(kept["command"], "node");
    assert_eq!(kept["tools"][0]["name"], "mcp__calc__add", "{kept}");
    assert!(kept["test"].as_str().unwrap().contains("sum=5"), "{kept}");

    let requests = llm.requests();
    for (n, request) in requests.iter().enumerate().take(5) {
        assert!(
            !tool_names(request).contains(&"mcp__calc__add".to_owned()),
            "request {n} offers the tool before it was registered"
        );
    }
    assert!(tool_names(&requests[0]).contains(&"tool_register".to_owned()));
    let told = tool_results(&requests[3]);
    let broken = &told[2];
    assert!(
        broken.contains("was not registered") && broken.contains("calc is broken"),
        "the model reads why: {broken}"
    );
    assert!(
        tool_names(&requests[5]).contains(&"mcp__calc__add".to_owned()),
        "the next request of the same turn offers it: {:?}",
        tool_names(&requests[5])
    );
    let told = tool_results(&requests[5]);
    assert!(
        told[4].contains("mcp__calc__add") && told[4].contains("sum=5"),
        "{}",
        told[4]
    );
    let told = tool_results(&requests[6]);
    assert!(
        told[5].contains("sum=42"),
        "the call's result reaches the model: {}",
        told[5]
    );

    // A restart: the next turn's backend runs no server and reads the registration back.
    let data = app.take_data().unwrap();
    app.stop().await;
    let app = TestApp::spawn_on(data.path(), &borrowed(&settings)).await;
    let second = app.turn(&a, &a_session, "Add again").await;
    assert_eq!(second.last().unwrap()["status"], "completed", "{second:#?}");
    let requests = llm.requests();
    assert!(tool_names(&requests[7]).contains(&"mcp__calc__add".to_owned()));
    let sum = tool_results(&requests[8]).pop().unwrap();
    assert!(sum.contains("sum=2"), "{sum}");

    let (b, _, _) = app.register("grace@example.org").await;
    let b_session = app.new_session(&b).await;
    let other = app.turn(&b, &b_session, "Add for me").await;
    assert_eq!(other.last().unwrap()["status"], "completed", "{other:#?}");
    let requests = llm.requests();
    for request in &requests[9..] {
        assert!(
            !request["tools"].to_string().contains("mcp__calc"),
            "B is offered A's tool: {:?}",
            tool_names(request)
        );
    }
    let unknown = tool_results(&requests[10]).pop().unwrap();
    assert!(unknown.contains("no tool named mcp__calc__add"), "{unknown}");
}

#[tokio::test]
async fn bad_registrations_reach_the_model_with_their_reasons() {
    let mut replies = vec![
        Reply::tool("shell_exec", json!({ "command": UNPACK_EVERYTHING })),
        write("mcp/calc.mjs", CALC),
        Reply::tool("tool_register", json!({ "command": "node" })),
        Reply::tool("tool_register", register("a__b", None)),
        Reply::tool("tool_register", register("admins", None)),
        Reply::tool(
            "tool_register",
            json!({ "name": "ghost", "command": "no-such-program" }),
        ),
        Reply::tool(
            "tool_register",
            register("calc", Some(json!({ "tool": "subtract", "arguments": {} }))),
        ),
    ];
    for name in ["s1", "s2", "s3", "s4", "s5", "s6", "s1"] {
        replies.push(Reply::tool("tool_register", register(name, None)));
    }
    // A registered server that crashes in a call says how; the next call starts it again.
    replies.push(Reply::tool("mcp__s1__crash", json!({})));
    replies.push(Reply::tool("mcp__s1__add", json!({ "a": 1, "b": 1 })));
    replies.push(Reply::Text("Done."));
    let llm = FakeLlm::start(replies).await;
    let dir = tempfile::tempdir().unwrap();
    let config = config_file(
        dir.path(),
        &[(
            "admins",
            json!({ "url": "http://127.0.0.1:9/mcp", "disabled": true }),
        )],
    );
    let (_manager, app, token, session) = with_sandbox(&llm, vec![("mcp.config_file", config)]).await;
    upload(
        &app,
        &token,
        &session,
        "mcp.tar.gz",
        packed_everything(dir.path()),
    )
    .await;

    let events = app.turn(&token, &session, "Register some tools").await;
    assert_eq!(events.last().unwrap()["status"], "completed", "{events:#?}");
    let told = tool_results(llm.requests().last().unwrap());
    let expected = [
        (2, "missing field `name`"),
        (3, "no '__'"),
        (4, "a server the deployment configured"),
        (5, "did not start"),
        (6, "does not list"),
        (12, "at most 5 servers (s1, s2, s3, s4, s5)"),
    ];
    for (at, reason) in expected {
        assert!(
            told[at].contains(reason),
            "reply {at} lacks {reason:?}: {}",
            told[at]
        );
    }
    for at in [7, 8, 9, 10, 11, 13] {
        assert!(told[at].starts_with("Registered"), "reply {at}: {}", told[at]);
    }
    let crashed = &told[14];
    assert!(
        crashed.contains("fix it and call tool_register again")
            && crashed.contains("exited")
            && crashed.contains("crashed on purpose"),
        "the model reads how it ended: {crashed}"
    );
    assert!(told[15].contains("sum=2"), "started again: {}", told[15]);
    let last = &llm.requests().last().unwrap().clone();
    let offered = tool_names(last);
    for name in ["s1", "s2", "s3", "s4", "s5"] {
        let tool = format!("mcp__{name}__add");
        assert_eq!(
            offered.iter().filter(|t| **t == tool).count(),
            1,
            "{tool}: {offered:?}"
        );
    }
    assert!(!offered
        .iter()
        .any(|t| t.starts_with("mcp__s6__") || t.starts_with("mcp__calc__")));
}

#[tokio::test]
async fn only_a_chat_s_own_run_is_offered_tool_register() {
    const TASK: &str = "Sub-task: add 1 and 2";
    let llm = FakeLlm::start(vec![
        Reply::tool("delegate", json!({ "task": TASK })),
        Reply::Text("Done."),
        Reply::Text("Job done."),
    ])
    .await;
    llm.route(TASK, vec![Reply::Text("3")]);
    let app = TestApp::spawn(&borrowed(&llm.settings())).await;
    let (ada, _, _) = app.register("ada@example.org").await;
    let chat = app.new_session(&ada).await;
    app.turn(&ada, &chat, "Delegate it").await;
    let key = app.jobs_key(&ada).await;
    let job = app.create_job(&key, json!({ "prompt": "Add" })).await;
    app.until_job(&key, job["id"].as_str().unwrap(), "succeeded")
        .await;

    let requests = llm.requests();
    let offered = |request: &Value| tool_names(request).contains(&"tool_register".to_owned());
    assert!(
        offered(&requests[0]),
        "the chat's own run: {:?}",
        tool_names(&requests[0])
    );
    let sub = requests
        .iter()
        .position(|r| r["messages"][1]["content"].as_str() == Some(TASK))
        .expect("the sub-agent asked the model");
    assert!(
        !offered(&requests[sub]),
        "a sub-agent: {:?}",
        tool_names(&requests[sub])
    );
    let job_request = requests.last().unwrap();
    assert!(!offered(job_request), "a job: {:?}", tool_names(job_request));
}
