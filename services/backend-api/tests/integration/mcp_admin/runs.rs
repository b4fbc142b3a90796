//! What runs see of the admin's servers: the next run gets an added server's tools, the
//! one after a change's, and none of a disabled server.

use super::*;

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
