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

mod assembly;

use std::collections::HashMap;
use std::time::Duration;

use eventsource_stream::Eventsource;
use futures::StreamExt;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, AUTHORIZATION, RETRY_AFTER};
use reqwest::StatusCode;
use serde_json::{json, Value};

use self::assembly::{Assembly, Chunk};
use crate::config::{LlmConfig, ModelConfig};
use crate::domain::agent::{ChatMessage, Completion};
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
