//! A person holding the desktop: while anyone has a session's desktop in control mode,
//! that session's run waits before its next model request or tool call, so the agent
//! and the person never fight over the mouse.
//!
//! The person's relay may be on one replica and the run on another (or move to another
//! at the next turn), so the board knows two kinds of holds: this replica's own, counted
//! by their guards, and the ones other replicas announce (see `replicas`), which count
//! for [`HOLD_TTL`] after each announcement so a hold dies with the replica that had it.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

use crate::domain::replica::ReplicaId;
use crate::domain::session::SessionId;

/// How often a replica announces the holds it has.
pub const HOLD_REFRESH: Duration = Duration::from_secs(1);
/// How long another replica's announced hold counts without being announced again.
pub const HOLD_TTL: Duration = Duration::from_secs(3);

#[derive(Default)]
pub struct TakeOver {
    held: Mutex<HashMap<SessionId, usize>>,
    /// Other replicas' holds, until when they count.
    remote: Mutex<HashMap<(ReplicaId, SessionId), Instant>>,
    released: Notify,
    /// Woken when this replica's set of held sessions changes, to announce it.
    changed: Notify,
}

/// Control of one session's desktop; let go when dropped.
pub struct TakeOverGuard {
    board: Arc<TakeOver>,
    session: SessionId,
}

impl TakeOver {
    pub fn hold(self: &Arc<Self>, session: &SessionId) -> TakeOverGuard {
        let first = {
            let mut held = lock(&self.held);
            let count = held.entry(session.clone()).or_default();
            *count += 1;
            *count == 1
        };
        if first {
            self.changed.notify_one();
        }
        TakeOverGuard {
            board: self.clone(),
            session: session.clone(),
        }
    }

    pub fn is_held(&self, session: &SessionId) -> bool {
        lock(&self.held).contains_key(session) || self.remote_until(session).is_some()
    }

    /// The latest expiry of other replicas' live holds of the session.
    fn remote_until(&self, session: &SessionId) -> Option<Instant> {
        let now = Instant::now();
        lock(&self.remote)
            .iter()
            .filter(|((_, held), until)| held == session && **until > now)
            .map(|(_, until)| *until)
            .max()
    }

    /// Returns once nobody holds the session's desktop.
    pub async fn released(&self, session: &SessionId) {
        loop {
            // Registered before the check, so a release in between is not missed.
            let released = self.released.notified();
            if lock(&self.held).contains_key(session) {
                released.await;
                continue;
            }
            let Some(until) = self.remote_until(session) else {
                return;
            };
            tokio::select! {
                _ = released => {}
                _ = tokio::time::sleep_until(until) => {}
            }
        }
    }

    /// What another replica announced.
    pub fn announced(&self, from: ReplicaId, session: SessionId, held: bool) {
        {
            let mut remote = lock(&self.remote);
            let now = Instant::now();
            remote.retain(|_, until| *until > now);
            if held {
                remote.insert((from, session), now + HOLD_TTL);
            } else {
                remote.remove(&(from, session));
            }
        }
        self.released.notify_waiters();
    }

    /// The sessions this replica holds.
    pub fn held_here(&self) -> HashSet<SessionId> {
        lock(&self.held).keys().cloned().collect()
    }

    /// Returns when this replica's holds may have changed.
    pub async fn changed(&self) {
        self.changed.notified().await;
    }
}

impl Drop for TakeOverGuard {
    fn drop(&mut self) {
        let last = {
            let mut held = lock(&self.board.held);
            match held.get_mut(&self.session) {
                Some(count) if *count > 1 => {
                    *count -= 1;
                    false
                }
                Some(_) => {
                    held.remove(&self.session);
                    true
                }
                None => false,
            }
        };
        if last {
            self.board.changed.notify_one();
        }
        self.board.released.notify_waiters();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn another_replicas_hold_pauses_until_released_or_expired() {
        let board = TakeOver::default();
        let (session, other) = (SessionId::new(), ReplicaId::new("b"));
        board.announced(other.clone(), session.clone(), true);
        assert!(board.is_held(&session));
        assert!(!board.is_held(&SessionId::new()));

        // Released by its replica: the waiter goes on at once.
        let waited = Instant::now();
        let release = async {
            tokio::time::sleep(Duration::from_millis(500)).await;
            board.announced(other.clone(), session.clone(), false);
        };
        tokio::join!(board.released(&session), release);
        assert_eq!(waited.elapsed(), Duration::from_millis(500));

        // Never released (its replica died): it counts until HOLD_TTL after the last
        // announcement, however the refreshes went.
        board.announced(other.clone(), session.clone(), true);
        tokio::time::sleep(Duration::from_secs(2)).await;
        board.announced(other, session.clone(), true);
        let waited = Instant::now();
        board.released(&session).await;
        assert_eq!(waited.elapsed(), HOLD_TTL);
        assert!(!board.is_held(&session));
    }
}
