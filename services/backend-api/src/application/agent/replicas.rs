//! Backend replicas sharing the agents' work. A session's run lives in the replica that
//! holds the session's run lease (in Redis with several replicas): taken before the
//! turn's first event, renewed every third of its time while the run works, given up
//! after the turn's last event. So "running, and nobody holds the lease" means the run
//! died with its replica, and any replica may take the lease and settle it.
//!
//! What reaches another replica travels as a [`RunSignal`] on the bus: a person's
//! message for the run (its inbox is there), a stop (the stopping replica then waits for
//! the lease to go), and who holds which desktop, announced every [`HOLD_REFRESH`] so a
//! run anywhere pauses for a person on any replica.
//!
//! Invariants: a run writes events only while its lease is its own (a run that finds
//! its lease lost is fenced and stopped), its last one (a stopped run's `completed`
//! too) before it gives the lease up; whoever writes the final status of a run that is
//! not its own (a dead run's stop or settlement) holds the lease meanwhile.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::take_over::HOLD_REFRESH;
use super::{orphans, AgentService, Incoming};
use crate::application::error::AppResult;
use crate::domain::ports::{EventBus, RunLeases};
use crate::domain::replica::{ReplicaId, RunLease, RunSignal};
use crate::domain::session::{SessionId, SessionStatus};

/// How long a replica waits for its own ending run to give a lease up.
const HANDOVER: Duration = Duration::from_secs(2);
const HANDOVER_POLL: Duration = Duration::from_millis(10);
/// How often a message may be passed on (the run moving while it travels) before it is
/// left in the log for the next turn.
const MAX_HOPS: u8 = 3;
/// Between looks at whether a run stopped elsewhere has let its lease go.
const STOP_POLL: Duration = Duration::from_millis(20);
/// After the bus's subscription ended (it reconnected), before subscribing again.
const RESUBSCRIBE: Duration = Duration::from_millis(100);

/// This replica and what it shares with the others.
pub struct Cluster {
    pub replica: ReplicaId,
    pub leases: Arc<dyn RunLeases>,
    pub bus: Arc<dyn EventBus>,
    /// How long a run lease lasts unless renewed.
    pub lease: Duration,
    /// No other replica can exist (no shared store): runs are orphaned only by this
    /// process's own end, so start-up alone looks for them, and nobody needs to hear of
    /// the desktops held here.
    pub alone: bool,
}

/// Who has a session's lease after trying to take it.
pub(super) enum Taken {
    Ours(RunLease),
    Theirs(RunLease),
}

/// Raised once a run's lease was found lost: whoever took the session over settles it,
/// so the run must write nothing more.
#[derive(Clone, Default)]
pub struct Fence(Arc<AtomicBool>);

impl Fence {
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    fn raise(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl Cluster {
    /// Takes the session's lease, or says who has it. A run of this replica that is
    /// ending gives its lease up in a moment, so that is waited for.
    pub(super) async fn take(&self, session: &SessionId) -> AppResult<Taken> {
        let lease = RunLease::new(self.replica.clone());
        let deadline = Instant::now() + HANDOVER;
        loop {
            match self.leases.acquire(session, &lease, self.lease).await? {
                None => return Ok(Taken::Ours(lease)),
                Some(holder) if holder.replica == self.replica && Instant::now() < deadline => {
                    tokio::time::sleep(HANDOVER_POLL).await;
                }
                Some(holder) => return Ok(Taken::Theirs(holder)),
            }
        }
    }

    /// Renews the lease every third of its time until aborted. A lease found lost
    /// fences the run and stops it; a store that does not answer is asked again (the
    /// lease may still be ours when it is back).
    pub(super) fn keep(
        &self,
        session: &SessionId,
        lease: &RunLease,
        fence: Fence,
        cancel: CancellationToken,
    ) -> JoinHandle<()> {
        let (leases, ttl) = (self.leases.clone(), self.lease);
        let (session, lease) = (session.clone(), lease.clone());
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(ttl / 3).await;
                match leases.renew(&session, &lease, ttl).await {
                    Ok(true) => {}
                    Ok(false) => {
                        tracing::error!(
                            session = session.as_str(),
                            "the run lease was lost (this replica stalled past it); the run stops"
                        );
                        fence.raise();
                        cancel.cancel();
                        return;
                    }
                    Err(err) => tracing::warn!(session = session.as_str(), %err, "renewing a run lease"),
                }
            }
        })
    }

    /// Gives the lease up; when the store does not answer, it expires by itself.
    pub(super) async fn release(&self, session: &SessionId, lease: &RunLease) {
        if let Err(err) = self.leases.release(session, lease).await {
            tracing::warn!(session = session.as_str(), %err, "giving a run lease up");
        }
    }

    /// Sends the messages a run that could not start here holds to the replica that
    /// runs the session.
    pub(super) async fn pass_on(
        &self,
        session: &SessionId,
        holder: &RunLease,
        mail: &mut mpsc::UnboundedReceiver<Incoming>,
        hops: u8,
    ) {
        while let Ok(message) = mail.try_recv() {
            if hops >= MAX_HOPS {
                tracing::warn!(
                    session = session.as_str(),
                    seq = message.seq,
                    "a message kept missing the session's run; it waits in the log for the next turn"
                );
                continue;
            }
            let signal = RunSignal::Message {
                to: holder.replica.clone(),
                session: session.clone(),
                seq: message.seq,
                content: message.content,
                attachments: message.attachments,
                hops: hops + 1,
            };
            if let Err(err) = self.bus.publish_signal(&signal).await {
                tracing::error!(session = session.as_str(), %err, "passing a message to the session's run");
            }
        }
    }
}

impl AgentService {
    /// Asks the replica running the session to stop it and waits until it has let the
    /// lease go: within the stop's grace when it is alive, when the lease expires when it
    /// died. Returns the lease it was asked for.
    pub(super) async fn stop_elsewhere(&self, session: &SessionId) -> Option<RunLease> {
        let holder = match self.cluster.leases.holder(session).await {
            Ok(holder) => holder?,
            Err(err) => {
                tracing::warn!(session = session.as_str(), %err, "looking up who runs a session");
                return None;
            }
        };
        let signal = RunSignal::Stop {
            to: holder.replica.clone(),
            session: session.clone(),
        };
        if let Err(err) = self.cluster.bus.publish_signal(&signal).await {
            tracing::warn!(session = session.as_str(), %err, "asking another replica to stop a run");
            return Some(holder);
        }
        let deadline = Instant::now() + super::STOP_GRACE.max(self.cluster.lease);
        while Instant::now() < deadline {
            match self.cluster.leases.holder(session).await {
                Ok(now) if now.as_ref() != Some(&holder) => break,
                _ => tokio::time::sleep(STOP_POLL).await,
            }
        }
        Some(holder)
    }

    /// This replica's part until `stopping`: acting on signals, and with other replicas
    /// about, announcing its holds and settling runs that died with their replica.
    pub fn start(self: &Arc<Self>, stopping: CancellationToken) {
        let agent = self.clone();
        tokio::spawn(stopping.clone().run_until_cancelled_owned(agent.listen()));
        if self.cluster.alone {
            return;
        }
        let agent = self.clone();
        tokio::spawn(stopping.clone().run_until_cancelled_owned(agent.announce()));
        let agent = self.clone();
        tokio::spawn(stopping.run_until_cancelled_owned(agent.sweep()));
    }

    async fn listen(self: Arc<Self>) {
        loop {
            let mut signals = self.cluster.bus.subscribe_signals();
            while let Some(signal) = signals.next().await {
                self.on_signal(signal).await;
            }
            tokio::time::sleep(RESUBSCRIBE).await;
        }
    }

    async fn on_signal(self: &Arc<Self>, signal: RunSignal) {
        let me = &self.cluster.replica;
        match signal {
            RunSignal::Message {
                to,
                session,
                seq,
                content,
                attachments,
                hops,
            } if &to == me && self.enabled => match self.deps.sessions.get(&session).await {
                Ok(Some(session)) => {
                    let message = Incoming {
                        seq,
                        content,
                        attachments,
                    };
                    self.deliver(&session, message, hops);
                }
                Ok(None) => {}
                Err(err) => {
                    tracing::error!(session = session.as_str(), %err, "reading a session for its message")
                }
            },
            RunSignal::Stop { to, session } if &to == me => {
                let agent = self.clone();
                tokio::spawn(async move { agent.stop_here(&session).await });
            }
            RunSignal::Hold { from, session, held } if &from != me => {
                self.deps.take_over.announced(from, session, held);
            }
            _ => {}
        }
    }

    /// Tells the other replicas which desktops people hold here: at once when that
    /// changes, and again every [`HOLD_REFRESH`] so their copy does not expire.
    async fn announce(self: Arc<Self>) {
        let mut announced = HashSet::new();
        loop {
            tokio::select! {
                _ = self.deps.take_over.changed() => {}
                _ = tokio::time::sleep(HOLD_REFRESH) => {}
            }
            let held = self.deps.take_over.held_here();
            let released = announced.difference(&held).cloned().map(|s| (s, false));
            let holding = held.iter().cloned().map(|s| (s, true));
            for (session, held) in released.chain(holding).collect::<Vec<_>>() {
                let signal = RunSignal::Hold {
                    from: self.cluster.replica.clone(),
                    session,
                    held,
                };
                if let Err(err) = self.cluster.bus.publish_signal(&signal).await {
                    tracing::warn!(%err, "announcing a held desktop");
                }
            }
            announced = held;
        }
    }

    /// On a graceful shutdown: this replica's runs end now, rather than another replica
    /// settling them once their leases have run out. Each is stopped (closing its open
    /// calls) and its session settled as interrupted.
    pub async fn shut_down(&self) {
        let sessions: Vec<SessionId> = {
            let runs = super::lock(&self.runs);
            // Fenced first: the runs end without a word, and the settlement says why.
            runs.values().for_each(|handle| handle.fence.raise());
            runs.keys().cloned().collect()
        };
        futures::future::join_all(sessions.iter().map(|session| self.stop_here(session))).await;
        if let Err(err) = self.settle_orphans().await {
            tracing::warn!(%err, "settling the runs this shutdown interrupted");
        }
    }

    /// Settles orphaned runs every quarter of the lease time.
    async fn sweep(self: Arc<Self>) {
        loop {
            tokio::time::sleep(self.cluster.lease / 4).await;
            match self.settle_orphans().await {
                Ok(0) => {}
                Ok(settled) => tracing::warn!(settled, "runs whose replica went away were settled"),
                Err(err) => tracing::warn!(%err, "looking for runs whose replica went away"),
            }
        }
    }

    /// Ends the runs that stopped with their replica (this one's predecessor too, at
    /// start-up): each session still `running` that nobody holds the lease of gets its
    /// open tool calls closed, an error saying why, and the `failed` status. Sessions
    /// whose lease is alive are someone's work in progress and stay as they are.
    pub async fn settle_orphans(&self) -> AppResult<usize> {
        let mut settled = 0;
        for session in self.deps.sessions.with_status(SessionStatus::Running).await? {
            if super::lock(&self.runs).contains_key(&session.id) {
                continue;
            }
            let lease = RunLease::new(self.cluster.replica.clone());
            if self
                .cluster
                .leases
                .acquire(&session.id, &lease, self.cluster.lease)
                .await?
                .is_some()
            {
                continue;
            }
            // The lease is ours: a run that had it has ended. Still running (read again,
            // the list may be older than that run's end) means it died mid-turn.
            let orphan = match self.deps.sessions.get(&session.id).await {
                Ok(Some(session)) if session.status == SessionStatus::Running => {
                    orphans::settle(&self.deps, &session).await.map(|()| true)
                }
                Ok(_) => Ok(false),
                Err(err) => Err(err.into()),
            };
            self.cluster.release(&session.id, &lease).await;
            settled += usize::from(orphan?);
        }
        Ok(settled)
    }
}
