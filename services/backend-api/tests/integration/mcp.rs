//! MCP tools: the published reference server (`server-everything`) over Streamable HTTP
//! gives the agent its tools under `mcp__<server>__<tool>`, with its descriptions and
//! schemas; calls come back as tool events the person sees (images inline) and as text
//! the model reads. Broken servers (nothing listening, a web page, no answer) are each
//! told once and cost the run neither its other tools nor its time; a call that outlasts
//! its time-out gives an error and the run goes on. What a server answers reaches the
//! model marked untrusted, and the secrets of its configuration (headers, the key in its
//! URL) reach neither the model nor the person, whatever the server or its client echoes.

use crate::support;

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use base64::Engine;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use support::fake_llm::{untrusted, FakeLlm, Reply};
use support::mcp_servers::{self, Everything};
use support::{borrowed, TestApp};

const WAIT: Duration = Duration::from_secs(30);

fn ended(e: &Value) -> bool {
    e["type"] == "status" && (e["status"] == "completed" || e["status"] == "failed")
}

/// A backend with the scripted model, the MCP servers of `config` and one more setting;
/// a person signed in and a fresh session.
async fn signed_in(
    llm: &FakeLlm,
    config: String,
    setting: (&'static str, &str),
) -> (TestApp, String, String) {
    let mut settings = llm.settings();
    settings.push(("mcp.config_file", config));
    settings.push((setting.0, setting.1.to_owned()));
    let app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    (app, token, id)
}

/// The `called` tool events among `events`.
fn called(events: &[Value]) -> Vec<&Value> {
    events
        .iter()
        .filter(|e| e["type"] == "tool" && e["status"] == "called")
        .collect()
}

/// The tool message answering the call named `name` in `request`.
fn answer_to<'a>(request: &'a Value, name: &str) -> &'a str {
    let messages = request["messages"].as_array().unwrap();
    let id = messages
        .iter()
        .flat_map(|m| m["tool_calls"].as_array().into_iter().flatten())
        .find(|c| c["function"]["name"] == name)
        .map(|c| c["id"].clone())
        .unwrap_or_else(|| panic!("no call of {name}"));
    messages
        .iter()
        .find(|m| m["role"] == "tool" && m["tool_call_id"] == id)
        .and_then(|m| m["content"].as_str())
        .unwrap_or_else(|| panic!("no answer to {name}"))
}

#[tokio::test]
async fn an_mcp_server_s_tools_are_offered_called_and_shown_and_broken_ones_are_told_once() {
    let everything = Everything::start().await;
    let (hanging, hung) = mcp_servers::hanging().await;
    let dir = tempfile::tempdir().unwrap();
    let config = mcp_servers::config_file(
        dir.path(),
        &[
            (
                "everything",
                json!({ "url": everything.url, "headers": { "Authorization": "Bearer not-shown-secret" } }),
            ),
            ("refusing", json!({ "url": mcp_servers::refusing() })),
            (
                "garbage",
                json!({ "type": "http", "url": mcp_servers::answering_garbage().await }),
            ),
            ("hanging", json!({ "url": hanging })),
            (
                "local",
                json!({ "command": "npx", "args": ["-y", "some-server"] }),
            ),
        ],
    );
    let llm = FakeLlm::start(vec![
        Reply::tool("mcp__everything__get-sum", json!({ "a": 2, "b": 3 })),
        Reply::tool("mcp__everything__get-tiny-image", json!({})),
        Reply::tool("mcp__everything__echo", json!(["not", "an", "object"])),
        Reply::Text("Done."),
        Reply::Text("Again."),
    ])
    .await;
    let (app, token, id) = signed_in(&llm, config, ("mcp.connect_timeout_secs", "2")).await;

    let started = Instant::now();
    let seq = app
        .post_message(&token, &id, "Add 2 and 3, then show the image")
        .await;
    let events = app.events(&token, &id, Some(seq)).await.until(WAIT, ended).await;
    assert_eq!(events.last().unwrap()["status"], "completed", "{events:#?}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "broken servers held the run up"
    );

    // Each broken server told once, by name and reason; the working one not at all.
    let errors: Vec<&str> = events
        .iter()
        .filter(|e| e["type"] == "error")
        .map(|e| e["message"].as_str().unwrap())
        .collect();
    assert_eq!(errors.len(), 4, "{errors:#?}");
    for name in ["refusing", "garbage", "hanging", "local"] {
        assert_eq!(
            errors.iter().filter(|m| m.contains(&format!("{name:?}"))).count(),
            1,
            "{name}: {errors:#?}"
        );
    }
    assert!(
        errors.iter().any(|m| m.contains("did not answer within 2 s")),
        "{errors:#?}"
    );
    assert!(errors.iter().any(|m| m.contains("text/html")), "{errors:#?}");
    assert!(
        errors
            .iter()
            .any(|m| m.contains("\"local\"") && m.contains("Could not get a sandbox")),
        "a stdio server needs the session's sandbox: {errors:#?}"
    );
    assert!(errors.iter().all(|m| !m.contains("rmcp::")), "{errors:#?}");

    // The model got the server's tools with their own descriptions and schemas.
    let requests = llm.requests();
    let offered = requests[0]["tools"].as_array().unwrap();
    let sum = offered
        .iter()
        .find(|t| t["function"]["name"] == "mcp__everything__get-sum")
        .expect("get-sum is offered");
    assert_eq!(sum["function"]["description"], "Returns the sum of two numbers");
    assert!(
        sum["function"]["parameters"]["properties"]["a"].is_object(),
        "{sum}"
    );
    assert!(offered
        .iter()
        .all(|t| !t["function"]["name"].as_str().unwrap().contains("hanging")));

    // What the person sees and what the model reads.
    let called = called(&events);
    assert_eq!(called.len(), 3);
    assert_eq!(called[0]["view"]["kind"], "mcp");
    assert_eq!(
        called[0]["view"]["content"][0]["text"],
        "The sum of 2 and 3 is 5."
    );
    assert_eq!(
        untrusted(answer_to(&requests[3], "mcp__everything__get-sum")),
        "The sum of 2 and 3 is 5."
    );
    let image = called[1]["view"]["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "image")
        .expect("the image is in the view");
    let data = image["src"]
        .as_str()
        .unwrap()
        .strip_prefix("data:image/png;base64,")
        .unwrap();
    let png = base64::engine::general_purpose::STANDARD.decode(data).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(answer_to(&requests[3], "mcp__everything__get-tiny-image").contains("image/png image"));
    assert_eq!(called[2]["view"]["kind"], "error");
    assert!(answer_to(&requests[3], "mcp__everything__echo").contains("must be a JSON object"));

    // A second turn of a new run reuses the cached lists: broken servers are told again
    // (a new run) but without waiting for them again.
    let seq = app.post_message(&token, &id, "Once more").await;
    app.events(&token, &id, Some(seq)).await.until(WAIT, ended).await;
    assert_eq!(
        hung.load(Ordering::SeqCst),
        1,
        "the hanging server was asked again"
    );

    // The servers as a person sees them: tools, reasons, and no secrets.
    let listed = app
        .expect(
            StatusCode::OK,
            Method::GET,
            "/api/v1/mcp/servers",
            Some(&token),
            None,
        )
        .await;
    let text = listed.to_string();
    assert!(!text.contains("not-shown"), "{text}");
    let servers = listed.as_array().unwrap();
    assert_eq!(servers.len(), 5);
    let everything_status = servers.iter().find(|s| s["name"] == "everything").unwrap();
    assert_eq!(everything_status["transport"], "http");
    assert!(everything_status.get("error").is_none());
    assert!(everything_status["tools"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["name"] == "get-sum"));
    let local = servers.iter().find(|s| s["name"] == "local").unwrap();
    assert_eq!(local["transport"], "stdio");
    assert_eq!(
        local["not_started"], true,
        "listed in sessions' sandboxes only: {local}"
    );
    assert!(local.get("error").is_none(), "{local}");
    app.expect(
        StatusCode::UNAUTHORIZED,
        Method::GET,
        "/api/v1/mcp/servers",
        None,
        None,
    )
    .await;
}

#[tokio::test]
async fn a_call_that_outlasts_its_time_out_gives_an_error_and_the_server_stays_usable() {
    let everything = Everything::start().await;
    let dir = tempfile::tempdir().unwrap();
    let config = mcp_servers::config_file(dir.path(), &[("everything", json!({ "url": everything.url }))]);
    let llm = FakeLlm::start(vec![
        Reply::tool(
            "mcp__everything__trigger-long-running-operation",
            json!({ "duration": 10, "steps": 5 }),
        ),
        Reply::tool("mcp__everything__get-sum", json!({ "a": 1, "b": 1 })),
        Reply::Text("Done."),
    ])
    .await;
    let (app, token, id) = signed_in(&llm, config, ("mcp.call_timeout_secs", "1")).await;
    let seq = app.post_message(&token, &id, "Run the long operation").await;
    let events = app.events(&token, &id, Some(seq)).await.until(WAIT, ended).await;
    assert_eq!(events.last().unwrap()["status"], "completed", "{events:#?}");
    let called = called(&events);
    assert_eq!(called[0]["view"]["kind"], "error");
    assert!(
        called[0]["view"]["message"]
            .as_str()
            .unwrap()
            .contains("did not answer within 1 s"),
        "{}",
        called[0]
    );
    assert_eq!(
        called[1]["view"]["content"][0]["text"],
        "The sum of 1 and 1 is 2."
    );
}

const HEADER_SECRET: &str = "sk-mcp-header-5f1e77";
const QUERY_SECRET: &str = "sk-mcp-query-8a2c31";

#[tokio::test]
async fn an_mcp_server_s_secrets_reach_neither_the_model_nor_the_person() {
    let echoing = mcp_servers::echoing().await;
    let dir = tempfile::tempdir().unwrap();
    let headers = json!({ "Authorization": format!("Bearer {HEADER_SECRET}"), "X-Api-Key": HEADER_SECRET });
    let config = mcp_servers::config_file(
        dir.path(),
        &[
            (
                "echoing",
                json!({ "url": format!("{echoing}?key={QUERY_SECRET}"), "headers": headers }),
            ),
            (
                "refusing",
                json!({ "url": format!("{}?key={QUERY_SECRET}", mcp_servers::refusing()), "headers": headers }),
            ),
        ],
    );
    let llm = FakeLlm::start(vec![
        Reply::tool("mcp__echoing__whoami", json!({})),
        Reply::tool("mcp__echoing__fail", json!({})),
        Reply::Text("Done."),
    ])
    .await;
    let (app, token, id) = signed_in(&llm, config, ("mcp.connect_timeout_secs", "2")).await;
    let seq = app.post_message(&token, &id, "Who am I to that server?").await;
    let events = app.events(&token, &id, Some(seq)).await.until(WAIT, ended).await;
    assert_eq!(events.last().unwrap()["status"], "completed", "{events:#?}");

    // The server echoed what it was sent, in a result and in an error; the model read
    // both marked untrusted, with the secrets blanked out.
    let requests = llm.requests();
    assert_eq!(requests.len(), 3, "{requests:#?}");
    let whoami = untrusted(answer_to(&requests[2], "mcp__echoing__whoami"));
    assert!(
        whoami.contains("You asked /mcp?key=[redacted]") && whoami.contains("authorization"),
        "{whoami}"
    );
    let fail = answer_to(&requests[2], "mcp__echoing__fail");
    assert!(
        fail.starts_with("The MCP server \"echoing\" gave no result; the reason:\n"),
        "{fail}"
    );
    assert!(untrusted(fail).contains("refused /mcp?key=[redacted]"), "{fail}");
    let refused = events
        .iter()
        .find(|e| e["type"] == "error" && e["message"].as_str().unwrap().contains("\"refusing\""))
        .expect("the refusing server is told");

    // No secret in anything the model was sent, nor in what the person can read. The
    // person's token and the model's key neither, for that matter.
    let listed = app
        .expect(
            StatusCode::OK,
            Method::GET,
            "/api/v1/mcp/servers",
            Some(&token),
            None,
        )
        .await;
    let sent = serde_json::to_string(&requests).unwrap();
    let seen = format!("{}{listed}", serde_json::to_string(&events).unwrap());
    for secret in [HEADER_SECRET, QUERY_SECRET] {
        assert!(!sent.contains(secret), "the model read {secret}: {sent}");
        assert!(!seen.contains(secret), "the person read {secret}: {seen}");
    }
    for secret in [token.as_str(), "test-key"] {
        assert!(!sent.contains(secret), "the model read {secret}");
    }
    assert!(
        refused["message"].as_str().unwrap().contains("could not connect"),
        "{refused}"
    );
}
