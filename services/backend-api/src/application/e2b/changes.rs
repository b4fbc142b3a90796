//! Changing a rented sandbox's record only from the reading it was made from: the sweep
//! pausing a sandbox and a connect resuming it (or a set_timeout) may race, and the store
//! refuses the second of two changes made from the same reading, which then reads again.

use chrono::Utc;

use super::E2bService;
use crate::application::{AppError, AppResult};
use crate::domain::e2b::{E2bSandbox, E2bSandboxId, E2bState};
use crate::domain::ports::Updated;

/// How often a change is tried again from a fresh reading when others keep landing first.
pub(super) const CHANGE_ATTEMPTS: usize = 5;

pub(super) fn changed_too_often() -> AppError {
    AppError::Conflict("the sandbox kept being changed by other requests; try again".into())
}

impl E2bService {
    /// Records the sandbox paused first (so the sweep keeps it), then ends its container;
    /// nothing happens unless it is still as `read`.
    pub(super) async fn pause_now(&self, read: &E2bSandbox) -> AppResult<Updated> {
        let mut sandbox = read.clone();
        sandbox.pause(Utc::now());
        let updated = self.sandboxes.update(&sandbox, read).await?;
        if updated == Updated::Stored {
            self.found.forget(&sandbox.id);
            self.gateway.stop(sandbox.id.session()).await?;
        }
        Ok(updated)
    }

    /// Ends the sandbox read as `read` whose time is up, or pauses it when it runs and
    /// asked for that; `true` when this call did. Either leaves one connected or extended
    /// since it was read as it is.
    pub(super) async fn time_up(&self, read: &E2bSandbox) -> AppResult<bool> {
        let updated = if pauses(read) {
            self.pause_now(read).await?
        } else {
            self.end_as_read(read).await?
        };
        Ok(updated == Updated::Stored)
    }

    /// Removes the record, then the container, of the sandbox still as `read`.
    async fn end_as_read(&self, read: &E2bSandbox) -> AppResult<Updated> {
        self.found.forget(&read.id);
        let updated = self.sandboxes.remove_as_read(read).await?;
        if updated == Updated::Stored {
            self.release(&read.id).await;
        }
        Ok(updated)
    }

    /// [`Self::time_up`] now, done when this returns: when the sweep (or a kill) got
    /// there first and may still be at it, the container is removed or stopped here too
    /// (doing either again does nothing more).
    pub(super) async fn end_now(&self, read: &E2bSandbox) -> AppResult<()> {
        if !pauses(read) {
            self.end_surely(&read.id).await;
        } else if self.pause_now(read).await? != Updated::Stored {
            match self.sandboxes.get(&read.id).await? {
                None => self.release(&read.id).await,
                Some(now) if now.state == E2bState::Paused => self.gateway.stop(now.id.session()).await?,
                // Connected or extended meanwhile: it runs on.
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// Applies `change` to the stored sandbox and stores the result, from a fresh reading
    /// again when another change landed in between; `None` when the sandbox is gone.
    pub(super) async fn change(
        &self,
        id: &E2bSandboxId,
        mut change: impl FnMut(&mut E2bSandbox) -> AppResult<()>,
    ) -> AppResult<Option<E2bSandbox>> {
        for _ in 0..CHANGE_ATTEMPTS {
            let Some(read) = self.sandboxes.get(id).await? else {
                return Ok(None);
            };
            let mut sandbox = read.clone();
            change(&mut sandbox)?;
            match self.sandboxes.update(&sandbox, &read).await? {
                Updated::Stored => return Ok(Some(sandbox)),
                Updated::ChangedMeanwhile => continue,
                Updated::Removed => return Ok(None),
            }
        }
        Err(changed_too_often())
    }
}

/// Whether `read` pauses rather than ends when its time is up.
fn pauses(read: &E2bSandbox) -> bool {
    read.state == E2bState::Running && read.auto_pause
}
