//! The agent's memory across turns: each model request leaves a `memory` event with the
//! model's answer, its tool calls and their results as the model saw them, and a new
//! turn (or a restarted backend) rebuilds the whole working history from the log.
//!
//! Person messages are placed where the model first read them: a message sent while a
//! request was being worked on reached the model after that request's results, although
//! the log holds it earlier. Logs written before memory events existed still give the
//! chat's texts (assistant messages and questions outside any memory event).

use crate::domain::agent::{ChatMessage, ChatRole};
use crate::domain::event::{AgentEvent, MessageRole, StoredEvent};

use super::prompt;

/// What a tool call the turn ended before running tells the model.
const NOT_RUN: &str = "[not run: the turn ended before this call]";

/// The conversation (without the system prompt) the events of earlier turns hold.
pub fn rebuild(events: &[StoredEvent]) -> Vec<ChatMessage> {
    // Assistant texts a memory event holds: the seqs in (after, memory's seq].
    let covered: Vec<(u64, u64)> = events
        .iter()
        .filter_map(|stored| match &stored.event {
            AgentEvent::Memory { after, .. } => Some((*after, stored.seq)),
            _ => None,
        })
        .collect();
    let is_covered = |seq: u64| covered.iter().any(|&(from, to)| from < seq && seq <= to);

    // (read at, after the event read at?, messages): a memory event follows the event it
    // was read up to; everything else sits at its own place.
    let mut placed: Vec<(u64, bool, Vec<ChatMessage>)> = Vec::new();
    for stored in events {
        let at = stored.seq;
        match &stored.event {
            AgentEvent::Message {
                role: MessageRole::User,
                content,
                attachments,
            } => placed.push((
                at,
                false,
                vec![ChatMessage::text(
                    ChatRole::User,
                    prompt::with_attachments(content.clone(), attachments),
                )],
            )),
            AgentEvent::Memory { after, messages } => placed.push((*after, true, messages.clone())),
            AgentEvent::Message {
                role: MessageRole::Assistant,
                content,
                ..
            } if !is_covered(at) => {
                placed.push((
                    at,
                    false,
                    vec![ChatMessage::text(ChatRole::Assistant, content.clone())],
                ));
            }
            AgentEvent::Wait {
                prompt: Some(question),
                ..
            } if !is_covered(at) => {
                placed.push((
                    at,
                    false,
                    vec![ChatMessage::text(ChatRole::Assistant, question.clone())],
                ));
            }
            _ => {}
        }
    }
    placed.sort_by_key(|(at, after, _)| (*at, *after));
    placed.into_iter().flat_map(|(_, _, messages)| messages).collect()
}

/// Answers every tool call of `messages` that has no result yet, so the conversation
/// stays one a model accepts (each call answered before the next request).
pub fn answer_unanswered(messages: &mut Vec<ChatMessage>) {
    let calls: Vec<String> = messages
        .iter()
        .flat_map(|m| m.tool_calls.iter().map(|c| c.id.clone()))
        .collect();
    for id in calls {
        let answered = messages
            .iter()
            .any(|m| m.role == ChatRole::Tool && m.tool_call_id.as_deref() == Some(id.as_str()));
        if !answered {
            messages.push(ChatMessage::tool_result(&id, NOT_RUN));
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::Utc;

    use super::*;
    use crate::domain::agent::ToolCallRequest;
    use crate::domain::session::SessionId;

    fn stored(seq: u64, event: AgentEvent) -> StoredEvent {
        StoredEvent {
            session_id: SessionId::new(),
            seq,
            at: Utc::now(),
            event,
        }
    }

    fn person(text: &str) -> AgentEvent {
        AgentEvent::Message {
            role: MessageRole::User,
            content: text.into(),
            attachments: Vec::new(),
        }
    }

    fn assistant(text: &str) -> AgentEvent {
        AgentEvent::Message {
            role: MessageRole::Assistant,
            content: text.into(),
            attachments: Vec::new(),
        }
    }

    fn memory(after: u64, messages: Vec<ChatMessage>) -> AgentEvent {
        AgentEvent::Memory { after, messages }
    }

    fn call(id: &str) -> ChatMessage {
        ChatMessage {
            role: ChatRole::Assistant,
            content: Some("Reading it.".into()),
            tool_calls: vec![ToolCallRequest {
                id: id.into(),
                name: "file_read".into(),
                arguments: r#"{"path":"a.txt"}"#.into(),
            }],
            tool_call_id: None,
        }
    }

    fn roles_and_texts(messages: &[ChatMessage]) -> Vec<(ChatRole, &str)> {
        messages
            .iter()
            .map(|m| (m.role, m.content.as_deref().unwrap_or("")))
            .collect()
    }

    #[test]
    fn memory_events_give_calls_and_results_and_replace_the_texts_they_hold() {
        let events = [
            stored(1, person("Read a.txt")),
            stored(2, assistant("Reading it.")),
            stored(
                3,
                memory(1, vec![call("c1"), ChatMessage::tool_result("c1", "alpha")]),
            ),
            stored(4, assistant("It says alpha.")),
            stored(
                5,
                memory(3, vec![ChatMessage::text(ChatRole::Assistant, "It says alpha.")]),
            ),
        ];
        let rebuilt = rebuild(&events);
        assert_eq!(
            roles_and_texts(&rebuilt),
            [
                (ChatRole::User, "Read a.txt"),
                (ChatRole::Assistant, "Reading it."),
                (ChatRole::Tool, "alpha"),
                (ChatRole::Assistant, "It says alpha."),
            ]
        );
        assert_eq!(rebuilt[1].tool_calls[0].name, "file_read");
        assert_eq!(rebuilt[2].tool_call_id.as_deref(), Some("c1"));
    }

    #[test]
    fn a_message_sent_during_a_request_comes_after_its_results() {
        let events = [
            stored(1, person("Read a.txt")),
            stored(2, person("and then b.txt")),
            stored(
                3,
                memory(1, vec![call("c1"), ChatMessage::tool_result("c1", "alpha")]),
            ),
        ];
        let rebuilt = rebuild(&events);
        assert_eq!(
            roles_and_texts(&rebuilt),
            [
                (ChatRole::User, "Read a.txt"),
                (ChatRole::Assistant, "Reading it."),
                (ChatRole::Tool, "alpha"),
                (ChatRole::User, "and then b.txt"),
            ]
        );
    }

    #[test]
    fn logs_without_memory_events_still_give_the_chat() {
        let events = [
            stored(1, person("Book a trip")),
            stored(
                2,
                AgentEvent::Wait {
                    prompt: Some("Which city?".into()),
                    take_over: false,
                },
            ),
            stored(3, person("Paris")),
            stored(4, assistant("Paris it is.")),
        ];
        assert_eq!(
            roles_and_texts(&rebuild(&events)),
            [
                (ChatRole::User, "Book a trip"),
                (ChatRole::Assistant, "Which city?"),
                (ChatRole::User, "Paris"),
                (ChatRole::Assistant, "Paris it is."),
            ]
        );
    }

    #[test]
    fn calls_the_turn_ended_before_are_answered() {
        let mut two_calls = call("c1");
        two_calls.tool_calls.push(ToolCallRequest {
            id: "c2".into(),
            name: "shell_exec".into(),
            arguments: "{}".into(),
        });
        let mut messages = vec![two_calls, ChatMessage::tool_result("c1", "alpha")];
        answer_unanswered(&mut messages);
        assert_eq!(messages.len(), 3);
        assert_eq!(messages[2].tool_call_id.as_deref(), Some("c2"));
        assert_eq!(messages[2].content.as_deref(), Some(NOT_RUN));
        answer_unanswered(&mut messages);
        assert_eq!(messages.len(), 3, "answered calls are left alone");
    }
}
