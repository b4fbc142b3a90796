//! Page fetch, through HTTP against the real server, with a fake web site on 127.0.0.1
//! (`fakes`) that checks what it is sent. (Web search is backend-api's: `web-kit`'s tests.)

use crate::fakes;
use crate::support;

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::json;
use support::{expect_code, spawn_app_with, TestApp};
use tool_api_client::ClientResult;
use tool_api_contract::web::{FetchRequest, FetchResponse};
use tool_api_contract::{ErrorBody, ErrorCode};

async fn fetch(app: &TestApp, url: &str, max_bytes: Option<u64>) -> ClientResult<FetchResponse> {
    app.client
        .fetch(&FetchRequest {
            url: url.into(),
            max_bytes,
        })
        .await
}

#[tokio::test]
async fn malformed_request_bodies_are_400() {
    let app = spawn_app_with(|_| {}).await;
    for body in ["{not json", r#"{"url": 5}"#, "{}"] {
        let response = app
            .request(Method::POST, "/v1/fetch")
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{body}");
        let error: ErrorBody = response.json().await.unwrap();
        assert_eq!(error.error.code, ErrorCode::MalformedRequest);
    }
}

#[tokio::test]
async fn openapi_document_lists_fetch_and_no_search() {
    let app = spawn_app_with(|_| {}).await;
    let doc: serde_json::Value = reqwest::get(format!("{}/openapi.json", app.base))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let post = &doc["paths"]["/v1/fetch"]["post"];
    assert_eq!(post["tags"], json!(["web"]));
    assert!(post["responses"]["502"].is_object(), "{post}");
    assert!(doc["components"]["schemas"]["FetchResponse"].is_object());
    // Search runs in backend-api, which holds the provider's key; a sandbox holds none.
    assert!(doc["paths"]["/v1/search"].is_null(), "{}", doc["paths"]);
}

// ---------------------------------------------------------------- fetch

#[tokio::test]
async fn an_html_page_becomes_markdown() {
    let (site, _) = fakes::site().await;
    let app = spawn_app_with(|_| {}).await;
    let page = fetch(&app, &format!("{site}/page"), None).await.unwrap();
    assert_eq!(page.status, 200);
    assert_eq!(page.url, format!("{site}/page"));
    assert_eq!(page.content_type.as_deref(), Some("text/html; charset=utf-8"));
    assert_eq!(page.title.as_deref(), Some("Fake Article"));
    assert!(!page.truncated);
    let text = &page.text;
    assert!(text.contains("# Sandpiper Field Notes"), "{text}");
    assert!(
        text.contains("probes wet sand for _small_ invertebrates."),
        "{text}"
    );
    assert!(
        text.contains("[species page](https://birds.example/sandpiper)"),
        "{text}"
    );
    assert!(
        text.contains("Agent: Mozilla/5.0 (compatible; sandpiper-tool-api/"),
        "{text}"
    );
    for noise in ["tracker-code", "inline-script-body", "display: none", "About us"] {
        assert!(!text.contains(noise), "{noise:?} should be gone: {text}");
    }
}

#[tokio::test]
async fn plain_text_and_json_come_back_as_they_are() {
    let (site, _) = fakes::site().await;
    let app = spawn_app_with(|_| {}).await;
    let plain = fetch(&app, &format!("{site}/plain"), None).await.unwrap();
    assert_eq!(plain.text, fakes::PLAIN);
    assert_eq!(plain.title, None);
    assert!(!plain.truncated);
    let data = fetch(&app, &format!("{site}/data.json"), None).await.unwrap();
    assert_eq!(data.text, r#"{"b": 2, "a": [1, "x"]}"#);
    assert_eq!(data.content_type.as_deref(), Some("application/json"));
}

#[tokio::test]
async fn text_is_capped_on_a_character_boundary() {
    let (site, _) = fakes::site().await;
    let app = spawn_app_with(|s| s.limits.fetch_max_bytes = 501).await;
    // 1000 × "é" is 2000 bytes; 501 is in the middle of a character.
    let page = fetch(&app, &format!("{site}/utf8"), Some(10_000)).await.unwrap();
    assert!(page.truncated);
    assert_eq!(page.text, "é".repeat(250), "capped by the server's maximum");
    let page = fetch(&app, &format!("{site}/utf8"), Some(7)).await.unwrap();
    assert!(page.truncated);
    assert_eq!(page.text, "ééé");
    expect_code(
        fetch(&app, &format!("{site}/utf8"), Some(0)).await,
        ErrorCode::InvalidInput,
    );
}

#[tokio::test]
async fn redirects_are_followed_and_the_final_url_reported() {
    let (site, _) = fakes::site().await;
    let app = spawn_app_with(|_| {}).await;
    let page = fetch(&app, &format!("{site}/old"), None).await.unwrap();
    assert_eq!(page.url, format!("{site}/page"));
    assert_eq!(page.status, 200);
    assert_eq!(page.title.as_deref(), Some("Fake Article"));

    let message = expect_code(
        fetch(&app, &format!("{site}/loop"), None).await,
        ErrorCode::UpstreamError,
    );
    assert!(message.contains("redirected more than 10 times"), "{message}");
}

#[tokio::test]
async fn a_404_page_is_returned_with_its_status() {
    let (site, _) = fakes::site().await;
    let app = spawn_app_with(|_| {}).await;
    let page = fetch(&app, &format!("{site}/missing"), None).await.unwrap();
    assert_eq!(page.status, 404);
    assert_eq!(page.title.as_deref(), Some("404 Not Found"));
    assert!(page.text.contains("Nothing here"), "{}", page.text);
}

#[tokio::test]
async fn a_huge_body_is_cut_off_while_streaming() {
    let (site, produced) = fakes::site().await;
    let app = spawn_app_with(|_| {}).await;
    // Reading all 50 MiB at the fake's pace would take over 4 s.
    let page = tokio::time::timeout(
        Duration::from_secs(3),
        fetch(&app, &format!("{site}/huge"), Some(20_000)),
    )
    .await
    .expect("the body is cut off, not read to the end")
    .unwrap();
    assert!(page.truncated);
    assert!(
        page.text.len() <= 20_000 && page.text.len() > 15_000,
        "{}",
        page.text.len()
    );
    assert!(
        page.text.starts_with("All work and no play makes a long page."),
        "{}",
        &page.text[..100]
    );
    // Production stops once the tool-api hangs up; whatever sat in socket buffers aside,
    // nowhere near the 50 MiB were produced.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let produced = produced.load(Ordering::Relaxed);
    assert!(produced < fakes::HUGE_BYTES / 5, "{produced} bytes produced");
}

#[tokio::test]
async fn a_stalled_body_returns_what_arrived_in_time() {
    let (site, _) = fakes::site().await;
    let app = spawn_app_with(|s| s.limits.upstream_timeout_secs = 0.5).await;
    let started = Instant::now();
    let page = fetch(&app, &format!("{site}/stall"), None).await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(page.text, "first words of a page that stalls");
    assert!(page.truncated, "a body cut by the deadline is partial");
}

#[tokio::test]
async fn binary_content_is_refused_before_download() {
    let (site, _) = fakes::site().await;
    let app = spawn_app_with(|_| {}).await;
    let message = expect_code(
        fetch(&app, &format!("{site}/image.png"), None).await,
        ErrorCode::InvalidInput,
    );
    assert!(
        message.contains("not text") && message.contains("image/png"),
        "{message}"
    );
    let message = expect_code(
        fetch(&app, &format!("{site}/undeclared"), None).await,
        ErrorCode::InvalidInput,
    );
    assert!(
        message.contains("not text") && message.contains("binary"),
        "{message}"
    );
}

#[tokio::test]
async fn only_http_urls_are_fetched() {
    let app = spawn_app_with(|_| {}).await;
    for url in [
        "file:///etc/passwd",
        "ftp://example.com/file.txt",
        "javascript:alert(1)",
    ] {
        let message = expect_code(fetch(&app, url, None).await, ErrorCode::InvalidInput);
        assert!(message.contains("only http and https"), "{url}: {message}");
    }
    for url in ["", "example.com/page", "http://"] {
        expect_code(fetch(&app, url, None).await, ErrorCode::InvalidInput);
    }
}

#[tokio::test]
async fn an_unreachable_site_is_a_502() {
    let app = spawn_app_with(|_| {}).await;
    let url = format!("{}/page", web_fakes::closed_port().await);
    let message = expect_code(fetch(&app, &url, None).await, ErrorCode::UpstreamError);
    assert!(
        message.contains("could not connect") && message.contains(&url),
        "{message}"
    );
}

#[tokio::test]
async fn a_slow_site_times_out() {
    let (site, _) = fakes::site().await;
    let app = spawn_app_with(|s| s.limits.upstream_timeout_secs = 0.5).await;
    let started = Instant::now();
    let message = expect_code(
        fetch(&app, &format!("{site}/slow"), None).await,
        ErrorCode::UpstreamTimeout,
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "took {:?}",
        started.elapsed()
    );
    assert!(message.contains("did not answer within 0.5 s"), "{message}");
}
