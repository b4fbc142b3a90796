//! Create-or-get: a session's sandbox is the one it has, one claimed from the warm pool,
//! or a new one started cold, each within the owner's quotas, the memory budget and the
//! limits a request may ask for.

use chrono::Utc;
use sandbox_manager_contract::{
    CreateSandbox, ErrorCode, LifecycleKind, LimitsRequest, ResourceLimits, Sandbox, SandboxState,
    StorageKind,
};

use super::pool::PoolShape;
use super::Manager;
use crate::access::Secrets;
use crate::driver::SandboxSpec;
use crate::error::{ManagerError, ManagerResult};
use crate::record::{new_sandbox_id, Owner, SandboxRecord, SessionId};

impl Manager {
    /// The session's sandbox: the existing one, one claimed from the warm pool, or a new
    /// one. `true` with it when it was made for this call.
    pub async fn create_or_get(&self, request: CreateSandbox) -> ManagerResult<(Sandbox, bool)> {
        let session = SessionId::parse(&request.session_id)?;
        let owner = Owner::parse(&request.owner)?;
        let limits = self.resolve_limits(request.limits)?;
        let defaults = &self.settings.sandbox;
        let network = request.network.unwrap_or(defaults.network);
        let storage = request.storage.unwrap_or(defaults.storage);

        let session_lock = self.session_lock(&session);
        let _session_guard = session_lock.lock().await;
        let mut ended = None;
        if let Some(existing) = self.registry.by_session(&session).await {
            if existing.owner != owner {
                return Err(ManagerError::new(
                    ErrorCode::Conflict,
                    format!("session {} belongs to another owner", session.as_str()),
                ));
            }
            match existing.state {
                SandboxState::Ready | SandboxState::Unhealthy => {
                    let now = Utc::now();
                    let touched = self
                        .registry
                        .update(&existing.id, |r| r.last_used_at = now)
                        .await?;
                    return Ok((self.view(&touched.unwrap_or(existing)), false));
                }
                SandboxState::Creating | SandboxState::Removing => {
                    return Err(ManagerError::new(
                        ErrorCode::Conflict,
                        "the session's previous sandbox is still being cleaned up; retry shortly",
                    ))
                }
                // An ended sandbox gives way to a new one (which takes over its home
                // volume), once that one runs: until then its record keeps the volume from
                // being reaped as an orphan's, also when the new one cannot start.
                SandboxState::Expired | SandboxState::Lost => ended = Some(existing),
            }
        }

        // The ended sandbox's files, when both keep them on a volume.
        let inherited = ended
            .as_ref()
            .filter(|_| storage == StorageKind::Volume)
            .and_then(|ended| ended.home_volume())
            .map(str::to_owned);
        let now = Utc::now();
        let mut record = SandboxRecord {
            id: new_sandbox_id(),
            session_id: session,
            owner,
            state: SandboxState::Creating,
            created_at: now,
            last_used_at: now,
            secrets: Secrets::generate(),
            endpoints: None,
            limits,
            network,
            storage,
            image: self.driver.image().to_owned(),
            restarts: 0,
            keep_while_idle: request.keep_while_idle,
            home_key: None,
        };
        let shape = PoolShape {
            storage,
            warm_kernel: request.warm_kernel,
        };
        let pool = self
            .pools
            .of_shape(shape)
            .filter(|_| inherited.is_none() && network == defaults.network && limits == defaults.limits);
        let claimed = match pool {
            Some(pool) => self.claim_from_pool(pool, &mut record).await?,
            None => None,
        };
        let made = match claimed {
            Some(claimed) => claimed,
            None => {
                if storage == StorageKind::Volume {
                    record.home_key =
                        Some(inherited.unwrap_or_else(|| record.session_id.as_str().to_owned()));
                }
                self.create_cold(record, request.warm_kernel).await?
            }
        };
        if let Some(ended) = ended {
            self.registry.remove(&ended.id).await?;
        }
        Ok((made, true))
    }

    /// The quotas a new record must fit; `adds_memory` when it brings a new sandbox (a
    /// claim from the pool takes one whose memory is counted already).
    pub(super) fn admit<'a>(
        &'a self,
        owner: &'a Owner,
        adds_memory: bool,
    ) -> impl FnOnce(&[&SandboxRecord]) -> ManagerResult<()> + 'a {
        move |live| {
            let quota = &self.settings.quota;
            if live.len() >= quota.global {
                return Err(ManagerError::new(
                    ErrorCode::CapacityReached,
                    format!(
                        "the manager runs its maximum of {} sandboxes; retry later",
                        quota.global
                    ),
                ));
            }
            let own = live.iter().filter(|r| &r.owner == owner).count();
            if own >= quota.per_owner {
                return Err(ManagerError::new(
                    ErrorCode::OwnerQuotaExceeded,
                    format!(
                        "{} already has {own} live sandboxes (the quota is {}); delete one first",
                        owner.as_str(),
                        quota.per_owner
                    ),
                ));
            }
            if adds_memory {
                let pooled = self.pools.in_memory(self.memory.reservation());
                self.memory.admit(live.iter().copied(), pooled)?;
            }
            Ok(())
        }
    }

    async fn create_cold(&self, record: SandboxRecord, warm_kernel: bool) -> ManagerResult<Sandbox> {
        let _busy = self.busy(&record.id);
        self.registry
            .insert(&record, self.admit(&record.owner, true))
            .await?;
        self.events
            .publish(LifecycleKind::Creating, &record, "starting a sandbox");
        let spec = SandboxSpec {
            sandbox_id: record.id.clone(),
            session_id: Some(record.session_id.as_str().to_owned()),
            owner: Some(record.owner.as_str().to_owned()),
            secrets: record.secrets.clone(),
            limits: record.limits,
            network: record.network,
            home_volume: record.home_volume().map(str::to_owned),
            warm_kernel,
        };
        let started = match self.driver.start(&spec).await {
            Ok(endpoints) => self.wait_ready(&record.id, endpoints, &record.secrets).await,
            Err(err) => Err(err.into()),
        };
        match started {
            Ok(endpoints) => {
                // Idle time counts from here: a slow start is not the caller's idleness.
                let now = Utc::now();
                let ready = self
                    .registry
                    .update(&record.id, |r| {
                        r.endpoints = Some(endpoints);
                        r.state = SandboxState::Ready;
                        r.last_used_at = now;
                    })
                    .await?
                    .ok_or_else(|| anyhow::anyhow!("record {} vanished while it was created", record.id))?;
                self.events
                    .publish(LifecycleKind::Ready, &ready, "the sandbox is ready");
                Ok(self.view(&ready))
            }
            Err(err) => {
                if let Err(cleanup) = self.driver.remove(&record.id, None).await {
                    tracing::warn!(sandbox = %record.id, %cleanup, "removing a sandbox that failed to start");
                }
                self.registry.remove(&record.id).await?;
                self.events.publish(
                    LifecycleKind::Removed,
                    &record,
                    format!("it did not start: {err}"),
                );
                Err(err)
            }
        }
    }

    fn resolve_limits(&self, requested: Option<LimitsRequest>) -> ManagerResult<ResourceLimits> {
        let defaults = self.settings.sandbox.limits;
        let max = self.settings.sandbox.max_limits;
        let requested = requested.unwrap_or_default();
        let limits = ResourceLimits {
            memory_mb: requested.memory_mb.unwrap_or(defaults.memory_mb),
            cpus: requested.cpus.unwrap_or(defaults.cpus),
            pids: requested.pids.unwrap_or(defaults.pids),
        };
        // Enough for the tool-api and a shell's work. The desktop needs more (Chromium
        // needs > 128 pids and is OOM-killed on its first page at 200 MiB): in a smaller
        // sandbox it refuses to start and says why, and everything else works.
        const MIN_MEMORY_MB: u64 = 128;
        const MIN_PIDS: u32 = 64;
        if !(MIN_MEMORY_MB..=max.memory_mb).contains(&limits.memory_mb) {
            return Err(ManagerError::invalid(format!(
                "limits.memory_mb must be between {MIN_MEMORY_MB} and {}",
                max.memory_mb
            )));
        }
        if !(limits.cpus.is_finite() && limits.cpus >= 0.1 && limits.cpus <= max.cpus) {
            return Err(ManagerError::invalid(format!(
                "limits.cpus must be between 0.1 and {}",
                max.cpus
            )));
        }
        if !(MIN_PIDS..=max.pids).contains(&limits.pids) {
            return Err(ManagerError::invalid(format!(
                "limits.pids must be between {MIN_PIDS} and {}",
                max.pids
            )));
        }
        Ok(limits)
    }
}
