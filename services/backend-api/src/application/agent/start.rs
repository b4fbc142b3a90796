//! A run being started, in its own task: it takes the session's run lease and runs
//! turns while messages come, or, when another replica runs the session, passes the
//! messages there; either way it forgets its handle when it ends, under the lock that
//! delivering a message takes.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::{mpsc, Notify};
use tokio_util::sync::CancellationToken;

use super::replicas::{Fence, Taken};
use super::{run, Cluster, Dependencies, Incoming, RunHandle, Runs};
use crate::domain::event::AgentEvent;
use crate::domain::session::{Session, SessionId};

/// What a run being started needs, taken into its task.
pub(super) struct Start {
    pub(super) deps: Arc<Dependencies>,
    pub(super) cluster: Arc<Cluster>,
    pub(super) runs: Runs,
    pub(super) session: Session,
    pub(super) cancel: CancellationToken,
    pub(super) fence: Fence,
    pub(super) done: Arc<Notify>,
    pub(super) hops: u8,
}

impl Start {
    /// Takes the session's lease and runs turns while messages come; or, when another
    /// replica runs the session, passes the messages to it.
    pub(super) async fn run(self, history_until: u64, mut mail: mpsc::UnboundedReceiver<Incoming>) {
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

pub(super) fn lock(runs: &Runs) -> std::sync::MutexGuard<'_, HashMap<SessionId, RunHandle>> {
    runs.lock().unwrap_or_else(|p| p.into_inner())
}
