//! E2B's envd wire protocol as a test client speaks it: Connect unary calls (JSON) and
//! server streams (`application/connect+json` envelopes, decoded here, independently of
//! the server's codec).

use std::time::Duration;

use futures::StreamExt;
use serde_json::Value;

use crate::support::TestApp;

/// How long a test waits for the next message of a stream before it fails.
const STREAM_PATIENCE: Duration = Duration::from_secs(20);

/// A unary call: the status and the JSON answer.
pub async fn unary(app: &TestApp, method: &str, message: Value) -> (u16, Value) {
    let response = app
        .request(reqwest::Method::POST, &format!("/e2b/envd/{method}"))
        .header("content-type", "application/json")
        .header("connect-protocol-version", "1")
        .body(message.to_string())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    assert_eq!(
        response.headers()["content-type"],
        "application/json",
        "unary answers and their errors are JSON"
    );
    (status, response.json().await.unwrap())
}

/// One envelope of `message`.
pub fn envelope(flags: u8, message: &Value) -> Vec<u8> {
    let payload = message.to_string().into_bytes();
    let mut out = vec![flags];
    out.extend_from_slice(&(payload.len() as u32).to_be_bytes());
    out.extend_from_slice(&payload);
    out
}

/// A server stream being read.
pub struct RpcStream {
    body: futures::stream::BoxStream<'static, reqwest::Result<bytes::Bytes>>,
    buffer: Vec<u8>,
    /// The end-of-stream message, once read.
    pub end: Option<Value>,
}

/// Opens a server-streaming call; `headers` are added to the request.
pub async fn open_stream(app: &TestApp, method: &str, message: Value, headers: &[(&str, &str)]) -> RpcStream {
    let mut request = app
        .request(reqwest::Method::POST, &format!("/e2b/envd/{method}"))
        .header("content-type", "application/connect+json")
        .header("connect-protocol-version", "1");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.body(envelope(0, &message)).send().await.unwrap();
    assert_eq!(response.status(), 200, "streams answer 200, errors included");
    assert_eq!(response.headers()["content-type"], "application/connect+json");
    RpcStream {
        body: response.bytes_stream().boxed(),
        buffer: Vec::new(),
        end: None,
    }
}

impl RpcStream {
    /// The next message; `None` once the end of the stream is read (see [`Self::end`]).
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            if self.buffer.len() >= 5 {
                let len = u32::from_be_bytes(self.buffer[1..5].try_into().unwrap()) as usize;
                if self.buffer.len() >= 5 + len {
                    let flags = self.buffer[0];
                    let message: Value = serde_json::from_slice(&self.buffer[5..5 + len]).unwrap();
                    self.buffer.drain(..5 + len);
                    if flags & 0x02 != 0 {
                        self.end = Some(message);
                        return None;
                    }
                    assert_eq!(flags, 0, "a message envelope has no flags");
                    return Some(message);
                }
            }
            if self.end.is_some() {
                return None;
            }
            let chunk = tokio::time::timeout(STREAM_PATIENCE, self.body.next())
                .await
                .expect("the stream goes on")
                .expect("the stream ends with an end-of-stream envelope")
                .unwrap();
            self.buffer.extend_from_slice(&chunk);
        }
    }

    /// Every message up to the end of the stream.
    pub async fn collect(mut self) -> (Vec<Value>, Value) {
        let mut messages = Vec::new();
        while let Some(message) = self.next().await {
            messages.push(message);
        }
        (messages, self.end.unwrap())
    }
}

/// Bytes as protobuf JSON carries them.
pub fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The `stdout`, `stderr` or `pty` bytes of process events, joined.
pub fn output(events: &[Value], stream: &str) -> String {
    use base64::Engine;
    events
        .iter()
        .filter_map(|event| event["event"]["data"][stream].as_str())
        .map(|chunk| {
            let bytes = base64::engine::general_purpose::STANDARD.decode(chunk).unwrap();
            String::from_utf8_lossy(&bytes).into_owned()
        })
        .collect()
}

/// The `end` event of process events.
pub fn end_event(events: &[Value]) -> Value {
    let last = events.last().expect("events");
    assert!(
        last["event"]["end"].is_object(),
        "the last event is the end: {last}"
    );
    last["event"]["end"].clone()
}

/// `commands.run(cmd)` as E2B's SDK starts it.
pub fn run(cmd: &str) -> Value {
    serde_json::json!({
        "process": { "cmd": "/bin/bash", "args": ["-l", "-c", cmd], "envs": {} },
        "stdin": false
    })
}
