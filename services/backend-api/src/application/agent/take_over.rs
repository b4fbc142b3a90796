//! A person holding the desktop: while anyone has a session's desktop in control mode,
//! that session's run waits before its next model request or tool call, so the agent
//! and the person never fight over the mouse. Held in this process (see "Several
//! replicas" in backend-api's README).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

use crate::domain::session::SessionId;

#[derive(Default)]
pub struct TakeOver {
    held: Mutex<HashMap<SessionId, usize>>,
    released: Notify,
}

/// Control of one session's desktop; let go when dropped.
pub struct TakeOverGuard {
    board: Arc<TakeOver>,
    session: SessionId,
}

impl TakeOver {
    pub fn hold(self: &Arc<Self>, session: &SessionId) -> TakeOverGuard {
        *self
            .held
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(session.clone())
            .or_default() += 1;
        TakeOverGuard {
            board: self.clone(),
            session: session.clone(),
        }
    }

    pub fn is_held(&self, session: &SessionId) -> bool {
        self.held
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains_key(session)
    }

    /// Returns once nobody holds the session's desktop.
    pub async fn released(&self, session: &SessionId) {
        loop {
            // Registered before the check, so a release in between is not missed.
            let released = self.released.notified();
            if !self.is_held(session) {
                return;
            }
            released.await;
        }
    }
}

impl Drop for TakeOverGuard {
    fn drop(&mut self) {
        let mut held = self.board.held.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(count) = held.get_mut(&self.session) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.session);
            }
        }
        drop(held);
        self.board.released.notify_waiters();
    }
}
