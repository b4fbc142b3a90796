//! The one place a turn's work is bounded: every model request and tool call runs
//! through [`Guard::run`], which waits while the person holds the desktop (that time is
//! not the run's), and ends the work when the run is stopped or its time budget ends.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::take_over::TakeOver;
use crate::domain::session::SessionId;

/// Why guarded work did not finish.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interrupted {
    Stopped,
    OutOfTime,
}

pub struct Guard {
    cancel: CancellationToken,
    take_over: Arc<TakeOver>,
    session: SessionId,
    budget: Duration,
    /// When the turn began, moved on by the time the person held the desktop.
    started: Instant,
}

impl Guard {
    pub fn new(
        cancel: CancellationToken,
        take_over: Arc<TakeOver>,
        session: SessionId,
        budget: Duration,
    ) -> Self {
        Self {
            cancel,
            take_over,
            session,
            budget,
            started: Instant::now(),
        }
    }

    /// Runs `work` unless the run is stopped or out of time first (then `work` is
    /// dropped where it stands).
    pub async fn run<T>(&mut self, work: impl Future<Output = T>) -> Result<T, Interrupted> {
        self.wait_for_desktop().await?;
        let deadline = self.started + self.budget;
        tokio::select! {
            // A stop or a spent budget wins over work that is ready at the same time.
            biased;
            _ = self.cancel.cancelled() => Err(Interrupted::Stopped),
            _ = tokio::time::sleep_until(deadline) => Err(Interrupted::OutOfTime),
            done = work => Ok(done),
        }
    }

    async fn wait_for_desktop(&mut self) -> Result<(), Interrupted> {
        if !self.take_over.is_held(&self.session) {
            return Ok(());
        }
        tracing::info!(
            session = self.session.as_str(),
            "paused: the person has the desktop"
        );
        let paused = Instant::now();
        tokio::select! {
            _ = self.cancel.cancelled() => Err(Interrupted::Stopped),
            _ = self.take_over.released(&self.session) => {
                self.started += paused.elapsed();
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(budget: Duration) -> (Guard, CancellationToken, Arc<TakeOver>, SessionId) {
        let (cancel, take_over, session) = (
            CancellationToken::new(),
            Arc::new(TakeOver::default()),
            SessionId::new(),
        );
        let guard = Guard::new(cancel.clone(), take_over.clone(), session.clone(), budget);
        (guard, cancel, take_over, session)
    }

    #[tokio::test(start_paused = true)]
    async fn work_ends_with_a_stop_or_the_budget_and_a_take_over_pauses_the_clock() {
        let (mut guard, cancel, take_over, session) = guard(Duration::from_secs(10));
        assert_eq!(guard.run(async { 1 }).await, Ok(1));

        let held = take_over.hold(&session);
        let release = async move {
            tokio::time::sleep(Duration::from_secs(60)).await;
            drop(held);
        };
        let slow = async { tokio::time::sleep(Duration::from_secs(8)).await };
        let (done, ()) = tokio::join!(guard.run(slow), release);
        assert_eq!(done, Ok(()), "a minute with the person does not count");

        let too_slow = async { tokio::time::sleep(Duration::from_secs(5)).await };
        assert_eq!(guard.run(too_slow).await, Err(Interrupted::OutOfTime));

        cancel.cancel();
        assert_eq!(guard.run(async { 2 }).await, Err(Interrupted::Stopped));
    }
}
