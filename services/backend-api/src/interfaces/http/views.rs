//! What the API returns for users, sessions, MCP servers, API keys and memory: the
//! stored records minus what a client must not see (password hashes, header and
//! environment values, API keys' digests), in the shape the front end uses.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::application::auth::TokenPair;
use crate::domain::agent::TokenUsage;
use crate::domain::api_key::{ApiKey, ApiKeyScope, ApiKeySecret};
use crate::domain::mcp::{McpServer, McpTransport};
use crate::domain::mcp_edit::McpTransportKind;
use crate::domain::memory::{Memory, MemoryNote};
use crate::domain::model::ModelUsage;
use crate::domain::session::{Session, SessionStatus};
use crate::domain::user::{Role, User};

#[derive(Serialize, ToSchema)]
pub struct UserView {
    pub id: String,
    pub email: String,
    pub role: Role,
    pub active: bool,
    pub created_at: DateTime<Utc>,
}

impl From<&User> for UserView {
    fn from(user: &User) -> Self {
        Self {
            id: user.id.as_str().to_owned(),
            email: user.email.as_str().to_owned(),
            role: user.role,
            active: user.active,
            created_at: user.created_at,
        }
    }
}

/// A signed-in user and their access token (the refresh token is in the
/// `sandpiper_refresh` cookie the same answer sets).
#[derive(Serialize, ToSchema)]
pub struct SignedIn {
    pub user: UserView,
    pub tokens: AccessToken,
}

/// The access token of a sign-in. Its refresh token is never in a body: the answer sets
/// it as an `HttpOnly` cookie that only `/auth/refresh` and `/auth/logout` receive.
#[derive(Serialize, ToSchema)]
pub struct AccessToken {
    pub access_token: String,
    pub token_type: &'static str,
    /// Seconds until the access token expires.
    pub expires_in: u64,
}

impl From<&TokenPair> for AccessToken {
    fn from(pair: &TokenPair) -> Self {
        Self {
            access_token: pair.access_token.clone(),
            token_type: "Bearer",
            expires_in: pair.expires_in,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct SessionView {
    pub id: String,
    pub title: String,
    pub status: SessionStatus,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The start of the last message.
    pub last_message_preview: Option<String>,
    /// Assistant messages the owner has not read.
    pub unread_count: u64,
    /// Sequence number of the last event (0: none yet).
    pub last_seq: u64,
    /// Present while the session is shared: the replay link's token.
    pub share_token: Option<String>,
    /// When the replay link stops working (absent: it works until revoked). A link
    /// whose time has passed is refused; sharing again makes a new one.
    pub share_expires_at: Option<DateTime<Utc>>,
    /// The model's tokens over the whole session.
    pub usage: TokenUsage,
    /// The model the session's next turn asks (absent: the default one).
    pub model: Option<String>,
    /// `usage` by the model that used the tokens, in the order first used, with their
    /// cost where the model has prices.
    pub usage_by_model: Vec<ModelUsage>,
}

impl From<&Session> for SessionView {
    fn from(session: &Session) -> Self {
        Self {
            id: session.id.as_str().to_owned(),
            title: session.title.as_str().to_owned(),
            status: session.status,
            created_at: session.created_at,
            updated_at: session.updated_at,
            last_message_preview: session.last_message_preview.clone(),
            unread_count: session.unread_count,
            last_seq: session.last_seq,
            share_token: session.share_token.clone(),
            share_expires_at: session.share_expires_at,
            usage: session.usage,
            model: session.model.as_ref().map(|m| m.as_str().to_owned()),
            usage_by_model: session.usage_by_model.entries().to_vec(),
        }
    }
}

/// A page of the caller's sessions, newest first.
#[derive(Serialize, ToSchema)]
pub struct SessionPage {
    pub sessions: Vec<SessionView>,
    /// Pass as `before` for the next page; absent on the last page.
    pub next_before: Option<String>,
}

/// An MCP server as an admin sees it: its configuration with the names of its headers
/// and environment variables, never their values.
#[derive(Serialize, ToSchema)]
pub struct McpServerView {
    pub name: String,
    pub transport: McpTransportKind,
    pub enabled: bool,
    /// `http`: the address, as stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// `http`: the headers sent, by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header_names: Option<Vec<String>>,
    /// `stdio`: the program.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<String>>,
    /// `stdio`: the environment variables set, by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub env_names: Option<Vec<String>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl From<&McpServer> for McpServerView {
    fn from(server: &McpServer) -> Self {
        let names =
            |secrets: &std::collections::BTreeMap<String, String>| Some(secrets.keys().cloned().collect());
        let mut view = Self {
            name: server.name.as_str().to_owned(),
            transport: server.transport.kind(),
            enabled: server.enabled,
            url: None,
            header_names: None,
            command: None,
            args: None,
            env_names: None,
            created_at: server.created_at,
            updated_at: server.updated_at,
        };
        match &server.transport {
            McpTransport::Http { url, headers } => {
                view.url = Some(url.clone());
                view.header_names = names(headers);
            }
            McpTransport::Stdio { command, args, env } => {
                view.command = Some(command.clone());
                view.args = Some(args.clone());
                view.env_names = names(env);
            }
        }
        view
    }
}

/// A personal API key as its owner sees it; never its secret.
#[derive(Serialize, ToSchema)]
pub struct ApiKeyView {
    pub id: String,
    pub name: String,
    /// The key's first characters after `sp_`, to tell keys apart.
    pub prefix: String,
    pub scope: ApiKeyScope,
    pub created_at: DateTime<Utc>,
    /// Absent: it never expires.
    pub expires_at: Option<DateTime<Utc>>,
    /// Absent: never used. Like `requests`, written every few seconds, so it may lag.
    pub last_used_at: Option<DateTime<Utc>>,
    /// Requests made while the key was valid and within its rate limit, whatever they
    /// answered.
    pub requests: u64,
    /// The model's tokens over the jobs made with the key, counted when each ends.
    pub tokens: TokenUsage,
}

impl From<&ApiKey> for ApiKeyView {
    fn from(key: &ApiKey) -> Self {
        Self {
            id: key.id.as_str().to_owned(),
            name: key.name.as_str().to_owned(),
            prefix: key.prefix.clone(),
            scope: key.scope,
            created_at: key.created_at,
            expires_at: key.expires_at,
            last_used_at: key.last_used_at,
            requests: key.requests,
            tokens: key.tokens,
        }
    }
}

/// A new API key, with its secret: shown in this answer only.
#[derive(Serialize, ToSchema)]
pub struct NewApiKey {
    #[serde(flatten)]
    pub details: ApiKeyView,
    /// The key itself (`sp_…`), to send as `Authorization: Bearer <key>`.
    pub key: String,
}

impl NewApiKey {
    pub fn new(key: &ApiKey, secret: &ApiKeySecret) -> Self {
        Self {
            details: ApiKeyView::from(key),
            key: secret.expose().to_owned(),
        }
    }
}

/// An API key in the admins' list, with its owner.
#[derive(Serialize, ToSchema)]
pub struct OwnedApiKeyView {
    #[serde(flatten)]
    pub details: ApiKeyView,
    pub owner_id: String,
    pub owner_email: String,
}

impl From<&ApiKey> for OwnedApiKeyView {
    fn from(key: &ApiKey) -> Self {
        Self {
            details: ApiKeyView::from(key),
            owner_id: key.owner.as_str().to_owned(),
            owner_email: key.owner_email.clone(),
        }
    }
}

/// A person's memory across chats: whether it is on, and their notes, oldest first.
#[derive(Serialize, ToSchema)]
pub struct MemoryView {
    /// Off by default; while off, the agent keeps no notes and new chats get none.
    pub enabled: bool,
    pub notes: Vec<MemoryNoteView>,
}

/// One note of a person's memory, with the chat that wrote it.
#[derive(Serialize, ToSchema)]
pub struct MemoryNoteView {
    pub id: String,
    pub text: String,
    /// The session (chat) whose agent wrote the note.
    pub session_id: String,
    pub created_at: DateTime<Utc>,
    /// Written after its chat read content from outside (a page, a file, a tool's
    /// result): no chat gets it until you approve it.
    pub pending: bool,
    /// The note it takes the place of once approved.
    pub replaces: Option<String>,
}

impl From<&MemoryNote> for MemoryNoteView {
    fn from(note: &MemoryNote) -> Self {
        Self {
            id: note.id.as_str().to_owned(),
            text: note.text.clone(),
            session_id: note.session_id.as_str().to_owned(),
            created_at: note.created_at,
            pending: note.pending,
            replaces: note.replaces.as_ref().map(|id| id.as_str().to_owned()),
        }
    }
}

impl From<&Memory> for MemoryView {
    fn from(memory: &Memory) -> Self {
        Self {
            enabled: memory.enabled,
            notes: memory.notes.iter().map(MemoryNoteView::from).collect(),
        }
    }
}
