//! Managing servers: secret header values kept in, only admins, and bad input refused
//! with the field to fix.

use super::*;

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
