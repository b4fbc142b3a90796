//! Credentials never follow a redirect to another origin, tried as someone who controls
//! where a server points would: an HTTP MCP server's client follows a redirect within
//! its own origin, with the admin's headers, but not to another, so the secret headers
//! never reach a host the admin did not name, and the server's status says why it offers
//! no tools (never a 500); a model provider's address that redirects elsewhere gets
//! neither the key nor the conversation, and the run says why.

use crate::support;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::mcp_servers;
use support::{borrowed, TestApp};

const SECRET_HEADERS: [(&str, &str); 2] = [
    ("authorization", "Bearer secret-auth"),
    ("x-api-key", "secret-key"),
];

/// The secret values among `headers`.
fn secrets_in(headers: &axum::http::HeaderMap) -> Vec<&str> {
    SECRET_HEADERS
        .iter()
        .filter(|(name, value)| headers.get(*name).is_some_and(|sent| sent == value))
        .map(|(_, value)| *value)
        .collect()
}

#[tokio::test]
async fn a_redirect_to_another_origin_carries_no_secret_and_is_told() {
    let (elsewhere, received_elsewhere) = mcp_servers::recording_garbage().await;
    let (away, _) = mcp_servers::redirecting(&elsewhere).await;
    let (within, received_within) = mcp_servers::redirecting("/landing").await;
    let app = TestApp::spawn(&[]).await;
    let (admin, _, _) = app.register("ada@example.org").await;
    let headers: serde_json::Map<String, Value> = SECRET_HEADERS
        .iter()
        .map(|(name, value)| ((*name).to_owned(), json!(value)))
        .collect();
    for (name, url) in [("away", &away), ("within", &within)] {
        app.expect(
            StatusCode::CREATED,
            Method::POST,
            "/api/v1/admin/mcp/servers",
            Some(&admin),
            Some(json!({ "name": name, "transport": "http", "url": url, "headers": headers })),
        )
        .await;
    }

    let listed = app
        .expect(
            StatusCode::OK,
            Method::GET,
            "/api/v1/mcp/servers",
            Some(&admin),
            None,
        )
        .await;
    let status = |name: &str| {
        listed
            .as_array()
            .unwrap()
            .iter()
            .find(|server| server["name"] == name)
            .unwrap()
            .clone()
    };

    // Within its origin the redirect was followed, headers and all: these servers do
    // see what they are sent, and the landing page is what failed.
    let within = status("within");
    assert!(
        within["error"].as_str().unwrap().contains("text/html"),
        "{within}"
    );
    let landed = received_within.lock().unwrap().clone();
    assert!(
        !landed.is_empty(),
        "the redirect within the origin was not followed"
    );
    assert!(landed.iter().all(|headers| secrets_in(headers).len() == 2));

    // To another origin: not followed, nothing sent there, and the admin is told why.
    let away = status("away");
    let error = away["error"].as_str().unwrap();
    let origin = elsewhere.trim_end_matches("/mcp");
    assert!(error.contains("redirect") && error.contains(origin), "{error}");
    assert!(away["tools"].as_array().unwrap().is_empty());
    let reached = received_elsewhere.lock().unwrap().clone();
    assert!(
        reached.iter().all(|headers| secrets_in(headers).is_empty()),
        "a secret header reached the other origin"
    );
    assert_eq!(reached.len(), 0, "the other origin was sent requests");
}

#[tokio::test]
async fn a_model_provider_that_redirects_elsewhere_gets_no_key_and_the_run_says_why() {
    let llm = FakeLlm::start(vec![Reply::Text("Never asked.")]).await;
    let (away, _) = mcp_servers::redirecting(&format!("{}/chat/completions", llm.base_url)).await;
    let mut settings = llm.settings();
    for (name, value) in &mut settings {
        if *name == "llm.base_url" {
            *value = away.replace("/mcp", "/v1");
        }
    }
    let app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let session = app.new_session(&token).await;
    let seq = app.post_message(&token, &session, "Hello").await;
    let ended = |e: &Value| e["type"] == "status" && (e["status"] == "completed" || e["status"] == "failed");
    let events = app
        .events(&token, &session, Some(seq))
        .await
        .until(std::time::Duration::from_secs(30), ended)
        .await;
    assert_eq!(events.last().unwrap()["status"], "failed", "{events:#?}");
    let error = events.iter().find(|e| e["type"] == "error").unwrap();
    let message = error["message"].as_str().unwrap();
    let origin = llm.base_url.trim_end_matches("/v1");
    assert!(
        message.contains("another origin") && message.contains(origin),
        "{message}"
    );
    assert!(
        llm.requests().is_empty() && llm.headers().is_empty(),
        "the provider was reached"
    );
}
