//! Ending a sandbox's container while its session's volume stays: the reaper does it when
//! a sandbox's time is up, and a caller asks for it (`POST /v1/sandboxes/{id}/stop`) to
//! pause a sandbox, whose files the session's next sandbox finds again.

use sandbox_manager_contract::{ErrorCode, LifecycleKind, Sandbox, SandboxState};

use super::Manager;
use crate::error::{ManagerError, ManagerResult};
use crate::record::SandboxRecord;

impl Manager {
    /// Stops the sandbox now, keeping its volume; it stays `expired` until the session's
    /// sandbox is created again (with the same files, when its storage is a volume) or
    /// deleted. One already ended is left as it is.
    pub async fn stop(&self, id: &str) -> ManagerResult<Sandbox> {
        let record = self
            .registry
            .get(id)
            .await
            .ok_or_else(|| ManagerError::not_found(id))?;
        let session_lock = self.session_lock(&record.session_id);
        let _session_guard = session_lock.lock().await;
        let record = self
            .registry
            .get(id)
            .await
            .ok_or_else(|| ManagerError::not_found(id))?;
        match record.state {
            SandboxState::Ready | SandboxState::Unhealthy => {}
            SandboxState::Expired | SandboxState::Lost => return Ok(self.view(&record)),
            SandboxState::Creating | SandboxState::Removing => {
                return Err(ManagerError::new(
                    ErrorCode::Conflict,
                    format!("sandbox {id} is being created or removed; stop it once it is ready"),
                ))
            }
        }
        let _busy = self.busy(id);
        let stopped = self
            .end_keeping_volume(&record, "it was stopped on request")
            .await?;
        Ok(self.view(&stopped.unwrap_or(record)))
    }

    /// Removes the container (not the volume), then marks the record `expired` and says
    /// why; the record as it now is, unless it was removed meanwhile.
    pub(super) async fn end_keeping_volume(
        &self,
        record: &SandboxRecord,
        why: &str,
    ) -> ManagerResult<Option<SandboxRecord>> {
        self.driver.remove(&record.id, None).await?;
        let expired = self.registry.set_state(&record.id, SandboxState::Expired).await?;
        if let Some(expired) = &expired {
            self.events.publish(LifecycleKind::Expired, expired, why);
        }
        Ok(expired)
    }
}
