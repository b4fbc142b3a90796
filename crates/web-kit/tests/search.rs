//! Web search through the real client against fake providers on 127.0.0.1 (`web_fakes`)
//! that speak each provider's wire format, with its quirks, and check what they are sent:
//! the request each provider gets, how its answer is read, and every way a search fails.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::json;
use web_fakes::{searxng_answer, Recorder};
use web_kit::search::{SearchAnswer, SearchEngine, SearchResult, SearchSettings};
use web_kit::{upstream, WebError, WebResult};

const KEY: &str = "sk-test-key-4f9a2c";

fn engine_with(configure: impl FnOnce(&mut SearchSettings)) -> SearchEngine {
    let mut settings = SearchSettings::default();
    configure(&mut settings);
    let http = upstream::client("sandpiper-tests").unwrap();
    SearchEngine::from_settings(&settings, http)
        .unwrap()
        .expect("a provider is configured")
}

fn engine(provider: &str, url: Option<String>, key: Option<&str>) -> SearchEngine {
    engine_with(|s| {
        s.provider = Some(provider.into());
        s.url = url;
        s.api_key = key.map(Into::into);
    })
}

async fn search(engine: &SearchEngine, query: &str, max_results: Option<u32>) -> WebResult<SearchAnswer> {
    engine.search(query, max_results).await
}

/// The message of a search that must have failed the way `expected` says.
#[track_caller]
fn failed(outcome: WebResult<SearchAnswer>, expected: fn(String) -> WebError) -> String {
    let err = outcome.expect_err("the search should fail");
    let message = err.to_string();
    assert_eq!(err, expected(message.clone()), "failed the wrong way");
    message
}

fn result(title: &str, url: &str, snippet: &str) -> SearchResult {
    SearchResult {
        title: title.into(),
        url: url.into(),
        snippet: snippet.into(),
    }
}

// ---------------------------------------------------------------- providers

#[tokio::test]
async fn searxng_results_are_mapped() {
    let provider = Recorder::json(searxng_answer(3)).await;
    let engine = engine("searxng", Some(provider.base.clone()), None);
    let answer = search(&engine, "  sandpiper birds ", Some(2)).await.unwrap();
    assert_eq!(answer.provider, "searxng");
    assert_eq!(
        answer.results,
        vec![
            result("Result 1", "https://site1.example/", "Snippet 1"),
            result("Result 2", "https://site2.example/", "Snippet 2"),
        ]
    );
    let request = provider.only_request();
    assert_eq!(request.method, Method::GET);
    assert_eq!(request.path, "/search");
    assert_eq!(request.query["q"], "sandpiper birds");
    assert_eq!(request.query["format"], "json");
    assert_eq!(
        request.header("authorization"),
        None,
        "no key configured, none sent"
    );
}

#[tokio::test]
async fn brave_results_are_mapped() {
    let provider = Recorder::json(json!({
        "type": "search",
        "query": {"original": "rust language", "more_results_available": true},
        "mixed": {"type": "mixed", "main": [{"type": "web", "index": 0, "all": false}]},
        "web": {"type": "search", "family_friendly": true, "results": [
            {"type": "search_result", "title": "The <strong>Rust</strong> Programming Language",
             "url": "https://www.rust-lang.org/", "is_source_local": false,
             "description": "A language empowering everyone to build <strong>reliable</strong> &amp; efficient software.",
             "meta_url": {"scheme": "https", "hostname": "www.rust-lang.org"}},
            {"type": "search_result", "title": "Rust (programming language) - Wikipedia",
             "url": "https://en.wikipedia.org/wiki/Rust_(programming_language)",
             "description": "Rust is a general-purpose programming language."}
        ]}
    }))
    .await;
    let engine = engine(
        "brave",
        Some(format!("{}/res/v1/web/search", provider.base)),
        Some(KEY),
    );
    let answer = search(&engine, "rust language", Some(5)).await.unwrap();
    assert_eq!(answer.provider, "brave");
    assert_eq!(
        answer.results,
        vec![
            result(
                "The Rust Programming Language",
                "https://www.rust-lang.org/",
                "A language empowering everyone to build reliable & efficient software."
            ),
            result(
                "Rust (programming language) - Wikipedia",
                "https://en.wikipedia.org/wiki/Rust_(programming_language)",
                "Rust is a general-purpose programming language."
            ),
        ]
    );
    let request = provider.only_request();
    assert_eq!(request.method, Method::GET);
    assert_eq!(request.path, "/res/v1/web/search");
    assert_eq!(request.query["q"], "rust language");
    assert_eq!(request.query["count"], "5");
    assert_eq!(request.header("x-subscription-token"), Some(KEY));
    assert_eq!(request.header("accept"), Some("application/json"));
}

#[tokio::test]
async fn brave_count_stays_within_its_limit_and_no_web_section_means_no_results() {
    // Brave refuses count > 20, and leaves `web` out when it found no pages.
    let provider = Recorder::json(json!({"type": "search", "query": {"original": "zzqx"}})).await;
    let engine = engine("brave", Some(provider.base.clone()), Some(KEY));
    let answer = search(&engine, "zzqx", Some(50)).await.unwrap();
    assert_eq!(answer.results, vec![]);
    assert_eq!(provider.only_request().query["count"], "20");
}

#[tokio::test]
async fn tavily_results_are_mapped() {
    let provider = Recorder::json(json!({
        "query": "tide tables", "follow_up_questions": null, "answer": null, "images": [],
        "results": [
            {"title": "Tide tables", "url": "https://tides.example/", "content": "High and low tides.",
             "score": 0.93, "raw_content": null},
            {"title": "Moon", "url": "https://moon.example/", "content": "Why tides happen.",
             "score": 0.81, "raw_content": null}
        ],
        "response_time": 1.09
    }))
    .await;
    let engine = engine("tavily", Some(format!("{}/search", provider.base)), Some(KEY));
    let answer = search(&engine, "tide tables", Some(1)).await.unwrap();
    assert_eq!(answer.provider, "tavily");
    assert_eq!(
        answer.results,
        vec![result(
            "Tide tables",
            "https://tides.example/",
            "High and low tides."
        )]
    );
    let request = provider.only_request();
    assert_eq!(request.method, Method::POST);
    assert_eq!(request.path, "/search");
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(request.json(), json!({"query": "tide tables", "max_results": 1}));
}

#[tokio::test]
async fn serper_results_are_mapped() {
    let provider = Recorder::json(json!({
        "searchParameters": {"q": "apple pie", "type": "search", "num": 3, "engine": "google"},
        "knowledgeGraph": {"title": "Apple pie"},
        "organic": [
            {"title": "Apple Pie Recipe", "link": "https://recipes.example/pie", "snippet": "Bake it.", "position": 1},
            {"title": "History", "link": "https://history.example/pie", "snippet": "Old dish.", "position": 2,
             "sitelinks": [{"title": "x", "link": "https://history.example/x"}]}
        ],
        "peopleAlsoAsk": [], "relatedSearches": [], "credits": 1
    }))
    .await;
    let engine = engine("serper", Some(provider.base.clone()), Some(KEY));
    let answer = search(&engine, "apple pie", Some(3)).await.unwrap();
    assert_eq!(answer.provider, "serper");
    assert_eq!(
        answer.results,
        vec![
            result("Apple Pie Recipe", "https://recipes.example/pie", "Bake it."),
            result("History", "https://history.example/pie", "Old dish."),
        ]
    );
    let request = provider.only_request();
    assert_eq!(request.method, Method::POST);
    assert_eq!(request.header("x-api-key"), Some(KEY));
    assert_eq!(request.json(), json!({"q": "apple pie", "num": 3}));
}

#[tokio::test]
async fn generic_provider_reads_nested_fields_and_fills_the_template() {
    let provider = Recorder::json(json!({"status": "ok", "data": {"items": [
        {"name": "First", "links": [{"href": "https://first.example/"}], "summary": {"text": "one"}},
        {"name": "No link"},
        {"name": "Second", "links": [{"href": "https://second.example/"}]}
    ]}}))
    .await;
    let engine = engine_with(|s| {
        s.provider = Some("generic".into());
        s.url = Some(format!(
            "{}/api/find?term={{query}}&limit={{count}}",
            provider.base
        ));
        s.api_key = Some(KEY.into());
        s.results_field = Some("data.items".into());
        s.title_field = Some("name".into());
        s.url_field = Some("links.0.href".into());
        s.snippet_field = Some("summary.text".into());
    });
    let answer = search(&engine, "a&b c", Some(7)).await.unwrap();
    assert_eq!(answer.provider, "generic");
    assert_eq!(
        answer.results,
        vec![
            result("First", "https://first.example/", "one"),
            result("Second", "https://second.example/", ""),
        ]
    );
    let request = provider.only_request();
    assert_eq!(request.path, "/api/find");
    assert_eq!(
        request.query["term"], "a&b c",
        "the query is encoded into the template"
    );
    assert_eq!(request.query["limit"], "7");
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
}

#[tokio::test]
async fn generic_provider_without_placeholder_gets_q_appended() {
    let provider = Recorder::json(json!({"results": [
        {"title": "T", "url": "https://t.example/", "snippet": "S"}
    ]}))
    .await;
    let engine = engine("generic", Some(format!("{}/search?lang=en", provider.base)), None);
    let answer = search(&engine, "terns", None).await.unwrap();
    assert_eq!(answer.results, vec![result("T", "https://t.example/", "S")]);
    let request = provider.only_request();
    assert_eq!(request.query["q"], "terns");
    assert_eq!(request.query["lang"], "en");
}

#[tokio::test]
async fn max_results_defaults_to_10_and_is_capped_at_50() {
    let provider = Recorder::json(searxng_answer(60)).await;
    let engine = engine("searxng", Some(provider.base.clone()), None);
    assert_eq!(search(&engine, "many", None).await.unwrap().results.len(), 10);
    assert_eq!(
        search(&engine, "many", Some(500)).await.unwrap().results.len(),
        50
    );
    assert_eq!(search(&engine, "many", Some(3)).await.unwrap().results.len(), 3);
}

#[tokio::test]
async fn an_empty_result_list_is_a_success() {
    let provider = Recorder::json(searxng_answer(0)).await;
    let engine = engine("searxng", Some(provider.base.clone()), None);
    let answer = search(&engine, "nothing matches this", None).await.unwrap();
    assert_eq!(answer.provider, "searxng");
    assert_eq!(answer.results, vec![]);
}

// ---------------------------------------------------------------- failures

#[tokio::test]
async fn a_refused_key_is_reported_without_echoing_it() {
    // Brave's error format; the detail echoes the key back, as some providers do.
    let body = json!({"type": "ErrorResponse", "error": {"id": "a1", "status": 401,
        "code": "SUBSCRIPTION_TOKEN_INVALID", "detail": format!("The token {KEY} is invalid.")}});
    let provider = Recorder::start(401, "application/json", body.to_string()).await;
    let engine = engine("brave", Some(provider.base.clone()), Some(KEY));
    let message = failed(search(&engine, "x", None).await, WebError::Upstream);
    assert!(message.contains("401"), "{message}");
    assert!(message.contains("API key was refused"), "{message}");
    assert!(message.contains("SUBSCRIPTION_TOKEN_INVALID"), "{message}");
    assert!(!message.contains(KEY), "the key must not be echoed: {message}");
}

#[tokio::test]
async fn rate_limiting_is_reported() {
    let provider = Recorder::start(
        429,
        "application/json",
        r#"{"message":"Too many requests","statusCode":429}"#,
    )
    .await;
    let engine = engine("serper", Some(provider.base.clone()), Some(KEY));
    let message = failed(search(&engine, "x", None).await, WebError::Upstream);
    assert!(
        message.contains("429") && message.contains("rate limited"),
        "{message}"
    );
    assert!(message.contains("Too many requests"), "{message}");
}

#[tokio::test]
async fn a_provider_failure_quotes_its_status_and_body() {
    let provider = Recorder::start(500, "text/plain", "internal failure in shard 7").await;
    let engine = engine("tavily", Some(provider.base.clone()), Some(KEY));
    let message = failed(search(&engine, "x", None).await, WebError::Upstream);
    assert!(
        message.contains("500") && message.contains("internal failure in shard 7"),
        "{message}"
    );
    assert!(message.contains("tavily"), "{message}");
}

#[tokio::test]
async fn searxng_without_json_output_gets_a_hint() {
    let provider = Recorder::start(
        403,
        "text/html",
        "<html><body><h1>403 Forbidden</h1></body></html>",
    )
    .await;
    let engine = engine("searxng", Some(provider.base.clone()), None);
    let message = failed(search(&engine, "x", None).await, WebError::Upstream);
    assert!(
        message.contains("403") && message.contains("search.formats"),
        "{message}"
    );
}

#[tokio::test]
async fn an_html_page_instead_of_json_is_an_error() {
    let captcha = "<!DOCTYPE html><html><head><title>Just a moment...</title>\
        <script>var challenge = 1;</script></head><body><h1>Are you a robot?</h1>\
        <form><input type=checkbox> I am human</form></body></html>";
    let provider = Recorder::start(200, "text/html; charset=utf-8", captcha).await;
    let engine = engine("searxng", Some(provider.base.clone()), None);
    let message = failed(search(&engine, "x", None).await, WebError::Upstream);
    assert!(message.contains("HTML page instead of JSON"), "{message}");
    assert!(
        message.contains("Are you a robot?") && message.contains("Just a moment"),
        "{message}"
    );
    assert!(
        !message.contains("challenge"),
        "scripts are not quoted: {message}"
    );
}

#[tokio::test]
async fn malformed_json_is_an_error() {
    let provider = Recorder::start(200, "application/json", r#"{"results": [{"title": "cut"#).await;
    let engine = engine("searxng", Some(provider.base.clone()), None);
    let message = failed(search(&engine, "x", None).await, WebError::Upstream);
    assert!(
        message.contains("not JSON") && message.contains(r#"{"results": [{"title": "cut"#),
        "{message}"
    );
}

#[tokio::test]
async fn json_without_the_results_array_is_an_error() {
    let provider = Recorder::json(json!({"detail": {"error": "Invalid request: query too long"}})).await;
    let engine = engine("tavily", Some(provider.base.clone()), Some(KEY));
    let message = failed(search(&engine, "x", None).await, WebError::Upstream);
    assert!(message.contains("no `results` array"), "{message}");
    assert!(
        message.contains("query too long"),
        "the answer is quoted: {message}"
    );
}

#[tokio::test]
async fn a_generic_layout_mismatch_names_the_variables() {
    let provider = Recorder::json(json!({"items": [{"link": "https://x.example/"}]})).await;
    let engine = engine("generic", Some(provider.base.clone()), None);
    let message = failed(search(&engine, "x", None).await, WebError::Upstream);
    assert!(
        message.contains("no `results` array") && message.contains("items"),
        "{message}"
    );
    assert!(message.contains("SEARCH_RESULTS_FIELD"), "{message}");
}

#[tokio::test]
async fn a_slow_provider_times_out() {
    let provider = web_fakes::silent().await;
    let engine = engine_with(|s| {
        s.provider = Some("searxng".into());
        s.url = Some(provider);
        s.timeout_secs = 0.5;
    });
    let started = Instant::now();
    let message = failed(search(&engine, "x", None).await, WebError::Timeout);
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "took {:?}",
        started.elapsed()
    );
    assert!(message.contains("did not answer within 0.5 s"), "{message}");
}

#[tokio::test]
async fn a_provider_that_is_not_listening_is_a_502() {
    let engine = engine("searxng", Some(web_fakes::closed_port().await), None);
    let message = failed(search(&engine, "x", None).await, WebError::Upstream);
    assert!(
        message.contains("could not connect") && message.contains("searxng"),
        "{message}"
    );
}

#[test]
fn no_provider_means_no_engine() {
    let http = upstream::client("sandpiper-tests").unwrap();
    let engine = SearchEngine::from_settings(&SearchSettings::default(), http).unwrap();
    assert!(engine.is_none());
}

#[tokio::test]
async fn blank_queries_and_zero_results_are_refused() {
    let provider = Recorder::json(searxng_answer(1)).await;
    let engine = engine("searxng", Some(provider.base.clone()), None);
    let message = failed(search(&engine, " \t\n", None).await, WebError::Invalid);
    assert!(message.contains("query"), "{message}");
    failed(search(&engine, "x", Some(0)).await, WebError::Invalid);
}

#[test]
fn an_unusable_configuration_is_refused_naming_what_to_set() {
    for (provider, url, timeout, expected) in [
        ("bing", None, 20.0, "not a known provider"),
        ("brave", None, 20.0, "SEARCH_API_KEY"),
        ("searxng", None, 20.0, "SEARCH_URL"),
        ("generic", Some("not a url"), 20.0, "SEARCH_URL"),
        ("searxng", Some("http://searx:8080"), 0.0, "timeout"),
    ] {
        let settings = SearchSettings {
            provider: Some(provider.into()),
            url: url.map(Into::into),
            timeout_secs: timeout,
            ..SearchSettings::default()
        };
        let http = upstream::client("sandpiper-tests").unwrap();
        let err = SearchEngine::from_settings(&settings, http)
            .err()
            .expect("must refuse");
        assert!(format!("{err:#}").contains(expected), "{provider}: {err:#}");
    }
}
