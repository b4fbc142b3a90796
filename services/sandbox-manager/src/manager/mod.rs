//! The application: every sandbox operation the API offers, and the background work that
//! keeps engine and records in agreement ([`pool`] refills, [`monitor`] reaps, checks
//! health and reacts to engine events, [`reconcile`] removes what no record explains).
//!
//! Ordering rules that make crashes harmless: a record is stored (state `creating`) before
//! its container is made, and marked `removing` before its container is removed; a
//! container without a record, or a `creating`/`removing` record no running operation
//! owns, is left over from a crash and is cleaned up by reconciliation.

mod memory;
mod monitor;
mod pool;
mod readiness;
mod reconcile;
mod registry;
mod stop;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::Utc;
use sandbox_manager_contract::{
    CreateSandbox, ErrorCode, LifecycleKind, LimitsRequest, ListQuery, ResourceLimits, Sandbox, SandboxState,
    StorageKind,
};
use tokio_util::sync::CancellationToken;

use crate::access::Secrets;
use crate::config::Settings;
use crate::driver::{SandboxDriver, SandboxSpec};
use crate::error::{ManagerError, ManagerResult};
use crate::events::EventBus;
use crate::record::{new_sandbox_id, Lifetime, Owner, SandboxRecord, SessionId};
use crate::store::RecordStore;

pub use memory::MemoryStatus;
pub use pool::PoolStatus;
pub use reconcile::Reconciled;
use registry::Registry;

pub struct Manager {
    settings: Arc<Settings>,
    driver: Arc<dyn SandboxDriver>,
    registry: Registry,
    pub events: EventBus,
    pool: pool::Pool,
    /// Sandboxes an operation is working on right now; reconciliation leaves them alone.
    busy: Mutex<HashSet<String>>,
    /// One create or delete at a time per session.
    session_locks: Mutex<HashMap<SessionId, Arc<tokio::sync::Mutex<()>>>>,
    http: reqwest::Client,
    lifetime: Lifetime,
    memory: memory::MemoryBudget,
}

/// Marks a sandbox busy until dropped.
struct BusyGuard<'a> {
    manager: &'a Manager,
    id: String,
}

impl Drop for BusyGuard<'_> {
    fn drop(&mut self) {
        lock(&self.manager.busy).remove(&self.id);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

impl Manager {
    pub async fn new(settings: Arc<Settings>, driver: Arc<dyn SandboxDriver>) -> anyhow::Result<Arc<Self>> {
        let store = RecordStore::open(&settings.data_dir)?;
        let lifetime = Lifetime {
            idle_ttl: chrono::Duration::seconds(settings.lifetime.idle_ttl_secs as i64),
            max_lifetime: chrono::Duration::seconds(settings.lifetime.max_lifetime_secs as i64),
        };
        Ok(Arc::new(Self {
            pool: pool::Pool::new(settings.pool.size),
            events: EventBus::open(store.clone())?,
            registry: Registry::load(store).await?,
            busy: Mutex::default(),
            session_locks: Mutex::default(),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(2))
                .build()?,
            lifetime,
            memory: memory::MemoryBudget::new(&settings),
            settings,
            driver,
        }))
    }

    /// Starts the background work: reconciliation, the pool, the monitor. It ends when
    /// `stopping` is cancelled.
    pub fn spawn_background(self: &Arc<Self>, stopping: &CancellationToken) {
        let tasks: [(&str, futures::future::BoxFuture<'static, ()>); 3] = [
            ("reconcile", Box::pin(self.clone().reconcile_loop())),
            ("pool", Box::pin(self.clone().pool_loop())),
            ("monitor", Box::pin(self.clone().monitor_loop())),
        ];
        for (name, task) in tasks {
            let stopping = stopping.clone();
            tokio::spawn(async move {
                tokio::select! {
                    () = task => tracing::error!(task = name, "background task ended"),
                    () = stopping.cancelled() => {}
                }
            });
        }
    }

    fn busy(&self, id: &str) -> BusyGuard<'_> {
        lock(&self.busy).insert(id.to_owned());
        BusyGuard {
            manager: self,
            id: id.to_owned(),
        }
    }

    fn is_busy(&self, id: &str) -> bool {
        lock(&self.busy).contains(id)
    }

    fn session_lock(&self, session: &SessionId) -> Arc<tokio::sync::Mutex<()>> {
        let mut locks = lock(&self.session_locks);
        // Drop locks nobody holds, so the map does not grow with every session ever seen.
        locks.retain(|_, l| Arc::strong_count(l) > 1);
        locks.entry(session.clone()).or_default().clone()
    }

    pub fn view(&self, record: &SandboxRecord) -> Sandbox {
        record.view(self.lifetime)
    }

    pub fn pool_status(&self) -> PoolStatus {
        self.pool.status()
    }

    /// The sandboxes' memory use against the budget, for `/health`.
    pub async fn memory_status(&self) -> MemoryStatus {
        let (live, pooled) = self.memory_users(0).await;
        self.memory.status(&live, pooled)
    }

    /// What the memory budget counts: the live records, and the pool's sandboxes less
    /// `leaving_out`.
    async fn memory_users(&self, leaving_out: usize) -> (Vec<SandboxRecord>, usize) {
        let mut records = self.registry.all().await;
        records.retain(|r| r.state.is_live());
        let pool = self.pool.status();
        (records, (pool.ready + pool.starting).saturating_sub(leaving_out))
    }

    /// Engine reachability, for `/health`.
    pub async fn engine_up(&self) -> bool {
        self.driver.prepare().await.is_ok()
    }

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
                // An ended sandbox gives way to a new one (which finds the session's
                // volume), once that one runs: until then its record keeps the volume from
                // being reaped as an orphan's, also when the new one cannot start.
                SandboxState::Expired | SandboxState::Lost => ended = Some(existing.id),
            }
        }

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
        };
        let poolable =
            storage == StorageKind::Tmpfs && network == defaults.network && limits == defaults.limits;
        let claimed = if poolable {
            self.claim_from_pool(&mut record).await?
        } else {
            None
        };
        let made = match claimed {
            Some(claimed) => claimed,
            None => self.create_cold(record).await?,
        };
        if let Some(ended) = ended {
            self.registry.remove(&ended).await?;
        }
        Ok((made, true))
    }

    /// The quotas a new record must fit; `adds_memory` when it brings a new sandbox (a
    /// claim from the pool takes one whose memory is counted already).
    fn admit<'a>(
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
                let pool = self.pool.status();
                self.memory
                    .admit(live.iter().copied(), pool.ready + pool.starting)?;
            }
            Ok(())
        }
    }

    async fn create_cold(&self, record: SandboxRecord) -> ManagerResult<Sandbox> {
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
            storage: record.storage,
        };
        let started = match self.driver.start(&spec).await {
            Ok(endpoints) => self.wait_ready(&record.id, endpoints, &record.secrets).await,
            Err(err) => Err(err.into()),
        };
        match started {
            Ok(endpoints) => {
                let ready = self
                    .registry
                    .update(&record.id, |r| {
                        r.endpoints = Some(endpoints);
                        r.state = SandboxState::Ready;
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

    pub async fn get(&self, id: &str) -> ManagerResult<Sandbox> {
        let record = self
            .registry
            .get(id)
            .await
            .ok_or_else(|| ManagerError::not_found(id))?;
        Ok(self.view(&record))
    }

    pub async fn list(&self, query: &ListQuery) -> Vec<Sandbox> {
        self.registry
            .all()
            .await
            .into_iter()
            .filter(|r| query.owner.as_ref().is_none_or(|o| o == r.owner.as_str()))
            .filter(|r| {
                query
                    .session_id
                    .as_ref()
                    .is_none_or(|s| s == r.session_id.as_str())
            })
            .filter(|r| query.state.is_none_or(|s| s == r.state))
            .map(|r| self.view(&r))
            .collect()
    }

    /// Removes the sandbox's container and the session's volume, then the record. When
    /// the engine fails half-way, the record stays `removing` and reconciliation finishes.
    pub async fn delete(&self, id: &str) -> ManagerResult<()> {
        let record = self
            .registry
            .get(id)
            .await
            .ok_or_else(|| ManagerError::not_found(id))?;
        let session_lock = self.session_lock(&record.session_id);
        let _session_guard = session_lock.lock().await;
        let _busy = self.busy(id);
        let Some(record) = self.registry.set_state(id, SandboxState::Removing).await? else {
            return Err(ManagerError::not_found(id));
        };
        self.finish_removal(&record, "deleted").await
    }

    /// The second half of a delete: engine first, then the record, then the event.
    async fn finish_removal(&self, record: &SandboxRecord, why: &str) -> ManagerResult<()> {
        let volume = (record.storage == StorageKind::Volume).then(|| record.session_id.as_str());
        self.driver.remove(&record.id, volume).await?;
        self.registry.remove(&record.id).await?;
        self.events.publish(LifecycleKind::Removed, record, why);
        Ok(())
    }

    pub async fn keep_alive(&self, id: &str) -> ManagerResult<Sandbox> {
        let now = Utc::now();
        let record = self
            .registry
            .update(id, |r| {
                if r.state.is_live() {
                    r.last_used_at = now;
                }
            })
            .await?
            .ok_or_else(|| ManagerError::not_found(id))?;
        if !record.state.is_live() {
            return Err(ManagerError::new(
                ErrorCode::Conflict,
                format!(
                    "sandbox {id} has ended ({:?}); create the session's sandbox again",
                    record.state
                ),
            ));
        }
        Ok(self.view(&record))
    }

    pub async fn logs(&self, id: &str, tail: Option<u32>) -> ManagerResult<String> {
        let tail = tail.unwrap_or(200);
        if !(1..=10_000).contains(&tail) {
            return Err(ManagerError::invalid("tail must be between 1 and 10000"));
        }
        let record = self
            .registry
            .get(id)
            .await
            .ok_or_else(|| ManagerError::not_found(id))?;
        if !record.state.is_live() {
            return Err(ManagerError::new(
                ErrorCode::Conflict,
                format!("sandbox {id} has no container any more ({:?})", record.state),
            ));
        }
        Ok(self.driver.logs(id, tail).await?)
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
