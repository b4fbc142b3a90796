//! The agent: a person's message wakes the session's run, which loops model → tools →
//! events until the model answers, asks the person, is stopped, or a budget ends.
//!
//! One run per session at a time, in the replica holding the session's run lease (see
//! `replicas`): a message sent while it runs is stored like any other and put into the
//! run's inbox — passed to the owning replica first when it reached another — from which
//! the run takes it before its next model request. Stop cancels the run (the model
//! request or tool call in flight is dropped and the shell command killed) and waits for
//! it to end, so the log is consistent when stop answers.

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
mod take_over;
mod untrusted;

pub use daily_tokens::DailyTokens;
pub use replicas::Cluster;
pub use take_over::{TakeOver, TakeOverGuard};

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, Notify};
use tokio_util::sync::CancellationToken;

use super::error::AppResult;
use super::events::EventService;
use super::sessions::SessionService;
use crate::domain::agent::{LlmClient, SandboxGateway, SandboxTools, WebSearch};
use crate::domain::event::{AgentEvent, StoredEvent};
use crate::domain::files::SandboxFiles;
use crate::domain::mcp::McpServers;
use crate::domain::model::ModelCatalog;
use crate::domain::ports::{ImageStore, SessionRepository};
use crate::domain::session::{Session, SessionId};
use crate::domain::user::UserId;
use replicas::{Fence, Taken};

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
    /// Each person's model tokens per day.
    pub daily_tokens: DailyTokens,
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

/// What a run being started needs, taken into its task.
struct Start {
    deps: Arc<Dependencies>,
    cluster: Arc<Cluster>,
    runs: Runs,
    session: Session,
    cancel: CancellationToken,
    fence: Fence,
    done: Arc<Notify>,
    hops: u8,
}

impl Start {
    /// Takes the session's lease and runs turns while messages come; or, when another
    /// replica runs the session, passes the messages to it.
    async fn run(self, history_until: u64, mut mail: mpsc::UnboundedReceiver<Incoming>) {
        let id = self.session.id.clone();
        let lease = match self.cluster.take(&id).await {
            Ok(Taken::Ours(lease)) => lease,
            Ok(Taken::Theirs(holder)) => {
                self.forget_handle();
                self.cluster.pass_on(&id, &holder, &mut mail, self.hops).await;
                self.done.notify_waiters();
                return;
            }
            Err(err) => {
                self.forget_handle();
                tracing::error!(session = id.as_str(), %err, "could not take the run lease");
                let message = format!("The agent could not start: {err}. Send the message again.");
                if let Err(err) = self.deps.events.append(&id, AgentEvent::Error { message }).await {
                    tracing::error!(session = id.as_str(), %err, "storing an agent event");
                }
                self.done.notify_waiters();
                return;
            }
        };
        let renewing = self
            .cluster
            .keep(&id, &lease, self.fence.clone(), self.cancel.clone());
        let mut run = run::Run::new(
            self.deps.clone(),
            self.session.clone(),
            history_until,
            mail,
            self.cancel.clone(),
            self.fence.clone(),
        );
        loop {
            run.execute().await;
            // Under the lock `deliver` takes: a message that arrived as the turn
            // ended is either in the inbox here (go on) or finds no run (starts one,
            // which waits for this lease).
            let mut runs = lock(&self.runs);
            if !run.stopped() && run.has_mail() {
                continue;
            }
            forget(&mut runs, &id, &self.done);
            break;
        }
        renewing.abort();
        self.cluster.release(&id, &lease).await;
        drop(run);
        self.done.notify_waiters();
    }

    fn forget_handle(&self) {
        forget(&mut lock(&self.runs), &self.session.id, &self.done);
    }
}

/// Removes the run's handle (not a newer one's).
fn forget(runs: &mut HashMap<SessionId, RunHandle>, session: &SessionId, done: &Arc<Notify>) {
    if runs.get(session).is_some_and(|h| Arc::ptr_eq(&h.done, done)) {
        runs.remove(session);
    }
}

fn lock(runs: &Runs) -> std::sync::MutexGuard<'_, HashMap<SessionId, RunHandle>> {
    runs.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests;
