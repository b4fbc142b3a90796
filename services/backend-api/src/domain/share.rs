//! Replay links: how long one works, whether it still does, and what a replay shows of a
//! session's log — what the replay page draws (messages, the plan, tool calls with their
//! views, questions, errors), never the model's working memory (its whole context),
//! the person's memory notes (the `memory` tool's calls), token counts and costs, or
//! status changes.

use chrono::{DateTime, Duration, Utc};
use rand::distr::{Alphanumeric, SampleString};

use super::error::{DomainError, DomainResult};
use super::event::{AgentEvent, StoredEvent};
use super::memory::MEMORY_TOOL;
use super::session::Session;

/// The length of a link's token.
pub const TOKEN_CHARS: usize = 32;

/// The shortest time a link may be given, in seconds (a minute).
pub const MIN_SECS: u64 = 60;

/// The longest time a link may be given, in seconds (a year).
pub const MAX_SECS: u64 = 365 * 24 * 60 * 60;

/// A new, random link token.
pub fn new_token() -> String {
    Alphanumeric.sample_string(&mut rand::rng(), TOKEN_CHARS)
}

/// When a link given `expires_in_secs` from `now` stops working; `None` never.
pub fn expiry(expires_in_secs: Option<u64>, now: DateTime<Utc>) -> DomainResult<Option<DateTime<Utc>>> {
    match expires_in_secs {
        None => Ok(None),
        Some(secs) if (MIN_SECS..=MAX_SECS).contains(&secs) => {
            // In range, so it fits an i64 and the sum a date.
            Ok(Some(now + Duration::seconds(secs as i64)))
        }
        Some(_) => Err(DomainError::InvalidField {
            field: "expires_in_secs",
            message: format!("give {MIN_SECS} to {MAX_SECS} seconds (a year), or leave it out for a link that works until revoked"),
        }),
    }
}

impl Session {
    /// Whether the session's replay link, if it has one, has stopped working at `now`.
    pub fn share_expired(&self, now: DateTime<Utc>) -> bool {
        self.share_expires_at.is_some_and(|at| at <= now)
    }
}

/// What a replay shows of a stored event, or `None` when it shows nothing of it.
pub fn replayed(stored: StoredEvent) -> Option<StoredEvent> {
    let event = shown(stored.event)?;
    Some(StoredEvent { event, ..stored })
}

/// Every kind is named, so a new one is shared only once someone decides it may be.
fn shown(event: AgentEvent) -> Option<AgentEvent> {
    match event {
        AgentEvent::Tool { ref call, .. } if call.name() == MEMORY_TOOL => None,
        AgentEvent::Message { .. }
        | AgentEvent::Plan { .. }
        | AgentEvent::Step { .. }
        | AgentEvent::Tool { .. }
        | AgentEvent::Title { .. }
        | AgentEvent::Wait { .. }
        | AgentEvent::Done {}
        | AgentEvent::Error { .. } => Some(event),
        AgentEvent::Delegated { call_id, event } => {
            shown_of_sub_agent(*event).map(|event| AgentEvent::Delegated {
                call_id,
                event: Box::new(event),
            })
        }
        AgentEvent::Status { .. } | AgentEvent::Usage { .. } | AgentEvent::Memory { .. } => None,
    }
}

/// A sub-agent's step as the replay draws it under its `delegate` call: its messages,
/// tool calls, questions and errors.
fn shown_of_sub_agent(event: AgentEvent) -> Option<AgentEvent> {
    match event {
        AgentEvent::Message { .. }
        | AgentEvent::Tool { .. }
        | AgentEvent::Wait { .. }
        | AgentEvent::Done {}
        | AgentEvent::Error { .. } => Some(event),
        AgentEvent::Plan { .. }
        | AgentEvent::Step { .. }
        | AgentEvent::Title { .. }
        | AgentEvent::Status { .. }
        | AgentEvent::Usage { .. }
        | AgentEvent::Delegated { .. }
        | AgentEvent::Memory { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::agent::{ChatMessage, ChatRole};
    use crate::domain::event::MessageRole;
    use crate::domain::session::{SessionId, SessionStatus, Title};
    use crate::domain::user::UserId;

    fn stored(event: AgentEvent) -> StoredEvent {
        StoredEvent {
            session_id: SessionId::new(),
            seq: 7,
            at: Utc::now(),
            event,
        }
    }

    fn memory() -> AgentEvent {
        AgentEvent::Memory {
            after: 3,
            messages: vec![ChatMessage::text(ChatRole::System, "the whole context")],
        }
    }

    #[test]
    fn memory_usage_and_status_are_never_replayed_not_even_a_sub_agents() {
        let usage = AgentEvent::Usage {
            prompt_tokens: 1,
            completion_tokens: 1,
            model: Some("big".into()),
            cost: Some(0.5),
        };
        let status = AgentEvent::Status {
            status: SessionStatus::Running,
        };
        for event in [memory(), usage, status] {
            let nested = AgentEvent::Delegated {
                call_id: "c1".into(),
                event: Box::new(event.clone()),
            };
            assert_eq!(replayed(stored(event)), None);
            assert_eq!(replayed(stored(nested)), None);
        }
        let deeper = AgentEvent::Delegated {
            call_id: "c1".into(),
            event: Box::new(AgentEvent::Delegated {
                call_id: "c2".into(),
                event: Box::new(memory()),
            }),
        };
        assert_eq!(replayed(stored(deeper)), None);
    }

    #[test]
    fn what_the_replay_draws_is_replayed_as_it_is() {
        let message = AgentEvent::Message {
            role: MessageRole::Assistant,
            content: "Done!".into(),
            attachments: vec!["/home/sandbox/workspace/a.txt".into()],
        };
        let sub_agents = AgentEvent::Delegated {
            call_id: "c1".into(),
            event: Box::new(message.clone()),
        };
        for event in [message, sub_agents, AgentEvent::Done {}] {
            let event = stored(event);
            assert_eq!(replayed(event.clone()), Some(event));
        }
    }

    #[test]
    fn expiries_are_a_minute_to_a_year_and_old_shares_never_expire() {
        let now = Utc::now();
        assert_eq!(expiry(None, now).unwrap(), None);
        assert_eq!(expiry(Some(3600), now).unwrap(), Some(now + Duration::hours(1)));
        assert!(expiry(Some(MAX_SECS), now).is_ok());
        for bad in [0, MIN_SECS - 1, MAX_SECS + 1, u64::MAX] {
            assert!(matches!(
                expiry(Some(bad), now),
                Err(DomainError::InvalidField {
                    field: "expires_in_secs",
                    ..
                })
            ));
        }

        let mut session = Session::new(UserId::new(), Title::parse("Trip").unwrap(), None, None, now);
        session.share_token = Some(new_token());
        let stored = serde_json::to_value(&session).unwrap();
        assert!(stored.get("share_expires_at").is_none(), "{stored}");
        let old: Session = serde_json::from_value(stored).unwrap();
        assert!(!old.share_expired(now + Duration::days(10_000)));
        session.share_expires_at = Some(now);
        assert!(session.share_expired(now));
        assert!(!session.share_expired(now - Duration::seconds(1)));
    }
}
