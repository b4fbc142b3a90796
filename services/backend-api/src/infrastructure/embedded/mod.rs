//! The embedded store: every storage port in one `redb` file, for a single machine with
//! nothing else installed. redb because it is pure Rust (no C toolchain, no server), ACID
//! with crash-safe commits, and lets readers run while one writer commits — the same
//! engine the sandbox-manager keeps its records in.
//!
//! Values are JSON; secondary indexes are tables of composite keys. Writes are serialised
//! by redb, which is what makes event numbering gap-free here.
//!
//! `handle.rs` holds the open database and opens it again after a disk failure (a full
//! disk answers `507` until space returns, without a restart); `disk.rs` watches the
//! disk's free space. The other files each implement one port.

mod agent_servers;
mod api_keys;
mod automation_deliveries;
mod automation_files;
mod automations;
mod disk;
mod e2b_sandboxes;
mod handle;
mod images;
mod job_attachments;
mod jobs;
mod kv;
mod mcp_servers;
mod memory;
mod sessions;
mod tokens;
mod toolbox;
mod users;

pub use disk::DataDisk;

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use redb::{Database, TableDefinition};
use serde::de::DeserializeOwned;

use crate::domain::{DomainError, DomainResult};

const USERS: TableDefinition<&str, &[u8]> = TableDefinition::new("users");
const USER_EMAILS: TableDefinition<&str, &str> = TableDefinition::new("user_emails");
const SESSIONS: TableDefinition<&str, &[u8]> = TableDefinition::new("sessions");
const OWNER_SESSIONS: TableDefinition<(&str, &str), ()> = TableDefinition::new("owner_sessions");
const SHARES: TableDefinition<&str, &str> = TableDefinition::new("shares");
const EVENTS: TableDefinition<(&str, u64), &[u8]> = TableDefinition::new("events");
const REFRESH: TableDefinition<&str, &[u8]> = TableDefinition::new("refresh_tokens");
const USER_REFRESH: TableDefinition<(&str, &str), ()> = TableDefinition::new("user_refresh_tokens");
const SCREENSHOTS: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("screenshots");
const MCP_SERVERS: TableDefinition<&str, &[u8]> = TableDefinition::new("mcp_servers");
const MCP_SEEDED: TableDefinition<&str, ()> = TableDefinition::new("mcp_seeded");
const API_KEYS: TableDefinition<&str, &[u8]> = TableDefinition::new("api_keys");
const API_KEY_DIGESTS: TableDefinition<&str, &str> = TableDefinition::new("api_key_digests");
const OWNER_API_KEYS: TableDefinition<(&str, &str), ()> = TableDefinition::new("owner_api_keys");
const JOBS: TableDefinition<&str, &[u8]> = TableDefinition::new("jobs");
const E2B_SANDBOXES: TableDefinition<&str, &[u8]> = TableDefinition::new("e2b_sandboxes");
const OWNER_E2B_SANDBOXES: TableDefinition<(&str, &str), ()> = TableDefinition::new("owner_e2b_sandboxes");
const OWNER_JOBS: TableDefinition<(&str, &str), ()> = TableDefinition::new("owner_jobs");
const JOB_ATTACHMENTS: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("job_attachments");
const MEMORIES: TableDefinition<&str, &[u8]> = TableDefinition::new("memories");
const MEMORY_PROMPTS: TableDefinition<(&str, &str), &str> = TableDefinition::new("memory_prompts");
/// The MCP servers the agent registered, by (session, name).
const AGENT_SERVERS: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("agent_servers");
/// Highest possible id in key order (ids are ASCII UUIDs).
const ID_MAX: &str = "\u{7f}";

const KV: TableDefinition<&str, (&str, i64)> = TableDefinition::new("kv");

/// What redb keeps of the file in memory. Its default, 1 GiB, filled up with what was
/// written (job attachments, images) and stayed: backend-api held 1.1 GiB after 60
/// jobs with 10 MiB each were queued. The kernel's page cache still holds the file's
/// hot pages, so reads past this cost a copy, not a disk read.
const CACHE_BYTES: usize = 64 * 1024 * 1024;

#[derive(Clone)]
pub struct EmbeddedStore {
    handle: Arc<handle::Handle>,
}

impl EmbeddedStore {
    /// Opens (or creates) `sandpiper.redb` in `dir`, private to this user.
    pub fn open(dir: &Path) -> anyhow::Result<Self> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
        }
        let store = Self {
            handle: Arc::new(handle::Handle::open(dir)?),
        };
        store.spawn_expiry();
        Ok(store)
    }

    /// The disk the store's file lives on.
    pub fn disk(&self) -> Arc<DataDisk> {
        self.handle.disk.clone()
    }

    /// Runs `work` on the blocking pool: redb calls block on disk.
    async fn blocking<T, F>(&self, work: F) -> DomainResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Database) -> anyhow::Result<T> + Send + 'static,
    {
        let handle = self.handle.clone();
        match tokio::task::spawn_blocking(move || handle.run(work)).await {
            Ok(result) => result,
            Err(join) => Err(DomainError::Internal(anyhow::anyhow!(
                "store task failed: {join}"
            ))),
        }
    }
}

/// Opens (or creates) the database file with every table.
pub(super) fn open_database(path: &Path) -> anyhow::Result<Database> {
    let db = redb::Builder::new()
        .set_cache_size(CACHE_BYTES)
        .create(path)
        .with_context(|| format!("opening {} (is another backend using it?)", path.display()))?;
    let txn = db.begin_write()?;
    txn.open_table(USERS)?;
    txn.open_table(USER_EMAILS)?;
    txn.open_table(SESSIONS)?;
    txn.open_table(OWNER_SESSIONS)?;
    txn.open_table(SHARES)?;
    txn.open_table(EVENTS)?;
    txn.open_table(REFRESH)?;
    txn.open_table(USER_REFRESH)?;
    txn.open_table(KV)?;
    txn.open_table(SCREENSHOTS)?;
    txn.open_table(MCP_SERVERS)?;
    txn.open_table(MCP_SEEDED)?;
    txn.open_table(API_KEYS)?;
    txn.open_table(API_KEY_DIGESTS)?;
    txn.open_table(OWNER_API_KEYS)?;
    txn.open_table(JOBS)?;
    txn.open_table(OWNER_JOBS)?;
    txn.open_table(JOB_ATTACHMENTS)?;
    txn.open_table(E2B_SANDBOXES)?;
    txn.open_table(OWNER_E2B_SANDBOXES)?;
    txn.open_table(MEMORIES)?;
    txn.open_table(MEMORY_PROMPTS)?;
    txn.open_table(AGENT_SERVERS)?;
    automations::create_tables(&txn)?;
    toolbox::create_tables(&txn)?;
    txn.commit()?;
    Ok(db)
}

fn decode<T: DeserializeOwned>(bytes: &[u8]) -> anyhow::Result<T> {
    serde_json::from_slice(bytes).context("decoding a stored record")
}
