//! The models: OpenAI-compatible chat completions with native tool calling, streamed
//! (`stream: true`), so OpenAI, OpenRouter, DeepSeek, Ollama, vLLM, llama.cpp's server,
//! LM Studio and the OpenAI-compatible endpoints of Anthropic and Gemini all work by
//! setting a base URL, key and model. [`OpenAiModels`] holds one HTTP client per
//! configured model, built once, and sends each request to the model it names.
//!
//! A streamed answer arrives as SSE chunks; tool calls come in pieces keyed by `index`
//! (id and name first, then the arguments text in fragments) and are put back together
//! here. Providers differ, and these are taken as they come: a call sent whole in one
//! chunk, arguments as a JSON object instead of its text, calls without `index` (told
//! apart by their ids), no `usage` at all (the turn then counts no tokens), and
//! `reasoning_content` beside the answer (dropped: the person gets the answer only).
//! 429, 5xx, connection failures and streams that end before `[DONE]` are retried with
//! exponential back-off (honouring `Retry-After`); other 4xx are the request's fault and
//! are not. Redirects are followed only within the provider's origin, so its key never
//! goes anywhere else.

use std::collections::HashMap;
use std::time::Duration;

use eventsource_stream::Eventsource;
use futures::StreamExt;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, AUTHORIZATION, RETRY_AFTER};
use reqwest::StatusCode;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::config::{LlmConfig, ModelConfig};
use crate::domain::agent::{ChatMessage, Completion, TokenUsage, ToolCallRequest};
use crate::domain::model::ModelName;
use crate::domain::ports::LlmClient;
use crate::domain::tool::ToolSpec;
use crate::domain::{DomainError, DomainResult};

/// Longest wait between retries, whatever `Retry-After` says.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// Every configured model's client, by the model's name.
pub struct OpenAiModels {
    clients: HashMap<ModelName, OpenAiClient>,
}

impl OpenAiModels {
    /// One client per model; `transport` gives the timeouts and retries.
    pub fn new(endpoints: &[(ModelName, ModelConfig)], transport: &LlmConfig) -> anyhow::Result<Self> {
        let clients = endpoints
            .iter()
            .map(|(name, endpoint)| {
                let client = OpenAiClient::new(name, endpoint, transport)
                    .map_err(|err| anyhow::anyhow!("the model `{}`: {err}", name.as_str()))?;
                Ok((name.clone(), client))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(Self { clients })
    }
}

#[async_trait::async_trait]
impl LlmClient for OpenAiModels {
    async fn complete(
        &self,
        model: &ModelName,
        messages: &[ChatMessage],
        tools: &[ToolSpec],
    ) -> DomainResult<Completion> {
        let client = self.clients.get(model).ok_or_else(|| {
            DomainError::Invalid(format!("no model named `{}` is configured", model.as_str()))
        })?;
        client.complete(messages, tools).await
    }
}

/// One model's endpoint.
struct OpenAiClient {
    http: reqwest::Client,
    url: String,
    model: String,
    temperature: Option<f32>,
    max_tokens: Option<u32>,
    chunk_timeout: Duration,
    max_retries: u32,
    retry_base: Duration,
}

/// Why one attempt failed: worth retrying (and after how long, if the server said), or not.
enum Failure {
    Retry { detail: String, after: Option<Duration> },
    Fatal(DomainError),
}

impl OpenAiClient {
    fn new(name: &ModelName, config: &ModelConfig, transport: &LlmConfig) -> anyhow::Result<Self> {
        let mut headers = HeaderMap::new();
        if let Some(key) = config.api_key.as_deref().filter(|k| !k.is_empty()) {
            let mut value = HeaderValue::from_str(&format!("Bearer {key}"))?;
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        for (name, value) in &config.extra_headers {
            headers.insert(
                HeaderName::from_bytes(name.as_bytes())?,
                HeaderValue::from_str(value)?,
            );
        }
        // The key and headers go with every request: never after a redirect elsewhere.
        let http = reqwest::Client::builder()
            .redirect(web_kit::upstream::same_origin_redirects())
            .default_headers(headers)
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(transport.timeout_secs.max(1)))
            .build()?;
        Ok(Self {
            http,
            url: format!("{}/chat/completions", config.base_url.trim_end_matches('/')),
            model: config.model.clone().unwrap_or_else(|| name.as_str().to_owned()),
            temperature: config.temperature,
            max_tokens: config.max_tokens,
            chunk_timeout: Duration::from_secs(transport.chunk_timeout_secs.max(1)),
            max_retries: transport.max_retries,
            retry_base: Duration::from_millis(transport.retry_base_millis),
        })
    }

    async fn attempt(&self, body: &serde_json::Value) -> Result<Completion, Failure> {
        let retry = |detail: String| Failure::Retry { detail, after: None };
        let response = self.http.post(&self.url).json(body).send().await.map_err(|err| {
            match web_kit::upstream::refused_redirect(&err) {
                // Asking again would be redirected again.
                Some(refused) => Failure::Fatal(DomainError::Unavailable {
                    what: "the model provider",
                    detail: refused.to_string(),
                }),
                None => retry(format!("could not reach the model provider: {err}")),
            }
        })?;
        let status = response.status();
        if !status.is_success() {
            let after = response
                .headers()
                .get(RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok())
                .map(Duration::from_secs);
            let text = response.text().await.unwrap_or_default();
            if status.is_client_error() && refuses_tools(&text) {
                return Err(Failure::Fatal(DomainError::Invalid(format!(
                    "it cannot call tools, which the agent needs; pick another model, or mark \
                     this one `supports_tools = false` (the provider answered {status}: {})",
                    excerpt(&text)
                ))));
            }
            let detail = format!("the model provider answered {status}: {}", excerpt(&text));
            return Err(
                if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
                    Failure::Retry { detail, after }
                } else {
                    Failure::Fatal(DomainError::Invalid(detail))
                },
            );
        }
        let mut events = response.bytes_stream().eventsource();
        let mut answer = Assembly::default();
        loop {
            let next = tokio::time::timeout(self.chunk_timeout, events.next())
                .await
                .map_err(|_| retry("the model provider stopped sending mid-answer".into()))?;
            match next {
                None => return Err(retry("the model provider's stream ended before [DONE]".into())),
                Some(Err(err)) => return Err(retry(format!("the model provider's stream broke: {err}"))),
                Some(Ok(event)) if event.data.trim() == "[DONE]" => return Ok(answer.finish()),
                Some(Ok(event)) => {
                    let chunk: Chunk = serde_json::from_str(&event.data).map_err(|err| {
                        Failure::Fatal(DomainError::Invalid(format!(
                            "the model provider sent a chunk that is not chat-completion JSON ({err}): {}",
                            excerpt(&event.data)
                        )))
                    })?;
                    answer.add(chunk);
                }
            }
        }
    }
}

/// A message in the chat-completions shape, which providers insist on: tool calls as
/// `{id, type: "function", function: {name, arguments}}`.
fn wire_message(message: &ChatMessage) -> Value {
    let mut wire = json!({ "role": message.role, "content": message.content });
    if !message.tool_calls.is_empty() {
        let calls: Vec<Value> = message
            .tool_calls
            .iter()
            .map(|c| json!({ "id": c.id, "type": "function", "function": { "name": c.name, "arguments": c.arguments } }))
            .collect();
        wire["tool_calls"] = json!(calls);
    }
    if let Some(id) = &message.tool_call_id {
        wire["tool_call_id"] = json!(id);
    }
    wire
}

impl OpenAiClient {
    async fn complete(&self, messages: &[ChatMessage], tools: &[ToolSpec]) -> DomainResult<Completion> {
        let mut body = json!({
            "model": self.model,
            "messages": messages.iter().map(wire_message).collect::<Vec<_>>(),
            "stream": true,
            "stream_options": { "include_usage": true },
        });
        if !tools.is_empty() {
            let tools: Vec<_> = tools
                .iter()
                .map(|t| json!({ "type": "function", "function": { "name": t.name, "description": t.description, "parameters": t.parameters } }))
                .collect();
            body["tools"] = json!(tools);
        }
        if let Some(temperature) = self.temperature {
            body["temperature"] = json!(temperature);
        }
        if let Some(max_tokens) = self.max_tokens {
            body["max_tokens"] = json!(max_tokens);
        }
        let mut attempt = 0;
        loop {
            match self.attempt(&body).await {
                Ok(completion) => return Ok(completion),
                Err(Failure::Fatal(err)) => return Err(err),
                Err(Failure::Retry { detail, after }) => {
                    if attempt >= self.max_retries {
                        return Err(DomainError::Unavailable {
                            what: "the model provider",
                            detail: format!("{detail} (after {} attempts)", attempt + 1),
                        });
                    }
                    let backoff = after
                        .unwrap_or(self.retry_base * 2u32.pow(attempt))
                        .min(MAX_BACKOFF);
                    tracing::warn!(%detail, attempt, ?backoff, "retrying the model request");
                    tokio::time::sleep(backoff).await;
                    attempt += 1;
                }
            }
        }
    }
}

/// Whether an error names missing tool support, as Ollama (`… does not support tools`),
/// vLLM (`"auto" tool choice requires --enable-auto-tool-choice …`) and others say it.
fn refuses_tools(text: &str) -> bool {
    let text = text.to_lowercase();
    text.contains("does not support tools")
        || text.contains("tool choice requires")
        || (text.contains("tool") && text.contains("not supported"))
}

fn excerpt(text: &str) -> String {
    let cut: String = text.chars().take(300).collect();
    if cut.len() < text.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

#[derive(Deserialize)]
struct Chunk {
    #[serde(default)]
    choices: Vec<Choice>,
    usage: Option<Usage>,
}

#[derive(Deserialize)]
struct Choice {
    #[serde(default)]
    delta: Delta,
}

#[derive(Deserialize, Default)]
struct Delta {
    content: Option<String>,
    #[serde(default)]
    tool_calls: Vec<ToolCallDelta>,
}

#[derive(Deserialize)]
struct ToolCallDelta {
    index: Option<usize>,
    id: Option<String>,
    function: Option<FunctionDelta>,
}

#[derive(Deserialize)]
struct FunctionDelta {
    name: Option<String>,
    /// A fragment of the arguments' text, or (some providers) the arguments as a JSON
    /// object, whole.
    arguments: Option<Value>,
}

#[derive(Deserialize)]
struct Usage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
}

/// A streamed answer being put back together.
#[derive(Default)]
struct Assembly {
    content: String,
    calls: Vec<ToolCallRequest>,
    /// The call each `index` of the stream last meant.
    by_index: HashMap<usize, usize>,
    usage: TokenUsage,
}

impl Assembly {
    fn add(&mut self, chunk: Chunk) {
        if let Some(usage) = chunk.usage {
            self.usage = TokenUsage {
                prompt_tokens: usage.prompt_tokens,
                completion_tokens: usage.completion_tokens,
            };
        }
        for choice in chunk.choices {
            if let Some(text) = choice.delta.content {
                self.content.push_str(&text);
            }
            for delta in choice.delta.tool_calls {
                let at = self.call_for(&delta);
                let call = &mut self.calls[at];
                if let Some(id) = delta.id {
                    call.id = id;
                }
                if let Some(function) = delta.function {
                    call.name.push_str(function.name.as_deref().unwrap_or_default());
                    match function.arguments {
                        Some(Value::String(text)) => call.arguments.push_str(&text),
                        Some(Value::Null) | None => {}
                        Some(whole) => call.arguments.push_str(&whole.to_string()),
                    }
                }
            }
        }
    }

    /// Which call a delta continues, or a new one: a known id names its call; an id new
    /// to its `index` starts a call (providers that number every whole call 0); no id
    /// continues the call at its `index`, or the last one when it has none.
    fn call_for(&mut self, delta: &ToolCallDelta) -> usize {
        let by_id = delta
            .id
            .as_ref()
            .and_then(|id| self.calls.iter().position(|call| &call.id == id));
        let at_index = delta.index.and_then(|index| self.by_index.get(&index).copied());
        let found = match (by_id, at_index, &delta.id) {
            (Some(at), _, _) => Some(at),
            (None, Some(at), Some(_)) if !self.calls[at].id.is_empty() => None,
            (None, Some(at), _) => Some(at),
            (None, None, None) if delta.index.is_none() => self.calls.len().checked_sub(1),
            (None, None, _) => None,
        };
        let at = found.unwrap_or_else(|| {
            self.calls.push(ToolCallRequest {
                id: String::new(),
                name: String::new(),
                arguments: String::new(),
            });
            self.calls.len() - 1
        });
        if let Some(index) = delta.index {
            self.by_index.insert(index, at);
        }
        at
    }

    fn finish(self) -> Completion {
        let tool_calls = self
            .calls
            .into_iter()
            .enumerate()
            .map(|(i, mut call)| {
                // Some servers (older llama.cpp, Ollama) send no ids.
                if call.id.is_empty() {
                    call.id = format!("call_{i}");
                }
                call
            })
            .collect();
        Completion {
            content: Some(self.content).filter(|c| !c.trim().is_empty()),
            tool_calls,
            usage: self.usage,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The calls an answer made of these `tool_calls` deltas (one chunk each) comes to.
    fn calls(deltas: &[Value]) -> Vec<(String, String, String)> {
        let mut answer = Assembly::default();
        for delta in deltas {
            let chunk = json!({ "choices": [{ "delta": { "tool_calls": [delta] } }] });
            answer.add(serde_json::from_value(chunk).unwrap());
        }
        let finished = answer.finish();
        finished
            .tool_calls
            .into_iter()
            .map(|c| (c.id, c.name, c.arguments))
            .collect()
    }

    fn call(id: &str, name: &str, arguments: &str) -> (String, String, String) {
        (id.into(), name.into(), arguments.into())
    }

    #[test]
    fn calls_are_told_apart_however_they_are_numbered() {
        // OpenAI: id and name first, then fragments keyed by index.
        let openai = calls(&[
            json!({ "index": 0, "id": "a", "function": { "name": "f", "arguments": "" } }),
            json!({ "index": 0, "function": { "arguments": "{\"x\":" } }),
            json!({ "index": 0, "function": { "arguments": "1}" } }),
        ]);
        assert_eq!(openai, [call("a", "f", "{\"x\":1}")]);
        // The id repeated in every fragment.
        let repeated = calls(&[
            json!({ "index": 0, "id": "a", "function": { "name": "f", "arguments": "{\"x\":" } }),
            json!({ "index": 0, "id": "a", "function": { "arguments": "1}" } }),
        ]);
        assert_eq!(repeated, [call("a", "f", "{\"x\":1}")]);
        // Whole calls all numbered 0, or not numbered, told apart by their ids.
        for index in [json!(0), Value::Null] {
            let whole = calls(&[
                json!({ "index": index, "id": "a", "function": { "name": "f", "arguments": "{}" } }),
                json!({ "index": index, "id": "b", "function": { "name": "g", "arguments": { "y": 2 } } }),
            ]);
            assert_eq!(whole, [call("a", "f", "{}"), call("b", "g", "{\"y\":2}")]);
        }
        // No ids at all (older llama.cpp, Ollama): numbered in order.
        let anonymous = calls(&[
            json!({ "index": 0, "function": { "name": "f", "arguments": "{}" } }),
            json!({ "index": 1, "function": { "name": "g", "arguments": "{}" } }),
        ]);
        assert_eq!(anonymous, [call("call_0", "f", "{}"), call("call_1", "g", "{}")]);
    }
}
