//! How a stored event changes its session's summary ([`Session::apply`]): sequence,
//! time, preview and unread count, title, status and token usage. Apart from
//! [`super::session`], since events name sessions and their status.

use super::agent::TokenUsage;
use super::event::{AgentEvent, MessageRole, StoredEvent};
use super::session::{preview, Session, Title};

impl Session {
    /// What an event changes in the summary: sequence, time, preview and unread count,
    /// title, status, token usage.
    pub fn apply(&mut self, event: &StoredEvent) {
        self.last_seq = event.seq;
        self.updated_at = event.at;
        match &event.event {
            AgentEvent::Message { role, content, .. } => {
                self.last_message_preview = Some(preview(content));
                if *role == MessageRole::Assistant {
                    self.unread_count += 1;
                }
            }
            AgentEvent::Title { title } => {
                if let Ok(title) = Title::parse(title) {
                    self.title = title;
                }
            }
            AgentEvent::Status { status } => self.status = *status,
            AgentEvent::Usage {
                prompt_tokens,
                completion_tokens,
                model,
                cost,
            } => {
                let usage = TokenUsage {
                    prompt_tokens: *prompt_tokens,
                    completion_tokens: *completion_tokens,
                };
                self.usage.add(usage);
                if let Some(model) = model {
                    self.usage_by_model.add(model, usage, *cost);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::Utc;

    use super::*;
    use crate::domain::session::SessionStatus;
    use crate::domain::user::UserId;

    #[test]
    fn events_update_the_summary() {
        let now = Utc::now();
        let mut session = Session::new(UserId::new(), Title::parse("New chat").unwrap(), None, None, now);
        let stored = |seq, event| StoredEvent {
            session_id: session.id.clone(),
            seq,
            at: now,
            event,
        };
        let reply = stored(
            1,
            AgentEvent::Message {
                role: MessageRole::Assistant,
                content: "Done!".into(),
                attachments: vec![],
            },
        );
        let title = stored(2, AgentEvent::Title { title: "Trip".into() });
        let status = stored(
            3,
            AgentEvent::Status {
                status: SessionStatus::Running,
            },
        );
        for event in [&reply, &title, &status] {
            session.apply(event);
        }
        assert_eq!(session.last_seq, 3);
        assert_eq!(session.unread_count, 1);
        assert_eq!(session.last_message_preview.as_deref(), Some("Done!"));
        assert_eq!(session.title.as_str(), "Trip");
        assert_eq!(session.status, SessionStatus::Running);
    }

    #[test]
    fn usage_is_summed_in_all_and_by_model() {
        let now = Utc::now();
        let mut session = Session::new(UserId::new(), Title::parse("New chat").unwrap(), None, None, now);
        let usage = |seq, model: Option<&str>, cost| StoredEvent {
            session_id: session.id.clone(),
            seq,
            at: now,
            event: AgentEvent::Usage {
                prompt_tokens: 100,
                completion_tokens: 10,
                model: model.map(str::to_owned),
                cost,
            },
        };
        let events = [
            usage(1, Some("big"), Some(0.5)),
            usage(2, Some("big"), Some(0.25)),
            usage(3, Some("small"), None),
            usage(4, None, None),
        ];
        for event in &events {
            session.apply(event);
        }
        assert_eq!(session.usage.prompt_tokens, 400);
        assert_eq!(session.usage.completion_tokens, 40);
        let by_model: Vec<_> = session
            .usage_by_model
            .entries()
            .iter()
            .map(|u| (u.model.as_str(), u.prompt_tokens, u.completion_tokens, u.cost))
            .collect();
        assert_eq!(by_model, [("big", 200, 20, Some(0.75)), ("small", 100, 10, None)]);
    }
}
