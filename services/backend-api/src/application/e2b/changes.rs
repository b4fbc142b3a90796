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
    /// asked for that; `true` when this call did. One connected or extended since it was
    /// read is left running.
    pub(super) async fn time_up(&self, read: &E2bSandbox) -> AppResult<bool> {
        if read.state == E2bState::Running && read.auto_pause {
            Ok(self.pause_now(read).await? == Updated::Stored)
        } else {
            Ok(self.end(&read.id).await)
        }
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
