//! A streamed chat completion put back together: the SSE chunks' wire shape, and the
//! [`Assembly`] that joins content, tool-call pieces (keyed by `index`, or by id when a
//! provider sends none) and usage into one [`Completion`].

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use crate::domain::agent::{Completion, TokenUsage, ToolCallRequest};

#[derive(Deserialize)]
pub(super) struct Chunk {
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
pub(super) struct Assembly {
    content: String,
    calls: Vec<ToolCallRequest>,
    /// The call each `index` of the stream last meant.
    by_index: HashMap<usize, usize>,
    usage: TokenUsage,
}

impl Assembly {
    pub(super) fn add(&mut self, chunk: Chunk) {
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

    pub(super) fn finish(self) -> Completion {
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
    use serde_json::json;

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
