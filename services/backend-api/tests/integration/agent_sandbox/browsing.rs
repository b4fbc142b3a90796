//! The agent browsing a local page; the person sees its screenshots.

use super::*;

#[tokio::test]
async fn the_agent_browses_a_local_page_and_the_person_sees_its_screenshots() {
    let page = "<title>Local page</title><h1>Sandpiper test page</h1><p>The secret word is heron.</p>";
    let llm = FakeLlm::start(vec![
        Reply::tool("file_write", json!({ "path": "page.html", "content": page })),
        Reply::tool(
            "browser_navigate",
            json!({ "url": "file:///home/sandbox/workspace/page.html" }),
        ),
        Reply::tool("browser_view", json!({})),
        Reply::Text("The secret word is heron."),
    ])
    .await;
    let manager = Manager::start();
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    let mut app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let (bob, _, _) = app.register("bob@example.org").await;
    let id = app.new_session(&token).await;
    let mut stream = app.events(&token, &id, None).await;
    app.post_message(&token, &id, "What is the secret word on my page?")
        .await;
    let events = stream
        .until(WAIT, |e| e["type"] == "status" && e["status"] != "running")
        .await;
    assert_eq!(events.last().unwrap()["status"], "completed", "{events:#?}");
    let called: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "tool" && e["status"] == "called")
        .collect();
    let (navigate, view) = (called[1], called[2]);
    assert_eq!(navigate["view"]["title"], "Local page");
    for event in [navigate, view] {
        assert_eq!(event["view"]["kind"], "browser");
        assert!(
            event.to_string().len() < 4096,
            "the event carries a reference, not the image: {} bytes",
            event.to_string().len()
        );
    }
    let url = view["view"]["screenshot"]["url"]
        .as_str()
        .expect("a screenshot URL");
    // The page did not change between the two calls: one image, stored once.
    assert_eq!(navigate["view"]["screenshot"], view["view"]["screenshot"]);

    let image = app
        .http
        .get(format!("{}{url}", app.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(image.status(), StatusCode::OK);
    assert_eq!(image.headers()["content-type"], "image/jpeg");
    let bytes = image.bytes().await.unwrap();
    assert!(bytes.starts_with(&[0xFF, 0xD8]), "a JPEG");
    assert!(bytes.len() > 1000);

    // The model read the page's text, without the image.
    let text = llm.last_message_text(3);
    let text = text.as_str();
    assert!(text.contains("heron"), "{text}");
    assert!(
        !text.contains("\"screenshot\""),
        "the model got the image: {} bytes",
        text.len()
    );

    // Only the owner sees it — and a shared replay.
    app.expect(StatusCode::NOT_FOUND, Method::GET, url, Some(&bob), None)
        .await;
    let shared = app
        .expect(
            StatusCode::OK,
            Method::POST,
            &format!("/api/v1/sessions/{id}/share"),
            Some(&token),
            None,
        )
        .await;
    let shot = url.rsplit('/').next().unwrap();
    let replay = format!(
        "/api/v1/shared/{}/screenshots/{shot}",
        shared["share_token"].as_str().unwrap()
    );
    let replayed = app.call(Method::GET, &replay, None, None).await;
    assert_eq!(replayed.status(), StatusCode::OK);
    assert_eq!(replayed.bytes().await.unwrap(), bytes);
    let unknown = app
        .expect(
            StatusCode::NOT_FOUND,
            Method::GET,
            &format!("/api/v1/sessions/{id}/screenshots/nope.jpg"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(unknown["error"]["code"], "not_found");

    // Deleting the session deletes its screenshots: the store itself no longer has it.
    app.expect(
        StatusCode::NO_CONTENT,
        Method::DELETE,
        &format!("/api/v1/sessions/{id}"),
        Some(&token),
        None,
    )
    .await;
    app.stop().await;
    let stores = StoragePorts::open(&support::settings(&app.data_dir, &borrowed(&settings)))
        .await
        .unwrap();
    let session = SessionId::parse(&id).unwrap();
    let shot = ImageId::parse(shot).unwrap();
    assert_eq!(stores.images.get(&session, &shot).await.unwrap(), None);
}
