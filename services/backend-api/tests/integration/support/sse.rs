//! Server-sent events as tests read them: a session's events (optionally resumed) and
//! the live list of sessions, event by event, until one that matches.

use std::time::Duration;

use futures::StreamExt;
use reqwest::{Response, StatusCode};
use serde_json::Value;

use super::TestApp;

impl TestApp {
    /// Opens a session's event stream (optionally resuming) and returns its SSE events.
    pub async fn events(&self, token: &str, session: &str, last_event_id: Option<u64>) -> SseStream {
        let mut request = self
            .http
            .get(format!("{}/api/v1/sessions/{session}/events", self.base))
            .bearer_auth(token);
        if let Some(id) = last_event_id {
            request = request.header("Last-Event-ID", id.to_string());
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        SseStream::from_response(response)
    }

    /// Opens the live list of the caller's sessions.
    pub async fn session_changes(&self, token: &str) -> SseStream {
        let response = self
            .http
            .get(format!("{}/api/v1/sessions/stream", self.base))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        SseStream::from_response(response)
    }
}

type Inner = futures::stream::BoxStream<
    'static,
    Result<eventsource_stream::Event, eventsource_stream::EventStreamError<reqwest::Error>>,
>;

pub struct SseStream {
    inner: Inner,
}

impl SseStream {
    pub fn from_response(response: Response) -> Self {
        Self {
            inner: eventsource_stream::EventStream::new(response.bytes_stream()).boxed(),
        }
    }

    /// The next event, or `None` when the server ended the stream.
    pub async fn next_or_end(&mut self) -> Option<eventsource_stream::Event> {
        match self.inner.next().await {
            Some(Ok(event)) => Some(event),
            _ => None,
        }
    }

    /// The next event within 5 s (heartbeat comments are not events).
    pub async fn next(&mut self) -> Option<eventsource_stream::Event> {
        tokio::time::timeout(Duration::from_secs(5), self.inner.next())
            .await
            .expect("an event within 5 s")
            .map(|e| e.expect("a well-formed SSE event"))
    }

    /// Events (their `event` part, as JSON) until one matches `last` (inclusive); fails
    /// the test when none does `within`.
    pub async fn until(&mut self, within: Duration, last: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut events = Vec::new();
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let event = tokio::time::timeout_at(deadline, self.next_or_end())
                .await
                .unwrap_or_else(|_| panic!("no matching event within {within:?}: {events:?}"))
                .unwrap_or_else(|| panic!("the stream ended: {events:?}"));
            let data: Value = serde_json::from_str(&event.data).unwrap();
            let done = last(&data["event"]);
            events.push(data["event"].clone());
            if done {
                return events;
            }
        }
    }

    /// The next `n` events' sequence numbers, checking `id:` against the data's `seq`.
    pub async fn seqs(&mut self, n: usize) -> Vec<u64> {
        let mut seqs = Vec::new();
        while seqs.len() < n {
            let event = self.next().await.expect("the stream is open");
            let data: Value = serde_json::from_str(&event.data).unwrap();
            let seq = data["seq"].as_u64().unwrap();
            assert_eq!(event.id, seq.to_string(), "the SSE id is the sequence number");
            assert_eq!(event.event, data["event"]["type"].as_str().unwrap());
            seqs.push(seq);
        }
        seqs
    }
}
