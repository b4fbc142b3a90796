//! The `MCP_CONFIG` file: each server seeded once, admins' changes surviving restarts,
//! and a stdio server with an environment stopping the start.

use super::*;

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
