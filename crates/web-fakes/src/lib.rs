//! Fake servers of the outside web for tests, real HTTP on 127.0.0.1:0 built with axum: a
//! [`Recorder`] answers every request with one canned response (a search provider's
//! answer, in its real wire format, or its refusal) and keeps what it was asked, so a test
//! sees exactly what the client sent; [`silent`] and [`closed_port`] are a provider that
//! never answers and one that is not there. Used by the tests of `web-kit`'s search, of
//! backend-api's agent and of tool-api's fetch.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::Request;
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::Router;
use serde_json::json;

/// Serves `router` on 127.0.0.1:0 and returns its base URL.
pub async fn serve(router: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    base
}

/// A base URL where nothing listens: the port was bound once and released.
pub async fn closed_port() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    format!("http://{}", listener.local_addr().unwrap())
}

/// A server that never answers in time.
pub async fn silent() -> String {
    serve(Router::new().fallback(|| async {
        tokio::time::sleep(Duration::from_secs(30)).await;
        "too late"
    }))
    .await
}

/// One request as the fake server received it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: Method,
    pub path: String,
    pub query: HashMap<String, String>,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(|value| value.to_str().unwrap())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap()
    }
}

/// Answers every request with the same response and records the requests.
#[derive(Clone)]
pub struct Recorder {
    pub base: String,
    requests: Arc<Mutex<Vec<Recorded>>>,
}

impl Recorder {
    pub async fn start(status: u16, content_type: &'static str, body: impl Into<String>) -> Self {
        let requests = Arc::new(Mutex::new(Vec::new()));
        let answer = (
            StatusCode::from_u16(status).unwrap(),
            [(CONTENT_TYPE, content_type)],
            body.into(),
        );
        let log = Arc::clone(&requests);
        let router = Router::new().fallback(move |request: Request| {
            let (log, answer) = (Arc::clone(&log), answer.clone());
            async move {
                let (parts, body) = request.into_parts();
                let url = reqwest::Url::parse(&format!("http://fake{}", parts.uri)).unwrap();
                let body = axum::body::to_bytes(body, 1 << 20).await.unwrap();
                log.lock().unwrap().push(Recorded {
                    method: parts.method,
                    path: url.path().to_owned(),
                    query: url.query_pairs().into_owned().collect(),
                    headers: parts.headers,
                    body,
                });
                answer
            }
        });
        Self {
            base: serve(router).await,
            requests,
        }
    }

    /// A provider answering 200 with `body` as JSON.
    pub async fn json(body: serde_json::Value) -> Self {
        Self::start(200, "application/json", body.to_string()).await
    }

    /// The single request received; fails if there were none or several.
    pub fn only_request(&self) -> Recorded {
        let requests = self.requests.lock().unwrap();
        assert_eq!(requests.len(), 1, "expected exactly one request: {requests:?}");
        requests[0].clone()
    }
}

/// A SearXNG answer with `n` results: `Result {i}` at `https://site{i}.example/`, with
/// `Snippet {i}`, and the fields SearXNG sends besides.
pub fn searxng_answer(n: usize) -> serde_json::Value {
    let results: Vec<_> = (1..=n)
        .map(|i| {
            json!({"title": format!("Result {i}"), "url": format!("https://site{i}.example/"),
                   "content": format!("Snippet {i}"), "engine": "duckduckgo", "score": 1.0})
        })
        .collect();
    json!({"query": "sandpiper", "number_of_results": 0, "results": results,
           "answers": [], "suggestions": [], "unresponsive_engines": []})
}
