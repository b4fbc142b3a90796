//! Bounded admission for one kind of costly work: at most `at_once` run at a time, the
//! next `queue` wait their turn in arrival order for up to `wait`, and any beyond are
//! refused at once with `503` and `Retry-After` ([`AppError::Busy`]): the server is
//! busy, the caller did nothing wrong. Password checks and job creations take turns here.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::{Semaphore, SemaphorePermit};

use super::error::{AppError, AppResult};

#[derive(Debug, Clone)]
pub struct TurnSettings {
    /// Pieces of work running at once.
    pub at_once: usize,
    /// Pieces waiting for a turn, beyond those running.
    pub queue: usize,
    /// Longest wait for a turn.
    pub wait: Duration,
}

pub struct Turns {
    running: Semaphore,
    waiting: AtomicUsize,
    settings: TurnSettings,
    /// What the server is busy with, for the refusal's message.
    busy_with: &'static str,
}

impl Turns {
    pub fn new(settings: TurnSettings, busy_with: &'static str) -> Self {
        Self {
            running: Semaphore::new(settings.at_once.max(1)),
            waiting: AtomicUsize::new(0),
            settings,
            busy_with,
        }
    }

    /// A turn, held until dropped; `Busy` when the queue is full or the wait too long.
    pub async fn take(&self) -> AppResult<SemaphorePermit<'_>> {
        if let Ok(turn) = self.running.try_acquire() {
            return Ok(turn);
        }
        let _place = Place::take(&self.waiting, self.settings.queue).ok_or_else(|| self.busy())?;
        match tokio::time::timeout(self.settings.wait, self.running.acquire()).await {
            Ok(Ok(turn)) => Ok(turn),
            _ => Err(self.busy()),
        }
    }

    /// Pieces of work waiting for a turn now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    fn busy(&self) -> AppError {
        AppError::Busy {
            reason: format!("the server is {} at the moment", self.busy_with),
            retry_after_secs: self.settings.wait.as_secs().max(1),
        }
    }
}

/// A place in the queue, given back on drop.
struct Place<'a>(&'a AtomicUsize);

impl<'a> Place<'a> {
    fn take(waiting: &'a AtomicUsize, bound: usize) -> Option<Self> {
        waiting
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < bound).then_some(n + 1)
            })
            .ok()
            .map(|_| Self(waiting))
    }
}

impl Drop for Place<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}
