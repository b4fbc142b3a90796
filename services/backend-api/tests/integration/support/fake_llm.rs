//! A scripted OpenAI-compatible chat-completions server on 127.0.0.1:0: each request gets
//! the next scripted reply, streamed as real SSE chunks (tool calls split into deltas the
//! way OpenAI sends them), and every request body is kept for the test to inspect. A
//! [`Provider`] makes it speak like other providers do (their quirks) and names the key
//! it wants. Conversations that run at the same time (sub-agents) get scripts of their
//! own, picked by their task ([`FakeLlm::route`]).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Json;
use serde_json::{json, Value};

#[derive(Clone)]
pub enum Reply {
    /// A plain answer.
    Text(&'static str),
    /// Tool calls: (name, raw arguments text).
    Tools(Vec<(&'static str, String)>),
    /// An error status (with `Retry-After: 0` on 429).
    Status(u16),
    /// Never answers (until the client gives up).
    Hang,
    /// A plain answer after this many milliseconds.
    Slow(u64, &'static str),
    /// The start of an answer, then the stream ends without `[DONE]`.
    Cut,
    /// This reply once the test opens the gate (`notify_one`, before or after the
    /// request arrives).
    Gated(Arc<tokio::sync::Notify>, Box<Reply>),
}

impl Reply {
    /// One tool call with these arguments.
    pub fn tool(name: &'static str, arguments: Value) -> Self {
        Self::Tools(vec![(name, arguments.to_string())])
    }
}

/// How the server speaks, beyond OpenAI's way.
#[derive(Clone)]
pub struct Provider {
    /// The API key it wants (as `Authorization: Bearer …`).
    pub key: &'static str,
    /// Each tool call in one chunk (id, name and all its arguments), without `index`.
    pub whole_calls: bool,
    /// `arguments` as a JSON object rather than its text (with `whole_calls`).
    pub object_arguments: bool,
    /// No `usage` in the stream.
    pub no_usage: bool,
    /// `reasoning_content` deltas before the answer, as DeepSeek and vLLM send them.
    pub reasoning: bool,
    /// Refuses any request with `tools`, as Ollama does for a model without tool support.
    pub no_tools: bool,
}

impl Default for Provider {
    fn default() -> Self {
        Self {
            key: "test-key",
            whole_calls: false,
            object_arguments: false,
            no_usage: false,
            reasoning: false,
            no_tools: false,
        }
    }
}

impl Provider {
    /// OpenAI's way, with this key.
    pub fn with_key(key: &'static str) -> Self {
        Self {
            key,
            ..Self::default()
        }
    }
}

/// What the untrusted block ending `text` (a tool result the model read) wraps; panics
/// when `text` does not end with one block, opened and closed with the same id.
/// The names of the tools a model request offered.
pub fn tool_names(request: &Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| t["function"]["name"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

pub fn untrusted(text: &str) -> &str {
    let (_, rest) = text
        .split_once("<untrusted-output id=\"")
        .unwrap_or_else(|| panic!("not marked untrusted: {text}"));
    let (id, rest) = rest.split_once("\">\n").unwrap();
    rest.strip_suffix(&format!("\n</untrusted-output id=\"{id}\">"))
        .unwrap_or_else(|| panic!("the untrusted block does not close at the end: {text}"))
}

/// What the `reasoning` provider thinks aloud before each answer.
pub const REASONING: &str = "Hmm, the person wants something. Let me think it over.";

struct Script {
    replies: VecDeque<Reply>,
    /// Replies for conversations whose first person (or task) message holds the text.
    routes: Vec<(&'static str, VecDeque<Reply>)>,
    requests: Vec<Value>,
    headers: Vec<HeaderMap>,
    provider: Provider,
}

#[derive(Clone)]
pub struct FakeLlm {
    pub base_url: String,
    script: Arc<Mutex<Script>>,
}

impl FakeLlm {
    pub async fn start(replies: Vec<Reply>) -> Self {
        Self::start_as(Provider::default(), replies).await
    }

    /// A server that speaks like `provider`.
    pub async fn start_as(provider: Provider, replies: Vec<Reply>) -> Self {
        let script = Arc::new(Mutex::new(Script {
            replies: replies.into(),
            routes: Vec::new(),
            requests: Vec::new(),
            headers: Vec::new(),
            provider,
        }));
        let app = axum::Router::new()
            .route("/v1/chat/completions", post(complete))
            .with_state(script.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self { base_url, script }
    }

    /// Answers the conversations whose first user message contains `task` with
    /// `replies` (in order) instead of the main script.
    pub fn route(&self, task: &'static str, replies: Vec<Reply>) {
        self.script.lock().unwrap().routes.push((task, replies.into()));
    }

    /// The request headers received so far.
    pub fn headers(&self) -> Vec<HeaderMap> {
        self.script.lock().unwrap().headers.clone()
    }

    /// The request bodies received so far.
    pub fn requests(&self) -> Vec<Value> {
        self.script.lock().unwrap().requests.clone()
    }

    /// The text of the last message of request `n` (0-based): the tool result or the
    /// person's message the model was answering.
    pub fn last_message_text(&self, n: usize) -> String {
        let requests = self.requests();
        let last = requests[n]["messages"].as_array().unwrap().last().unwrap();
        last["content"].as_str().unwrap().to_owned()
    }

    /// The `model` each request named, in order.
    pub fn models_asked(&self) -> Vec<String> {
        self.requests()
            .iter()
            .map(|r| r["model"].as_str().unwrap_or_default().to_owned())
            .collect()
    }

    /// Settings that list this server as the model `name` with the provider's id `id`
    /// (and its key), beside what [`FakeLlm::settings`] sets for every model.
    pub fn model_settings(&self, name: &str, id: &str) -> Vec<(String, String)> {
        let key = self.script.lock().unwrap().provider.key;
        [
            ("base_url", self.base_url.clone()),
            ("model", id.into()),
            ("api_key", key.into()),
        ]
        .into_iter()
        .map(|(field, value)| (format!("llm.models.{name}.{field}"), value))
        .chain([
            ("llm.retry_base_millis".to_owned(), "10".to_owned()),
            ("agent.enabled".to_owned(), "true".to_owned()),
        ])
        .collect()
    }

    /// Settings that point a backend at this server.
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        vec![
            ("llm.base_url", self.base_url.clone()),
            ("llm.model", "scripted".into()),
            ("llm.api_key", "test-key".into()),
            ("llm.retry_base_millis", "10".into()),
            ("agent.enabled", "true".into()),
        ]
    }
}

fn chunk(delta: Value) -> String {
    format!(
        "data: {}\n\n",
        json!({ "object": "chat.completion.chunk", "choices": [{ "index": 0, "delta": delta }] })
    )
}

/// What a provider refuses in `messages`, as OpenAI does: tool calls not in the
/// `{id, type: "function", function: {name, arguments}}` shape, and calls not answered
/// by `tool` messages right after them (or answers to no call).
fn invalid_conversation(body: &Value) -> Option<String> {
    let messages = body["messages"].as_array()?;
    let mut open: Vec<&str> = Vec::new();
    for (i, message) in messages.iter().enumerate() {
        if message["role"] == "tool" {
            let id = message["tool_call_id"].as_str().unwrap_or_default();
            let Some(at) = open.iter().position(|c| *c == id) else {
                return Some(format!(
                    "messages[{i}]: a tool message must answer a preceding tool call"
                ));
            };
            open.remove(at);
            continue;
        }
        if !open.is_empty() {
            return Some(format!(
                "messages[{i}]: tool calls {open:?} have no tool messages"
            ));
        }
        for (j, call) in message["tool_calls"].as_array().into_iter().flatten().enumerate() {
            let function = &call["function"];
            if call["type"] != "function"
                || !function["name"].is_string()
                || !function["arguments"].is_string()
            {
                return Some(format!("messages[{i}].tool_calls[{j}]: missing type or function"));
            }
            open.push(call["id"].as_str().unwrap_or_default());
        }
    }
    None
}

/// A text answer in two chunks.
fn answer(stream: &mut String, text: &str) {
    let (a, b) = text.split_at(text.len() / 2);
    stream.push_str(&chunk(json!({ "role": "assistant", "content": a })));
    stream.push_str(&chunk(json!({ "content": b })));
}

async fn complete(
    State(script): State<Arc<Mutex<Script>>>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let provider = script.lock().unwrap().provider.clone();
    assert_eq!(headers["authorization"], format!("Bearer {}", provider.key));
    if provider.no_tools && body.get("tools").is_some() {
        let model = body["model"].as_str().unwrap_or_default().to_owned();
        script.lock().unwrap().requests.push(body);
        let error = json!({ "error": { "message": format!("registry.ollama.ai/library/{model} does not support tools") } });
        return (StatusCode::BAD_REQUEST, Json(error)).into_response();
    }
    if let Some(problem) = invalid_conversation(&body) {
        script.lock().unwrap().requests.push(body);
        let error = json!({ "error": { "message": problem, "type": "invalid_request_error" } });
        return (StatusCode::BAD_REQUEST, Json(error)).into_response();
    }
    let reply = {
        let mut script = script.lock().unwrap();
        let first_user = body["messages"]
            .as_array()
            .and_then(|messages| messages.iter().find(|m| m["role"] == "user"))
            .and_then(|m| m["content"].as_str())
            .unwrap_or_default()
            .to_owned();
        script.requests.push(body);
        script.headers.push(headers.clone());
        let script = &mut *script;
        let replies = match script
            .routes
            .iter_mut()
            .find(|(task, _)| first_user.contains(*task))
        {
            Some((_, routed)) => routed,
            None => &mut script.replies,
        };
        replies.pop_front().unwrap_or(Reply::Text("(script ended)"))
    };
    let reply = match reply {
        Reply::Gated(gate, reply) => {
            gate.notified().await;
            *reply
        }
        reply => reply,
    };
    let mut stream = String::new();
    if provider.reasoning {
        for part in REASONING.split_inclusive(". ") {
            stream.push_str(&chunk(
                json!({ "role": "assistant", "content": null, "reasoning_content": part }),
            ));
        }
    }
    match reply {
        Reply::Status(code) => {
            let status = StatusCode::from_u16(code).unwrap();
            return (
                status,
                [("retry-after", "0")],
                Json(json!({ "error": { "message": "scripted failure" } })),
            )
                .into_response();
        }
        Reply::Hang => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
        }
        Reply::Text(text) => answer(&mut stream, text),
        Reply::Gated(..) => unreachable!("taken apart above"),
        Reply::Cut => {
            stream.push_str(&chunk(json!({ "role": "assistant", "content": "Half an ans" })));
            return ([("content-type", "text/event-stream")], stream).into_response();
        }
        Reply::Slow(millis, text) => {
            tokio::time::sleep(Duration::from_millis(millis)).await;
            answer(&mut stream, text);
        }
        Reply::Tools(calls) if provider.whole_calls => {
            for (index, (name, arguments)) in calls.into_iter().enumerate() {
                let arguments = if provider.object_arguments {
                    serde_json::from_str(&arguments).unwrap()
                } else {
                    Value::String(arguments)
                };
                let id = format!("call_{}_{index}", name);
                stream.push_str(&chunk(json!({ "tool_calls": [{ "id": id, "type": "function", "function": { "name": name, "arguments": arguments } }] })));
            }
        }
        Reply::Tools(calls) => {
            for (index, (name, arguments)) in calls.into_iter().enumerate() {
                let id = format!("call_{}_{index}", name);
                stream.push_str(&chunk(json!({ "tool_calls": [{ "index": index, "id": id, "type": "function", "function": { "name": name, "arguments": "" } }] })));
                let (a, b) = arguments.split_at(arguments.len() / 2);
                for part in [a, b] {
                    stream.push_str(&chunk(
                        json!({ "tool_calls": [{ "index": index, "function": { "arguments": part } }] }),
                    ));
                }
            }
        }
    }
    if !provider.no_usage {
        stream.push_str(&format!(
            "data: {}\n\n",
            json!({ "choices": [], "usage": { "prompt_tokens": 100, "completion_tokens": 20 } })
        ));
    }
    stream.push_str("data: [DONE]\n\n");
    ([("content-type", "text/event-stream")], stream).into_response()
}
