//! The agent: a person's message wakes the session's run, which loops model → tools →
//! events until the model answers, asks the person, is stopped, or a budget ends.
//!
//! One run per session at a time: a message sent while it runs is stored like any other
//! and put into the run's inbox, from which the run takes it before its next model
//! request. Stop cancels the run (the
//! model request or tool call in flight is dropped and the shell command killed) and
//! waits for it to end, so the log is consistent when stop answers.

mod catalogue;
mod context;
mod daily_tokens;
mod guard;
mod mcp;
mod memory;
mod prompt;
mod run;
mod run_tools;
mod take_over;

pub use daily_tokens::DailyTokens;
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
use crate::domain::session::{Session, SessionId, SessionStatus};
use crate::domain::user::UserId;

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
    inbox: mpsc::UnboundedSender<Incoming>,
    done: Arc<Notify>,
}

pub struct AgentService {
    deps: Arc<Dependencies>,
    sessions: Arc<SessionService>,
    runs: Arc<Mutex<HashMap<SessionId, RunHandle>>>,
    enabled: bool,
}

impl AgentService {
    /// `enabled: false` stores messages without answering them.
    pub fn new(sessions: Arc<SessionService>, deps: Dependencies, enabled: bool) -> Self {
        Self {
            deps: Arc::new(deps),
            sessions,
            runs: Arc::new(Mutex::new(HashMap::new())),
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
            self.deliver(&session, message);
        }
        Ok(stored)
    }

    /// Cancels the session's run, if any, waits until it has ended, then marks the
    /// session stopped.
    pub async fn stop(&self, owner: &UserId, id: &str) -> AppResult<Session> {
        let session = self.sessions.get(owner, id).await?;
        let handle = self
            .runs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&session.id);
        if let Some(handle) = handle {
            let ended = handle.done.notified();
            tokio::pin!(ended);
            ended.as_mut().enable();
            handle.cancel.cancel();
            if tokio::time::timeout(STOP_GRACE, ended).await.is_err() {
                tracing::warn!(session = session.id.as_str(), "a stopped run did not end in time");
            }
        }
        self.sessions.stop(owner, id).await
    }

    /// The person takes the session's desktop: its run pauses until the guard is dropped.
    pub fn take_over(&self, session: &SessionId) -> TakeOverGuard {
        self.deps.take_over.hold(session)
    }

    /// After a restart: runs that were going when the backend went down are over. Marks
    /// them failed with an event saying so, so nothing stays "running".
    pub async fn fail_interrupted(&self) -> AppResult<usize> {
        let mut failed = 0;
        for status in [SessionStatus::Running] {
            for session in self.deps.sessions.with_status(status).await? {
                let message =
                    "The backend restarted while the agent was working; send a message to continue.";
                self.deps
                    .events
                    .append(
                        &session.id,
                        AgentEvent::Error {
                            message: message.into(),
                        },
                    )
                    .await?;
                self.deps
                    .events
                    .append(
                        &session.id,
                        AgentEvent::Status {
                            status: SessionStatus::Failed,
                        },
                    )
                    .await?;
                failed += 1;
            }
        }
        Ok(failed)
    }

    /// Puts the message into the session's run's inbox, starting a run when none goes.
    fn deliver(&self, session: &Session, message: Incoming) {
        let mut runs = self.runs.lock().unwrap_or_else(|p| p.into_inner());
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
            inbox,
            done: Arc::new(Notify::new()),
        };
        let mut run = run::Run::new(
            self.deps.clone(),
            session.clone(),
            history_until,
            mail,
            handle.cancel.clone(),
        );
        let (runs_ref, id, done) = (self.runs.clone(), session.id.clone(), handle.done.clone());
        runs.insert(session.id.clone(), handle);
        tokio::spawn(async move {
            loop {
                run.execute().await;
                // Under the lock `deliver` takes: a message that arrived as the turn
                // ended is either in the inbox here (go on) or finds no run (starts one).
                let mut runs = runs_ref.lock().unwrap_or_else(|p| p.into_inner());
                if !run.stopped() && run.has_mail() {
                    continue;
                }
                if runs.get(&id).is_some_and(|h| Arc::ptr_eq(&h.done, &done)) {
                    runs.remove(&id);
                }
                break;
            }
            drop(run);
            done.notify_waiters();
        });
    }
}

#[cfg(test)]
mod tests;
