//! The application: every sandbox operation the API offers, and the background work that
//! keeps engine and records in agreement ([`pool`] refills, [`monitor`] reaps, checks
//! health and reacts to engine events, [`reconcile`] removes what no record explains).
//!
//! Ordering rules that make crashes harmless: a record is stored (state `creating`) before
//! its container is made, and marked `removing` before its container is removed; a
//! container without a record, or a `creating`/`removing` record no running operation
//! owns, is left over from a crash and is cleaned up by reconciliation.

mod create;
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
use sandbox_manager_contract::{ErrorCode, LifecycleKind, ListQuery, Sandbox, SandboxState};
use tokio_util::sync::CancellationToken;

use crate::config::Settings;
use crate::driver::SandboxDriver;
use crate::error::{ManagerError, ManagerResult};
use crate::events::EventBus;
use crate::record::{Lifetime, SandboxRecord, SessionId};
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
    pools: pool::Pools,
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
            pools: pool::Pools::new(&settings),
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
        let tasks: [(&str, futures::future::BoxFuture<'static, ()>); 4] = [
            ("reconcile", Box::pin(self.clone().reconcile_loop())),
            ("pool", Box::pin(self.clone().pool_loop(|pools| &pools.light))),
            ("code pool", Box::pin(self.clone().pool_loop(|pools| &pools.code))),
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

    /// The light pool's and the code pool's.
    pub fn pool_status(&self) -> (PoolStatus, PoolStatus) {
        (self.pools.light.status(), self.pools.code.status())
    }

    /// The sandboxes' memory use against the budget, for `/health`.
    pub async fn memory_status(&self) -> MemoryStatus {
        let (live, pooled) = self.memory_users(0).await;
        self.memory.status(&live, pooled)
    }

    /// What the memory budget counts: the live records, and the pools' sandboxes (bytes)
    /// less `leaving_out` starting ones.
    async fn memory_users(&self, leaving_out: u64) -> (Vec<SandboxRecord>, u64) {
        let mut records = self.registry.all().await;
        records.retain(|r| r.state.is_live());
        let reservation = self.memory.reservation();
        let pooled = self.pools.in_memory(reservation);
        (records, pooled.saturating_sub(leaving_out * reservation))
    }

    /// Engine reachability, for `/health`.
    pub async fn engine_up(&self) -> bool {
        self.driver.prepare().await.is_ok()
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

    /// Removes the sandbox's container and its home volume, then the record. When
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
        self.driver.remove(&record.id, record.home_volume()).await?;
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
}
