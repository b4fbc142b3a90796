//! Chat sessions: one conversation with the agent, owned by one user, with the summary
//! the sessions list shows (title, status, last message, unread count).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::agent::TokenUsage;
use super::error::{DomainError, DomainResult};
use super::model::{ModelName, UsageByModel};
use super::user::UserId;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SessionId(pub String);

impl SessionId {
    /// Time-ordered (UUID v7), so ids sort newest last.
    pub fn new() -> Self {
        Self(uuid::Uuid::now_v7().to_string())
    }

    /// An id from a URL: anything that is not one of ours is simply not found.
    pub fn parse(raw: &str) -> DomainResult<Self> {
        uuid::Uuid::parse_str(raw)
            .map(|id| Self(id.to_string()))
            .map_err(|_| DomainError::NotFound("session"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for SessionId {
    fn default() -> Self {
        Self::new()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SessionStatus {
    /// Created, nothing asked yet.
    Pending,
    /// The agent is working.
    Running,
    /// The agent asked the person something.
    Waiting,
    Completed,
    Failed,
}

/// Whether a session's sandboxes may reach the internet. Chosen when the session is
/// made (a job's `network`) and kept by every sandbox it gets: its sub-agents' own, and
/// one made again after the last was removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Network {
    Internet,
    Offline,
}

impl Network {
    pub fn parse(raw: &str) -> DomainResult<Self> {
        match raw {
            "internet" => Ok(Self::Internet),
            "offline" => Ok(Self::Offline),
            _ => Err(DomainError::InvalidField {
                field: "network",
                message: "internet or offline".into(),
            }),
        }
    }

    /// Its name, as [`Network::parse`] takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Internet => "internet",
            Self::Offline => "offline",
        }
    }
}

/// A session title: trimmed, 1–200 characters, no control characters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Title(String);

impl Title {
    pub const MAX_CHARS: usize = 200;

    pub fn parse(raw: &str) -> DomainResult<Self> {
        let title = raw.trim();
        if title.is_empty() || title.chars().count() > Self::MAX_CHARS || title.chars().any(char::is_control)
        {
            return Err(DomainError::Invalid(format!(
                "a title has 1 to {} characters and no control characters",
                Self::MAX_CHARS
            )));
        }
        Ok(Self(title.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub id: SessionId,
    pub owner: UserId,
    pub title: Title,
    pub status: SessionStatus,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The start of the last message, for the sessions list.
    pub last_message_preview: Option<String>,
    /// Assistant messages since the owner last read the session.
    pub unread_count: u64,
    /// Sequence number of the last event in its log (0: none yet).
    pub last_seq: u64,
    /// When set, anyone with this token can replay the session read-only.
    pub share_token: Option<String>,
    /// When the replay link stops working; `None` (and every share stored before links
    /// could expire) until its owner revokes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share_expires_at: Option<DateTime<Utc>>,
    /// The model's tokens over the whole session. Absent while zero, so records stored
    /// before it existed compare equal to what is read back from them.
    #[serde(default, skip_serializing_if = "TokenUsage::is_empty")]
    pub usage: TokenUsage,
    /// The model its turns ask; `None` (sessions from before models could be picked, or
    /// with none configured) asks the default one. A change applies from the next turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelName>,
    /// `usage` by model name, with costs where the model has prices.
    #[serde(default, skip_serializing_if = "UsageByModel::is_empty")]
    pub usage_by_model: UsageByModel,
    /// The network of every sandbox the session gets; `None` (chats, and sessions from
    /// before it was kept) leaves it to the sandbox-manager's default. Never changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<Network>,
    /// Whether a job (made by the jobs API or by an automation) made or continued it:
    /// from then on its turns get none of the person's memory, neither their notes nor
    /// the `memory` tool, since a job's prompt may carry anyone's text (a webhook's body).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub headless: bool,
}

impl Session {
    /// Whether its sandboxes may reach the internet, and so whatever its agent uses on
    /// its behalf (web search, MCP servers the backend calls).
    pub fn reaches_internet(&self) -> bool {
        self.network != Some(Network::Offline)
    }

    pub fn new(
        owner: UserId,
        title: Title,
        model: Option<ModelName>,
        network: Option<Network>,
        now: DateTime<Utc>,
    ) -> Self {
        Self {
            id: SessionId::new(),
            owner,
            title,
            status: SessionStatus::Pending,
            created_at: now,
            updated_at: now,
            last_message_preview: None,
            unread_count: 0,
            last_seq: 0,
            share_token: None,
            share_expires_at: None,
            usage: TokenUsage::default(),
            model,
            usage_by_model: UsageByModel::default(),
            network,
            headless: false,
        }
    }
}

impl Session {
    /// `self` (as stored now) with the edits a person made to `edited` (a copy read
    /// earlier): title, model, replay link, and the read state — the latter only if no
    /// event arrived in between, so an unread message is never marked read unseen.
    pub fn merge_edits(&self, edited: Session) -> Session {
        let unread_count = if edited.last_seq == self.last_seq {
            edited.unread_count
        } else {
            self.unread_count
        };
        Session {
            title: edited.title,
            model: edited.model,
            share_token: edited.share_token,
            share_expires_at: edited.share_expires_at,
            unread_count,
            updated_at: self.updated_at.max(edited.updated_at),
            // Once a job's, always: a copy read before a job took the session keeps it.
            headless: self.headless || edited.headless,
            ..self.clone()
        }
    }
}

/// How long a message preview may be, in characters.
pub const PREVIEW_CHARS: usize = 120;

/// The first [`PREVIEW_CHARS`] characters of `text` on one line.
pub fn preview(text: &str) -> String {
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= PREVIEW_CHARS {
        line
    } else {
        let mut cut: String = line.chars().take(PREVIEW_CHARS - 1).collect();
        cut.push('…');
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_trimmed_and_bounded() {
        assert_eq!(Title::parse("  Plan a trip ").unwrap().as_str(), "Plan a trip");
        assert!(Title::parse("   ").is_err());
        assert!(Title::parse(&"x".repeat(201)).is_err());
        assert!(Title::parse("a\u{0007}b").is_err());
    }

    #[test]
    fn previews_are_one_short_line() {
        assert_eq!(preview("hello\n  world"), "hello world");
        let long = preview(&"word ".repeat(100));
        assert_eq!(long.chars().count(), PREVIEW_CHARS);
        assert!(long.ends_with('…'));
    }

    #[test]
    fn networks_are_named_and_old_records_leave_it_to_the_default() {
        assert_eq!(Network::parse("offline").unwrap(), Network::Offline);
        assert!(Network::parse("lan").is_err());
        let mut session = Session::new(
            UserId::new(),
            Title::parse("Job").unwrap(),
            None,
            None,
            Utc::now(),
        );
        let mut stored = serde_json::to_value(&session).unwrap();
        assert!(stored.get("network").is_none(), "{stored}");
        let old: Session = serde_json::from_value(stored.clone()).unwrap();
        assert_eq!(old.network, None);
        session.network = Some(Network::Offline);
        stored["network"] = "offline".into();
        assert_eq!(serde_json::to_value(&session).unwrap(), stored);
    }

    #[test]
    fn foreign_ids_are_not_found() {
        assert!(matches!(SessionId::parse("../x"), Err(DomainError::NotFound(_))));
        let id = SessionId::new();
        assert_eq!(SessionId::parse(id.as_str()).unwrap(), id);
    }
}
