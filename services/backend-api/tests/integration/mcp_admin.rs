//! The admin's MCP servers (`/api/v1/admin/mcp/servers`): a server an admin adds gives
//! the next run its tools, a change reaches the run after it (a failure cached for the
//! old address is forgotten) and a disabled server is left out; header values never
//! appear in an answer, and an edit keeps those it does not replace; a stdio server takes
//! no environment (`mcp_sandbox` shows why), here or from the file; only
//! admins manage servers; bad input names the field to fix; the `MCP_CONFIG` file seeds
//! each server once, so an admin's changes and deletions survive restarts.

use crate::support;

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::mcp_servers::{self, Everything};
use support::{borrowed, TestApp};

const SERVERS: &str = "/api/v1/admin/mcp/servers";

fn server(name: &str) -> String {
    format!("{SERVERS}/{name}")
}

/// Posts a message and returns the turn's events, up to its end.
async fn turn(app: &TestApp, token: &str, session: &str, message: &str) -> Vec<Value> {
    let seq = app.post_message(token, session, message).await;
    let ended = |e: &Value| e["type"] == "status" && (e["status"] == "completed" || e["status"] == "failed");
    let events = app
        .events(token, session, Some(seq))
        .await
        .until(Duration::from_secs(30), ended)
        .await;
    assert_eq!(events.last().unwrap()["status"], "completed", "{events:#?}");
    events
}

/// The names of the MCP tools a model request offered.
fn mcp_tools(request: &Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["function"]["name"].as_str())
        .filter(|name| name.starts_with("mcp__"))
        .map(str::to_owned)
        .collect()
}

fn errors(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .filter(|e| e["type"] == "error")
        .map(|e| e["message"].as_str().unwrap())
        .collect()
}

/// The answer's status and raw body, for checks on exactly what was sent.
async fn raw(
    app: &TestApp,
    method: Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (StatusCode, String) {
    let response = app.call(method, path, Some(token), body).await;
    (response.status(), response.text().await.unwrap())
}

/// The servers as the admin list gives them, by name.
async fn listed(app: &TestApp, admin: &str) -> Vec<Value> {
    let list = app
        .expect(StatusCode::OK, Method::GET, SERVERS, Some(admin), None)
        .await;
    list.as_array().unwrap().clone()
}

fn named<'a>(servers: &'a [Value], name: &str) -> Option<&'a Value> {
    servers.iter().find(|s| s["name"] == name)
}

#[tokio::test]
async fn an_admin_s_server_reaches_the_next_run_and_its_changes_the_one_after() {
    let everything = Everything::start().await;
    let llm = FakeLlm::start(vec![
        Reply::Text("It has no tools for me."),
        Reply::tool("mcp__everything__get-sum", json!({ "a": 2, "b": 3 })),
        Reply::Text("It is 5."),
        Reply::Text("Its tools are gone."),
    ])
    .await;
    let app = TestApp::spawn(&borrowed(&llm.settings())).await;
    let (admin, _, _) = app.register("ada@example.org").await;
    let session = app.new_session(&admin).await;

    // Added with an address where nothing listens: the run says so and goes on.
    let added = app
        .expect(
            StatusCode::CREATED,
            Method::POST,
            SERVERS,
            Some(&admin),
            Some(json!({ "name": "everything", "transport": "http", "url": mcp_servers::refusing() })),
        )
        .await;
    assert_eq!(added["enabled"], true);
    let events = turn(&app, &admin, &session, "Add 2 and 3").await;
    let told = errors(&events);
    assert!(told.len() == 1 && told[0].contains("\"everything\""), "{told:#?}");
    assert_eq!(mcp_tools(&llm.requests()[0]), Vec::<String>::new());

    // Pointed at the real server, the next turn has its tools at once: the failure
    // cached for the old address went with it.
    app.expect(
        StatusCode::OK,
        Method::PATCH,
        &server("everything"),
        Some(&admin),
        Some(json!({ "url": everything.url })),
    )
    .await;
    let events = turn(&app, &admin, &session, "Add 2 and 3 again").await;
    assert_eq!(errors(&events), Vec::<&str>::new());
    assert!(mcp_tools(&llm.requests()[1]).contains(&"mcp__everything__get-sum".to_owned()));
    let called: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "tool" && e["status"] == "called")
        .collect();
    assert_eq!(
        called[0]["view"]["content"][0]["text"],
        "The sum of 2 and 3 is 5."
    );

    // Disabled: the next turn neither offers its tools nor mentions it, and people no
    // longer see it among the servers.
    let disabled = app
        .expect(
            StatusCode::OK,
            Method::PATCH,
            &server("everything"),
            Some(&admin),
            Some(json!({ "enabled": false })),
        )
        .await;
    assert_eq!(disabled["enabled"], false);
    assert_eq!(disabled["url"], everything.url.as_str());
    let events = turn(&app, &admin, &session, "And now?").await;
    assert_eq!(errors(&events), Vec::<&str>::new());
    assert_eq!(mcp_tools(&llm.requests()[3]), Vec::<String>::new());
    let shown = app
        .expect(
            StatusCode::OK,
            Method::GET,
            "/api/v1/mcp/servers",
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(shown, json!([]));
}

#[tokio::test]
async fn secret_values_never_leave_the_backend_and_an_edit_keeps_those_it_does_not_replace() {
    let (url, received) = mcp_servers::recording_garbage().await;
    let app = TestApp::spawn(&[]).await;
    let (admin, _, _) = app.register("ada@example.org").await;
    let mut answers = Vec::new();
    for (method, path, body) in [
        (
            Method::POST,
            SERVERS.to_owned(),
            json!({ "name": "remote", "transport": "http", "url": url,
                    "headers": { "Authorization": "Bearer secret-1", "X-Team": "secret-2" } }),
        ),
        (
            Method::POST,
            SERVERS.to_owned(),
            json!({ "name": "local", "transport": "stdio", "command": "npx", "args": ["-y", "server"],
                    "env": {} }),
        ),
        // Replaced, kept and dropped keys.
        (
            Method::PATCH,
            server("remote"),
            json!({ "headers": { "Authorization": null, "X-Extra": "secret-4" } }),
        ),
        (
            Method::PATCH,
            server("local"),
            json!({ "enabled": false, "env": { "API_KEY": "secret-3" } }),
        ),
        // Refused, with a secret in the request: the error does not repeat it.
        (
            Method::POST,
            SERVERS.to_owned(),
            json!({ "name": "bad", "transport": "http", "url": url, "headers": { "K": "secret-5\u{7}" } }),
        ),
        (
            Method::PATCH,
            server("remote"),
            json!({ "headers": { "Unknown": null, "Authorization": "secret-6" } }),
        ),
    ] {
        answers.push(raw(&app, method, &path, &admin, Some(body)).await);
    }
    let statuses: Vec<u16> = answers.iter().map(|(status, _)| status.as_u16()).collect();
    assert_eq!(statuses, [201, 201, 200, 422, 422, 422], "{answers:#?}");
    answers.push(raw(&app, Method::GET, SERVERS, &admin, None).await);
    // Asking for the servers' tools connects to `remote`, with its headers.
    answers.push(raw(&app, Method::GET, "/api/v1/mcp/servers", &admin, None).await);
    for (_, body) in &answers {
        assert!(!body.contains("secret-"), "{body}");
    }

    let servers: Vec<Value> = serde_json::from_str(&answers[6].1).unwrap();
    let remote = named(&servers, "remote").unwrap();
    assert_eq!(remote["header_names"], json!(["Authorization", "X-Extra"]));
    let local = named(&servers, "local").unwrap();
    assert_eq!(local["env_names"], json!([]));
    assert_eq!(local["enabled"], true, "the refused change changed nothing");
    assert_eq!(local["args"], json!(["-y", "server"]));

    // The kept value is the one sent; the dropped header is not sent.
    let sent = received
        .lock()
        .unwrap()
        .last()
        .cloned()
        .expect("remote was asked");
    assert_eq!(sent["authorization"], "Bearer secret-1");
    assert_eq!(sent["x-extra"], "secret-4");
    assert!(sent.get("x-team").is_none());
}

#[tokio::test]
async fn only_admins_manage_mcp_servers() {
    let app = TestApp::spawn(&[]).await;
    let (admin, _, _) = app.register("ada@example.org").await;
    let (person, _, _) = app.register("bob@example.org").await;
    let new = |name: &str| json!({ "name": name, "transport": "http", "url": "http://127.0.0.1:1/mcp" });
    app.expect(
        StatusCode::CREATED,
        Method::POST,
        SERVERS,
        Some(&admin),
        Some(new("s")),
    )
    .await;
    for (method, path, body) in [
        (Method::GET, SERVERS.to_owned(), None),
        (Method::POST, SERVERS.to_owned(), Some(new("t"))),
        (Method::PATCH, server("s"), Some(json!({ "enabled": false }))),
        (Method::DELETE, server("s"), None),
    ] {
        let refused = app
            .expect(
                StatusCode::FORBIDDEN,
                method.clone(),
                &path,
                Some(&person),
                body.clone(),
            )
            .await;
        assert_eq!(refused["error"]["code"], "forbidden");
        app.expect(StatusCode::UNAUTHORIZED, method, &path, None, body)
            .await;
    }
    let servers = listed(&app, &admin).await;
    assert_eq!(servers.len(), 1);
    assert_eq!(servers[0]["enabled"], true);

    // The routes are in the OpenAPI document.
    let doc = app
        .expect(StatusCode::OK, Method::GET, "/openapi.json", None, None)
        .await;
    let paths = &doc["paths"];
    for method in ["get", "post"] {
        assert!(paths[SERVERS][method].is_object(), "{method} {SERVERS}");
    }
    for method in ["patch", "delete"] {
        assert!(
            paths["/api/v1/admin/mcp/servers/{name}"][method].is_object(),
            "{method}"
        );
    }
}

#[tokio::test]
async fn bad_input_is_refused_with_the_field_to_fix() {
    let app = TestApp::spawn(&[]).await;
    let (admin, _, _) = app.register("ada@example.org").await;
    let http = |fields: Value| {
        let mut body = json!({ "name": "s", "transport": "http", "url": "http://127.0.0.1:1/mcp" });
        body.as_object_mut()
            .unwrap()
            .extend(fields.as_object().unwrap().clone());
        body
    };
    app.expect(
        StatusCode::CREATED,
        Method::POST,
        SERVERS,
        Some(&admin),
        Some(http(json!({}))),
    )
    .await;

    let not_json = app
        .http
        .post(format!("{}{SERVERS}", app.base))
        .bearer_auth(&admin)
        .header("content-type", "application/json")
        .body("{\"name\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), StatusCode::BAD_REQUEST);
    let body: Value = not_json.json().await.unwrap();
    assert_eq!(body["error"]["code"], "malformed_request");

    for (method, path, body, field) in [
        (
            Method::POST,
            SERVERS.to_owned(),
            json!({ "transport": "http", "url": "http://h" }),
            "name",
        ),
        (
            Method::POST,
            SERVERS.to_owned(),
            http(json!({ "name": "no spaces" })),
            "name",
        ),
        (
            Method::POST,
            SERVERS.to_owned(),
            json!({ "name": "t", "url": "http://h" }),
            "transport",
        ),
        (
            Method::POST,
            SERVERS.to_owned(),
            http(json!({ "name": "t", "url": "ftp://h/mcp" })),
            "url",
        ),
        (
            Method::POST,
            SERVERS.to_owned(),
            http(json!({ "name": "t", "headers": { "a b": "v" } })),
            "headers",
        ),
        (
            Method::POST,
            SERVERS.to_owned(),
            http(json!({ "name": "t", "command": "x" })),
            "command",
        ),
        (
            Method::POST,
            SERVERS.to_owned(),
            json!({ "name": "t", "transport": "stdio", "command": " " }),
            "command",
        ),
        (
            Method::POST,
            SERVERS.to_owned(),
            json!({ "name": "t", "transport": "stdio", "command": "x", "env": { "KEY": "v" } }),
            "env",
        ),
        (
            Method::POST,
            SERVERS.to_owned(),
            json!({ "name": "t", "transport": "stdio", "command": "./server" }),
            "command",
        ),
        (
            Method::PATCH,
            server("s"),
            json!({ "transport": "stdio" }),
            "transport",
        ),
        (Method::PATCH, server("s"), json!({ "name": "renamed" }), "name"),
        (Method::PATCH, server("s"), json!({ "url": "nowhere" }), "url"),
    ] {
        let refused = app
            .expect(
                StatusCode::UNPROCESSABLE_ENTITY,
                method,
                &path,
                Some(&admin),
                Some(body.clone()),
            )
            .await;
        assert_eq!(refused["error"]["code"], "invalid", "{body}");
        assert_eq!(refused["error"]["field"], field, "{body}: {refused}");
        assert!(
            refused["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{field}: ")),
            "{refused}"
        );
    }
    // What does not fit the shape at all is named by the JSON reader.
    for (body, says) in [
        (http(json!({ "name": "t", "colour": "red" })), "colour"),
        (http(json!({ "name": "t", "transport": "ftp" })), "transport"),
        (http(json!({ "name": "t", "args": "-y" })), "args"),
    ] {
        let refused = app
            .expect(
                StatusCode::UNPROCESSABLE_ENTITY,
                Method::POST,
                SERVERS,
                Some(&admin),
                Some(body),
            )
            .await;
        assert!(
            refused["error"]["message"].as_str().unwrap().contains(says),
            "{refused}"
        );
    }

    let taken = app
        .expect(
            StatusCode::CONFLICT,
            Method::POST,
            SERVERS,
            Some(&admin),
            Some(http(json!({}))),
        )
        .await;
    assert_eq!(taken["error"]["code"], "conflict");
    for (method, path) in [
        (Method::PATCH, server("missing")),
        (Method::PATCH, server("not%20a%20name")),
        (Method::DELETE, server("missing")),
    ] {
        let body = (method == Method::PATCH).then(|| json!({ "enabled": false }));
        app.expect(StatusCode::NOT_FOUND, method, &path, Some(&admin), body)
            .await;
    }
    // Nothing refused was stored or changed.
    let servers = listed(&app, &admin).await;
    assert_eq!(servers.len(), 1);
    assert_eq!(servers[0]["url"], "http://127.0.0.1:1/mcp");
    assert_eq!(servers[0]["enabled"], true);
}

#[tokio::test]
async fn the_file_seeds_each_server_once_and_admin_changes_survive_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let write = |extra: &[(&str, Value)]| {
        let mut servers = vec![
            ("changed", json!({ "url": "http://127.0.0.1:1/from-file" })),
            ("deleted", json!({ "command": "npx", "args": ["-y", "server"] })),
            (
                "off",
                json!({ "url": "http://127.0.0.1:2/mcp", "disabled": true }),
            ),
        ];
        servers.extend(extra.iter().cloned());
        mcp_servers::config_file(dir.path(), &servers)
    };
    let settings = [("mcp.config_file", write(&[]))];
    let mut first = TestApp::spawn(&borrowed(&settings)).await;
    let (admin, _, _) = first.register("ada@example.org").await;
    let servers = listed(&first, &admin).await;
    let names: Vec<(&str, bool)> = servers
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["enabled"].as_bool().unwrap()))
        .collect();
    assert_eq!(names, [("changed", true), ("deleted", true), ("off", false)]);
    assert_eq!(named(&servers, "deleted").unwrap()["transport"], "stdio");

    first
        .expect(
            StatusCode::OK,
            Method::PATCH,
            &server("changed"),
            Some(&admin),
            Some(json!({ "url": "http://127.0.0.1:1/by-admin" })),
        )
        .await;
    first
        .expect(
            StatusCode::NO_CONTENT,
            Method::DELETE,
            &server("deleted"),
            Some(&admin),
            None,
        )
        .await;
    first
        .expect(
            StatusCode::CREATED,
            Method::POST,
            SERVERS,
            Some(&admin),
            Some(json!({ "name": "mine", "transport": "http", "url": "http://127.0.0.1:3/by-admin" })),
        )
        .await;

    // The file now also names the admin's server and a new one.
    write(&[
        ("mine", json!({ "url": "http://127.0.0.1:3/from-file" })),
        ("new", json!({ "url": "http://127.0.0.1:4/mcp" })),
    ]);
    let data = first.take_data().unwrap();
    first.stop().await;
    let mut second = TestApp::spawn_on(data.path(), &borrowed(&settings)).await;
    let servers = listed(&second, &admin).await;
    let urls: Vec<(&str, &str, bool)> = servers
        .iter()
        .map(|s| {
            let url = s["url"].as_str().unwrap();
            (s["name"].as_str().unwrap(), url, s["enabled"].as_bool().unwrap())
        })
        .collect();
    assert_eq!(
        urls,
        [
            ("changed", "http://127.0.0.1:1/by-admin", true),
            ("mine", "http://127.0.0.1:3/by-admin", true),
            ("new", "http://127.0.0.1:4/mcp", true),
            ("off", "http://127.0.0.1:2/mcp", false),
        ]
    );

    // The admin's own server, once the file has named it, is not brought back either.
    second
        .expect(
            StatusCode::NO_CONTENT,
            Method::DELETE,
            &server("mine"),
            Some(&admin),
            None,
        )
        .await;
    second.stop().await;
    let third = TestApp::spawn_on(data.path(), &borrowed(&settings)).await;
    let names: Vec<String> = listed(&third, &admin)
        .await
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["changed", "new", "off"]);
}

#[tokio::test]
async fn a_file_giving_a_stdio_server_an_environment_stops_the_start_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let config = mcp_servers::config_file(
        dir.path(),
        &[(
            "keyed",
            json!({ "command": "npx", "args": ["-y", "server"], "env": { "API_KEY": "secret-7" } }),
        )],
    );
    let data = tempfile::tempdir().unwrap();
    let settings = support::settings(data.path(), &[("mcp.config_file", &config)]);
    let Err(err) = backend_api::Application::build(settings).await else {
        panic!("the server started with a stdio server's environment in MCP_CONFIG");
    };
    let message = format!("{err:#}");
    assert!(
        message.contains("MCP_CONFIG")
            && message.contains("server \"keyed\": env: ")
            && message.contains("API_KEY"),
        "{message}"
    );
    assert!(!message.contains("secret-7"), "{message}");
}
