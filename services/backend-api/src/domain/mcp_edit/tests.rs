//! The rules for adding and changing MCP servers, each mistake named by its field.

use super::*;

fn input(json: serde_json::Value) -> McpServerInput {
    serde_json::from_value(json).unwrap()
}

fn field_of(err: DomainError) -> &'static str {
    match err {
        DomainError::InvalidField { field, .. } => field,
        other => panic!("not a field error: {other}"),
    }
}

#[test]
fn a_new_server_needs_its_fields_and_each_mistake_names_one() {
    let now = Utc::now();
    let server = McpServer::create(
        input(
            serde_json::json!({"name": "docs", "transport": "http", "url": " https://h/mcp ",
                                 "headers": {"Authorization": "Bearer k"}}),
        ),
        now,
    )
    .unwrap();
    assert!(server.enabled);
    assert_eq!(
        server.transport,
        McpTransport::Http {
            url: "https://h/mcp".into(),
            headers: [("Authorization".to_owned(), "Bearer k".to_owned())].into()
        }
    );
    for (json, field) in [
        (
            serde_json::json!({"transport": "http", "url": "http://h"}),
            "name",
        ),
        (
            serde_json::json!({"name": "a__b", "transport": "http", "url": "http://h"}),
            "name",
        ),
        (serde_json::json!({"name": "a", "url": "http://h"}), "transport"),
        (serde_json::json!({"name": "a", "transport": "http"}), "url"),
        (
            serde_json::json!({"name": "a", "transport": "http", "url": "ftp://h"}),
            "url",
        ),
        (
            serde_json::json!({"name": "a", "transport": "http", "url": "http://"}),
            "url",
        ),
        (
            serde_json::json!({"name": "a", "transport": "http", "url": "http://h", "command": "x"}),
            "command",
        ),
        (
            serde_json::json!({"name": "a", "transport": "http", "url": "http://h", "headers": {"a b": "v"}}),
            "headers",
        ),
        (
            serde_json::json!({"name": "a", "transport": "http", "url": "http://h", "headers": {"K": "v\n"}}),
            "headers",
        ),
        (
            serde_json::json!({"name": "a", "transport": "http", "url": "http://h", "headers": {"K": null}}),
            "headers",
        ),
        (
            serde_json::json!({"name": "a", "transport": "stdio", "command": "  "}),
            "command",
        ),
        (
            serde_json::json!({"name": "a", "transport": "stdio", "command": "x", "url": "http://h"}),
            "url",
        ),
        (
            serde_json::json!({"name": "a", "transport": "stdio", "command": "x", "env": {"KEY": "v"}}),
            "env",
        ),
        (
            serde_json::json!({"name": "a", "transport": "stdio", "command": "bin/x"}),
            "command",
        ),
    ] {
        let err = McpServer::create(input(json.clone()), now).unwrap_err();
        assert_eq!(field_of(err), field, "{json}");
    }
}

#[test]
fn an_edit_keeps_secrets_it_does_not_replace_and_drops_keys_it_leaves_out() {
    let created = Utc::now();
    let server = McpServer::create(
        input(
            serde_json::json!({"name": "s", "transport": "http", "url": "http://h/mcp",
                                 "headers": {"KEY": "secret", "OLD": "x"}}),
        ),
        created,
    )
    .unwrap();
    let later = created + chrono::Duration::seconds(5);
    let edited = server
        .edit(
            input(serde_json::json!({"enabled": false, "headers": {"KEY": null, "NEW": "n"}})),
            later,
        )
        .unwrap();
    assert_eq!(
        edited.transport,
        McpTransport::Http {
            url: "http://h/mcp".into(),
            headers: [
                ("KEY".to_owned(), "secret".to_owned()),
                ("NEW".to_owned(), "n".to_owned())
            ]
            .into()
        }
    );
    assert!(!edited.enabled);
    assert_eq!((edited.created_at, edited.updated_at), (created, later));
    // Untouched fields stay as they were.
    assert_eq!(
        server.edit(McpServerInput::default(), later).unwrap().transport,
        server.transport
    );
    for (json, field) in [
        (serde_json::json!({"name": "other"}), "name"),
        (serde_json::json!({"transport": "stdio"}), "transport"),
        (serde_json::json!({"url": "nowhere"}), "url"),
        (serde_json::json!({"headers": {"MISSING": null}}), "headers"),
    ] {
        assert_eq!(
            field_of(server.edit(input(json.clone()), later).unwrap_err()),
            field,
            "{json}"
        );
    }
}

#[test]
fn a_stdio_server_stored_with_env_must_drop_it_to_change() {
    let now = Utc::now();
    let stored = McpServer {
        name: McpServerName::parse("s").unwrap(),
        transport: McpTransport::Stdio {
            command: "uvx".into(),
            args: vec!["a".into()],
            env: [("API_KEY".to_owned(), "canary".to_owned())].into(),
        },
        enabled: true,
        created_at: now,
        updated_at: now,
    };
    for json in [
        serde_json::json!({"enabled": false}),
        serde_json::json!({"env": {"API_KEY": null}}),
    ] {
        let err = stored.edit(input(json.clone()), now).unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains("API_KEY") && !message.contains("canary"),
            "{json}: {message}"
        );
        assert_eq!(field_of(err), "env", "{json}");
    }
    let cleaned = stored
        .edit(input(serde_json::json!({"enabled": false, "env": {}})), now)
        .unwrap();
    assert!(matches!(&cleaned.transport, McpTransport::Stdio { env, .. } if env.is_empty()));
}

#[test]
fn header_values_are_never_repeated_in_errors() {
    let err =
        McpTransport::http("http://h", [("K".to_owned(), "s3cret\u{7}".to_owned())].into()).unwrap_err();
    assert!(!err.to_string().contains("s3cret"), "{err}");
}
