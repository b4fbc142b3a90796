//! The agent: a person's message wakes the session's run, which loops model → tools →
//! events until the model answers, asks the person, is stopped, or a budget ends.
//!
//! One run per session at a time, in the replica holding the session's run lease (see
//! `replicas`): a message sent while it runs is stored like any other and put into the
//! run's inbox — passed to the owning replica first when it reached another — from which
//! the run takes it before its next model request. Stop cancels the run (the model
//! request or tool call in flight is dropped and the shell command killed) and waits for
//! it to end, so the log is consistent when stop answers.
//!
//! # Layout
//!
//! - `mod.rs`: the service — messages delivered to a session's run, stop, take-over —
//!   and what every run shares ([`Dependencies`], [`Budgets`]).
//! - `start.rs`: a run being started: its lease taken, its turns run, its handle gone.
//! - `run/`: one session's run, the loop of model requests and tool calls (its own
//!   `# Layout` lists its files), sub-agents included.
//! - `catalogue.rs`: the tools a turn offers, and a model's call parsed into a typed one.
//! - `guard.rs`: the bound on a turn's work — stop, time budget, the person's hold.
//! - `context.rs`, `memory.rs`, `prompt.rs`: the conversation cut to a model's window,
//!   the working memory kept in the log, the system prompts.
//! - `untrusted.rs`: a tool's reply as the model reads it, outside content marked.
//! - `mcp.rs`: an MCP tool's result as the person and the model see it.
//! - `replicas.rs`, `take_over.rs`, `orphans.rs`: several replicas — run leases and
//!   messages passed on, desktop holds, runs a stopped replica left behind.
//! - `daily_tokens.rs`: each person's model tokens per day.
//! - `tests.rs` and `tests/`: the run in-process, against fake ports.

mod catalogue;
mod context;
mod daily_tokens;
mod guard;
mod mcp;
mod memory;
mod orphans;
mod prompt;
mod replicas;
mod run;
mod start;
mod take_over;
pub mod untrusted;

pub use daily_tokens::DailyTokens;
pub use replicas::Cluster;
pub use take_over::{TakeOver, TakeOverGuard};

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, Notify};
use tokio_util::sync::CancellationToken;

use super::automations::rules::AutomationRules;
use super::error::AppResult;
use super::events::EventService;
use super::memory::MemoryService;
use super::sessions::SessionService;
use super::toolbox::ToolboxService;
use crate::domain::event::StoredEvent;
use crate::domain::image::ImageId;
use crate::domain::model::ModelCatalog;
use crate::domain::ports::{
    AgentServerRepository, AutomationRepository, ImageStore, LlmClient, McpServers, SandboxFiles,
    SandboxGateway, SandboxTools, SessionRepository, WebSearch,
};
use crate::domain::session::{Session, SessionId};
use crate::domain::user::UserId;
use replicas::{Fence, Taken};
use start::{lock, Start};

/// How long stop waits for a cancelled run to wind down.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// Limits on one run.
#[derive(Debug, Clone)]
pub struct Budgets {
    pub max_steps: u32,
    pub max_run: Duration,
    pub tool_output_chars: usize,
    pub context_chars: usize,
    /// Code cells that may fail in a row before the turn ends.
    pub failed_cells: u32,
    /// Sub-agents one model answer may start at once.
    pub delegations: u32,
}

/// What the runs need, shared by all of them.
pub struct Dependencies {
    pub events: Arc<EventService>,
    /// Read as each turn begins, for the model the person picked since the last one.
    pub sessions: Arc<dyn SessionRepository>,
    pub llm: Arc<dyn LlmClient>,
    /// The offered models; a turn asks its session's (or the default one).
    pub models: Arc<ModelCatalog>,
    pub sandboxes: Arc<dyn SandboxGateway>,
    pub tools: Arc<dyn SandboxTools>,
    /// Files sub-agents hand back travel from their sandbox to the delegating one's.
    pub files: Arc<dyn SandboxFiles>,
    /// Web search with the operator's provider; `None` when none is configured, and the
    /// model is then not offered `web_search`.
    pub web_search: Option<Arc<dyn WebSearch>>,
    pub budgets: Budgets,
    pub take_over: Arc<TakeOver>,
    pub images: Arc<dyn ImageStore>,
    pub mcp: Arc<dyn McpServers>,
    /// The MCP servers the agent registered (`tool_register`), kept with their session.
    pub agent_servers: Arc<dyn AgentServerRepository>,
    /// Each person's kept tools, which their chats get (and the published ones).
    pub toolbox: Arc<ToolboxService>,
    /// Each person's model tokens per day.
    pub daily_tokens: DailyTokens,
    /// Each person's notes across chats: the `memory` tool writes them, a new chat's
    /// prompt gets them.
    pub memory: Arc<MemoryService>,
    /// Where the `automation_create` tool stores the automations it makes.
    pub automations: Arc<dyn AutomationRepository>,
    /// What the automations it makes are held to, as the API's are.
    pub automation_rules: AutomationRules,
    /// The URL a session's stored image is served at, which tool views link to: a route
    /// of the interfaces layer, which gives it.
    pub image_url: fn(&SessionId, &ImageId) -> String,
    /// What a person reads when no model is configured: how the operator configures one,
    /// in the words of the configuration, which gives it.
    pub no_model: String,
}

/// A person's message on its way to the run.
pub struct Incoming {
    pub seq: u64,
    pub content: String,
    pub attachments: Vec<String>,
}

struct RunHandle {
    cancel: CancellationToken,
    /// Raised before a cancel that must leave nothing in the log (a shutdown).
    fence: Fence,
    inbox: mpsc::UnboundedSender<Incoming>,
    done: Arc<Notify>,
}

type Runs = Arc<Mutex<HashMap<SessionId, RunHandle>>>;

pub struct AgentService {
    deps: Arc<Dependencies>,
    sessions: Arc<SessionService>,
    /// The runs this replica holds the lease of (or is about to).
    runs: Runs,
    cluster: Arc<Cluster>,
    enabled: bool,
}

impl AgentService {
    /// `enabled: false` stores messages without answering them.
    pub fn new(sessions: Arc<SessionService>, deps: Dependencies, cluster: Cluster, enabled: bool) -> Self {
        Self {
            deps: Arc::new(deps),
            sessions,
            runs: Arc::new(Mutex::new(HashMap::new())),
            cluster: Arc::new(cluster),
            enabled,
        }
    }

    /// Stores the person's message and makes sure a run sees it.
    pub async fn post_message(
        &self,
        owner: &UserId,
        id: &str,
        content: &str,
        attachments: &[String],
    ) -> AppResult<StoredEvent> {
        let stored = self
            .sessions
            .post_message(owner, id, content, attachments)
            .await?;
        if self.enabled {
            let session = self.sessions.get(owner, id).await?;
            let message = Incoming {
                seq: stored.seq,
                content: content.to_owned(),
                attachments: attachments.to_vec(),
            };
            self.deliver(&session, message, 0);
        }
        Ok(stored)
    }

    /// Stops the session's run wherever it is and waits until it has ended (the run
    /// records `completed` itself, before it gives its lease up). A run that did not
    /// record it (its replica died, or it did not end in time) is closed here, holding
    /// the run lease meanwhile, so no other replica settles it at the same time, and a
    /// run started since is left alone.
    pub async fn stop(&self, owner: &UserId, id: &str) -> AppResult<Session> {
        let session = self.sessions.get(owner, id).await?;
        let asked = match self.stop_here(&session.id).await {
            true => None,
            false => self.stop_elsewhere(&session.id).await,
        };
        let lease = match self.cluster.take(&session.id).await? {
            Taken::Ours(lease) => Some(lease),
            // The stopped run did not end in time: the stop is recorded anyway.
            Taken::Theirs(holder)
                if holder.replica == self.cluster.replica || Some(&holder) == asked.as_ref() =>
            {
                tracing::warn!(
                    session = session.id.as_str(),
                    replica = holder.replica.as_str(),
                    "a stopped run did not end in time"
                );
                None
            }
            // A message started a new run since: it goes on.
            Taken::Theirs(_) => return self.sessions.get(owner, id).await,
        };
        let stopped = async {
            if lease.is_some() {
                // A run that ended by itself closed its calls; one that died did not.
                orphans::close_calls(&self.deps, &session, "stopped").await?;
            }
            self.sessions.stop(owner, id).await
        }
        .await;
        if let Some(lease) = lease {
            self.cluster.release(&session.id, &lease).await;
        }
        stopped
    }

    /// Cancels this replica's run of the session, if it has one, and waits until it has
    /// ended. Says whether there was one.
    async fn stop_here(&self, session: &SessionId) -> bool {
        let handle = lock(&self.runs).remove(session);
        let Some(handle) = handle else {
            return false;
        };
        let ended = handle.done.notified();
        tokio::pin!(ended);
        ended.as_mut().enable();
        handle.cancel.cancel();
        // Past the grace, `stop` records the stop anyway (and says so).
        let _ = tokio::time::timeout(STOP_GRACE, ended).await;
        true
    }

    /// The person takes the session's desktop: its run pauses until the guard is dropped,
    /// on whichever replica it runs.
    pub fn take_over(&self, session: &SessionId) -> TakeOverGuard {
        self.deps.take_over.hold(session)
    }

    /// Puts the message into the session's run's inbox, starting a run when none goes
    /// here; a run on another replica gets it through the bus.
    fn deliver(&self, session: &Session, message: Incoming, hops: u8) {
        let mut runs = lock(&self.runs);
        // A run's handle goes (under this lock) before its inbox closes, so a handle
        // found here takes the message.
        if let Some(handle) = runs.get(&session.id) {
            if handle.inbox.send(message).is_err() {
                tracing::error!(
                    session = session.id.as_str(),
                    "a run's inbox closed before its handle went"
                );
            }
            return;
        }
        let (inbox, mail) = mpsc::unbounded_channel();
        let history_until = message.seq - 1;
        // Cannot fail: `mail` is right here.
        let _ = inbox.send(message);
        let handle = RunHandle {
            cancel: CancellationToken::new(),
            fence: Fence::default(),
            inbox,
            done: Arc::new(Notify::new()),
        };
        let start = Start {
            deps: self.deps.clone(),
            cluster: self.cluster.clone(),
            runs: self.runs.clone(),
            session: session.clone(),
            cancel: handle.cancel.clone(),
            fence: handle.fence.clone(),
            done: handle.done.clone(),
            hops,
        };
        runs.insert(session.id.clone(), handle);
        tokio::spawn(start.run(history_until, mail));
    }
}

#[cfg(test)]
mod tests;
