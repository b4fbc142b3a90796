//! The MongoDB adapter: users, sessions, event logs, refresh tokens, images, MCP
//! servers, API keys, jobs and their attachments, people's memory, the MCP servers the
//! agent registered, with the official driver, for deployments that run several
//! replicas or want the usual database tooling.
//!
//! Records are the domain types serialised as they are (MongoDB adds its own `_id`; an
//! event's `_id` is chosen by its append, see `sessions`); the ids the domain knows are
//! unique indexes. Indexes are created at start-up, so a fresh
//! database needs no migration step. Where two writers could race (event numbering,
//! refresh-token use, a rename beside an append) the writes are conditional updates,
//! not read-modify-write, so no multi-document transaction (and no replica set) is needed.

mod agent_servers;
mod api_keys;
mod automation_files;
mod automations;
mod e2b_sandboxes;
mod images;
mod job_attachments;
mod jobs;
mod mcp_servers;
mod memory;
mod sessions;
mod tokens;
mod toolbox;
mod users;

use std::time::Duration;

use anyhow::Context;
use futures::TryStreamExt;
use mongodb::bson::{doc, Document};
use mongodb::error::{Error, ErrorKind, WriteFailure};
use mongodb::options::{ClientOptions, IndexOptions};
use mongodb::{Client, Collection, Database, IndexModel};

use crate::domain::agent_server::AgentServer;
use crate::domain::api_key::ApiKey;
use crate::domain::e2b::E2bSandbox;
use crate::domain::event::StoredEvent;
use crate::domain::job::Job;
use crate::domain::mcp::McpServer;
use crate::domain::memory::Memory;
use crate::domain::ports::RefreshToken;
use crate::domain::session::Session;
use crate::domain::user::User;
use crate::domain::{DomainError, DomainResult};

/// How long a request waits for a reachable server before it fails with 503. The
/// driver's default (30 s) would hold requests far longer than a person waits.
const SERVER_SELECTION_TIMEOUT: Duration = Duration::from_secs(3);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// The error code of a unique-index violation.
const DUPLICATE_KEY: i32 = 11000;

#[derive(Clone)]
pub struct MongoStore {
    db: Database,
    users: Collection<User>,
    sessions: Collection<Session>,
    events: Collection<StoredEvent>,
    refresh_tokens: Collection<RefreshToken>,
    images: Collection<Document>,
    mcp_servers: Collection<McpServer>,
    /// `{name}` of every server the `MCP_CONFIG` file has seeded.
    mcp_seeded: Collection<Document>,
    api_keys: Collection<ApiKey>,
    jobs: Collection<Job>,
    /// The files of jobs not yet started, in pieces.
    job_attachments: Collection<Document>,
    /// Sandboxes rented through the E2B-compatible API.
    e2b_sandboxes: Collection<E2bSandbox>,
    /// Each person's memory across chats, and `{owner, session_id, prompt}`: the part of
    /// it each chat's prompt was given.
    memories: Collection<Memory>,
    memory_prompts: Collection<Document>,
    /// The MCP servers the agent registered, by session and name.
    agent_servers: Collection<AgentServer>,
}

impl MongoStore {
    /// Connects to `uri`, uses `database`, and creates the indexes it relies on.
    pub async fn connect(uri: &str, database: &str) -> anyhow::Result<Self> {
        let mut options = ClientOptions::parse(uri).await.context("parsing MONGODB_URI")?;
        options.app_name = Some("sandpiper-backend".into());
        options.server_selection_timeout = Some(SERVER_SELECTION_TIMEOUT);
        options.connect_timeout = Some(CONNECT_TIMEOUT);
        let db = Client::with_options(options)
            .context("configuring the MongoDB client")?
            .database(database);
        let store = Self {
            users: db.collection("users"),
            sessions: db.collection("sessions"),
            events: db.collection("events"),
            refresh_tokens: db.collection("refresh_tokens"),
            // Named when it held screenshots only.
            images: db.collection("screenshots"),
            mcp_servers: db.collection("mcp_servers"),
            mcp_seeded: db.collection("mcp_seeded"),
            api_keys: db.collection("api_keys"),
            jobs: db.collection("jobs"),
            job_attachments: db.collection("job_attachments"),
            e2b_sandboxes: db.collection("e2b_sandboxes"),
            memories: db.collection("memories"),
            memory_prompts: db.collection("memory_prompts"),
            agent_servers: db.collection("agent_servers"),
            db,
        };
        store.create_indexes().await.with_context(|| {
            format!("creating indexes in MongoDB database '{database}' (is MongoDB reachable?)")
        })?;
        Ok(store)
    }

    async fn create_indexes(&self) -> Result<(), Error> {
        let unique = |keys| {
            IndexModel::builder()
                .keys(keys)
                .options(IndexOptions::builder().unique(true).build())
                .build()
        };
        let plain = |keys| IndexModel::builder().keys(keys).build();
        self.users
            .create_indexes([unique(doc! { "id": 1 }), unique(doc! { "email": 1 })])
            .await?;
        self.sessions
            .create_indexes([
                unique(doc! { "id": 1 }),
                // The sessions list: one owner's, newest first.
                plain(doc! { "owner": 1, "id": -1 }),
                plain(doc! { "share_token": 1 }),
                plain(doc! { "status": 1 }),
            ])
            .await?;
        // Also what makes a sequence number impossible to hand out twice.
        self.events
            .create_index(unique(doc! { "session_id": 1, "seq": 1 }))
            .await?;
        self.refresh_tokens
            .create_indexes([
                unique(doc! { "hash": 1 }),
                plain(doc! { "family": 1 }),
                plain(doc! { "user_id": 1 }),
            ])
            .await?;
        // Removing a session removes its images by this.
        self.images.create_index(plain(doc! { "session_id": 1 })).await?;
        self.mcp_servers.create_index(unique(doc! { "name": 1 })).await?;
        self.mcp_seeded.create_index(unique(doc! { "name": 1 })).await?;
        self.api_keys
            .create_indexes([
                unique(doc! { "id": 1 }),
                unique(doc! { "digest": 1 }),
                plain(doc! { "owner": 1, "id": 1 }),
            ])
            .await?;
        self.jobs
            .create_indexes([
                unique(doc! { "id": 1 }),
                // The jobs list: one owner's, newest first.
                plain(doc! { "owner": 1, "id": -1 }),
                // The queue and recovery after a restart.
                plain(doc! { "status": 1, "id": 1 }),
            ])
            .await?;
        self.job_attachments
            .create_index(plain(doc! { "job_id": 1, "name": 1, "n": 1 }))
            .await?;
        self.e2b_sandboxes
            .create_indexes([
                unique(doc! { "id": 1 }),
                plain(doc! { "owner": 1, "id": 1 }),
                // The sweep that ends sandboxes whose time is up.
                plain(doc! { "end_at": 1 }),
                // The running ones, which signed file links are checked against.
                plain(doc! { "state": 1 }),
            ])
            .await?;
        self.memories.create_index(unique(doc! { "owner": 1 })).await?;
        self.memory_prompts
            .create_indexes([
                unique(doc! { "owner": 1, "session_id": 1 }),
                // Removing a session removes its prompt part by this.
                plain(doc! { "session_id": 1 }),
            ])
            .await?;
        self.agent_servers
            .create_index(unique(doc! { "session_id": 1, "name": 1 }))
            .await?;
        automations::create_indexes(&self.db).await?;
        toolbox::create_indexes(&self.db).await?;
        Ok(())
    }

    /// Whether the server answers.
    async fn ping(&self) -> DomainResult<()> {
        self.db.run_command(doc! { "ping": 1 }).await.map_err(failure)?;
        Ok(())
    }
}

/// A driver error as the domain sees it: an unreachable server is `Unavailable` (503,
/// retry later); anything else is internal.
fn failure(err: Error) -> DomainError {
    match *err.kind {
        ErrorKind::ServerSelection { .. }
        | ErrorKind::Io(_)
        | ErrorKind::ConnectionPoolCleared { .. }
        | ErrorKind::DnsResolve { .. } => DomainError::Unavailable {
            what: "the database (MongoDB)",
            detail: err.to_string(),
        },
        _ => DomainError::Internal(anyhow::Error::new(err).context("MongoDB")),
    }
}

/// Every document a query finds (queries here are bounded by a `limit` or by nature).
async fn all<T>(
    find: impl std::future::IntoFuture<Output = Result<mongodb::Cursor<T>, Error>>,
) -> DomainResult<Vec<T>>
where
    T: serde::de::DeserializeOwned + Send + Sync + Unpin,
{
    find.await.map_err(failure)?.try_collect().await.map_err(failure)
}

fn is_duplicate_key(err: &Error) -> bool {
    matches!(&*err.kind, ErrorKind::Write(WriteFailure::WriteError(e)) if e.code == DUPLICATE_KEY)
}

/// A value in the form queries compare it with (ids, numbers, strings).
fn bson<T: serde::Serialize>(value: &T) -> DomainResult<mongodb::bson::Bson> {
    mongodb::bson::to_bson(value)
        .context("encoding a query value")
        .map_err(DomainError::Internal)
}
