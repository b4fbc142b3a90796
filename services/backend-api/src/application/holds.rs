//! Per-person caps on connections held open at once — event streams, file watches, and
//! desktop or terminal relays — so one signed-in person cannot exhaust the backend's
//! memory or the sandboxes' connections.
//!
//! A [`Hold`] lives as long as its connection and gives its slot back when dropped,
//! which also happens when the connection's task panics or is aborted. The counts are
//! this replica's own: with several replicas a person may hold up to the cap on each.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::error::{AppError, AppResult};
use crate::domain::user::UserId;

/// What a connection holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Held {
    /// Server-sent event streams: a session's events, the session list.
    Stream,
    /// Server-sent file watches.
    Watch,
    /// The desktop's and the terminal's WebSocket relays.
    Relay,
}

impl Held {
    /// What the person is told when they hold `cap` already.
    fn too_many(self, cap: usize) -> String {
        match self {
            Held::Stream => {
                format!("too many open streams ({cap}); close some tabs or windows of this app and try again")
            }
            Held::Watch => format!(
                "too many open file watches ({cap}); close some file browsers of this app and try again"
            ),
            Held::Relay => {
                format!("too many open desktop or terminal connections ({cap}); close some and try again")
            }
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct HoldCaps {
    pub streams: usize,
    pub watches: usize,
    pub relays: usize,
}

type Counts = Mutex<HashMap<(UserId, Held), usize>>;

pub struct Holds {
    caps: HoldCaps,
    counts: Arc<Counts>,
}

/// One open connection's slot.
pub struct Hold {
    counts: Arc<Counts>,
    key: (UserId, Held),
}

impl Holds {
    pub fn new(caps: HoldCaps) -> Self {
        Self {
            caps,
            counts: Arc::default(),
        }
    }

    fn cap(&self, what: Held) -> usize {
        match what {
            Held::Stream => self.caps.streams,
            Held::Watch => self.caps.watches,
            Held::Relay => self.caps.relays,
        }
    }

    /// A slot for one more connection, or `TooManyOpen` when the person holds the cap.
    pub fn acquire(&self, user: &UserId, what: Held) -> AppResult<Hold> {
        let cap = self.cap(what);
        let key = (user.clone(), what);
        let mut counts = lock(&self.counts);
        let count = counts.entry(key.clone()).or_default();
        if *count >= cap {
            return Err(AppError::TooManyOpen(what.too_many(cap)));
        }
        *count += 1;
        Ok(Hold {
            counts: self.counts.clone(),
            key,
        })
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        let mut counts = lock(&self.counts);
        if let Some(count) = counts.get_mut(&self.key) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.key);
            }
        }
    }
}

fn lock(counts: &Counts) -> std::sync::MutexGuard<'_, HashMap<(UserId, Held), usize>> {
    counts.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_comes_back_when_its_hold_is_dropped_even_by_a_panic() {
        let holds = Holds::new(HoldCaps {
            streams: 1,
            watches: 2,
            relays: 1,
        });
        let (ada, bob) = (UserId::new(), UserId::new());
        let first = holds.acquire(&ada, Held::Stream).unwrap();
        assert!(matches!(
            holds.acquire(&ada, Held::Stream),
            Err(AppError::TooManyOpen(_))
        ));
        // Other people and other kinds have their own slots.
        let _bob = holds.acquire(&bob, Held::Stream).unwrap();
        let _watch = holds.acquire(&ada, Held::Watch).unwrap();
        drop(first);
        let again = holds.acquire(&ada, Held::Stream).unwrap();
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
            let _held = again;
            panic!("the connection's task fails");
        }));
        assert!(panicked.is_err());
        assert!(holds.acquire(&ada, Held::Stream).is_ok());
    }
}
