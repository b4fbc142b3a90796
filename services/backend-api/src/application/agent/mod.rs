//! The agent: a person's message wakes the session's run, which loops model → tools →
//! events until the model answers, asks the person, is stopped, or a budget ends.
//!
//! One run per session at a time: a message sent while it runs is stored like any other
//! and picked up by the run before its next model request. Stop cancels the run (the
//! model request or tool call in flight is dropped and the shell command killed) and
//! waits for it to end, so the log is consistent when stop answers.

mod context;
mod mcp;
mod memory;
mod prompt;
mod run;
mod take_over;

pub use take_over::{TakeOver, TakeOverGuard};

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::FutureExt;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::error::AppResult;
use super::events::EventService;
use super::sessions::SessionService;
use crate::domain::agent::{LlmClient, SandboxGateway, SandboxTools};
use crate::domain::event::{AgentEvent, StoredEvent};
use crate::domain::mcp::McpServers;
use crate::domain::ports::{ScreenshotStore, SessionRepository};
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
}

/// What the runs need, shared by all of them.
pub struct Dependencies {
    pub events: Arc<EventService>,
    pub llm: Option<Arc<dyn LlmClient>>,
    pub sandboxes: Arc<dyn SandboxGateway>,
    pub tools: Arc<dyn SandboxTools>,
    pub budgets: Budgets,
    pub take_over: Arc<TakeOver>,
    pub screenshots: Arc<dyn ScreenshotStore>,
    pub mcp: Arc<dyn McpServers>,
}

struct RunHandle {
    cancel: CancellationToken,
    wake: Arc<Notify>,
    done: Arc<Notify>,
}

pub struct AgentService {
    deps: Arc<Dependencies>,
    sessions: Arc<SessionService>,
    repository: Arc<dyn SessionRepository>,
    runs: Arc<Mutex<HashMap<SessionId, RunHandle>>>,
    enabled: bool,
}

impl AgentService {
    /// `enabled: false` stores messages without answering them.
    pub fn new(
        sessions: Arc<SessionService>,
        repository: Arc<dyn SessionRepository>,
        deps: Dependencies,
        enabled: bool,
    ) -> Self {
        Self {
            deps: Arc::new(deps),
            sessions,
            repository,
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
            self.wake(&session, stored.seq - 1);
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
            for session in self.repository.with_status(status).await? {
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

    /// Starts a run for the session unless one is going (which then picks the message up).
    fn wake(&self, session: &Session, seen_before: u64) {
        let mut runs = self.runs.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(handle) = runs.get(&session.id) {
            handle.wake.notify_one();
            return;
        }
        let handle = RunHandle {
            cancel: CancellationToken::new(),
            wake: Arc::new(Notify::new()),
            done: Arc::new(Notify::new()),
        };
        let mut run = run::Run::new(
            self.deps.clone(),
            session.clone(),
            seen_before,
            handle.cancel.clone(),
            handle.wake.clone(),
        );
        let (runs_ref, id) = (self.runs.clone(), session.id.clone());
        let (wake, done) = (handle.wake.clone(), handle.done.clone());
        runs.insert(session.id.clone(), handle);
        tokio::spawn(async move {
            loop {
                run.execute().await;
                // Under the lock `wake` takes: a message that arrived as the turn ended
                // either left its wake-up here (go on) or finds no run (starts one).
                let mut runs = runs_ref.lock().unwrap_or_else(|p| p.into_inner());
                if !run.cancelled() && wake.notified().now_or_never().is_some() {
                    continue;
                }
                if runs.get(&id).is_some_and(|h| Arc::ptr_eq(&h.done, &done)) {
                    runs.remove(&id);
                }
                break;
            }
            done.notify_waiters();
        });
    }
}
