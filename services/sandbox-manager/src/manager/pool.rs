//! The warm pools: sandboxes started ahead of demand, each with its own fresh secrets, so
//! a session gets one in milliseconds. A pooled sandbox is handed to exactly one session
//! and removed with it, so no two sessions ever share a token.
//!
//! There are two, each of one [`PoolShape`]: the light pool, whose sandboxes have the
//! default storage and no kernel yet (what a chat's agent needs), and the code pool, whose
//! sandboxes have a home volume and their code interpreter's kernel started (what E2B's
//! code interpreter asks for). A pool sandbox with a volume names it after its own id
//! ([`SandboxRecord::home_key`]), so the volume follows it to the session that claims it.
//!
//! Pool sandboxes have no record; the pool itself holds their ids (also while they start
//! and while a claim is being recorded), which is how reconciliation knows them and their
//! volumes. After a manager crash they are orphans and are removed; the pools refill.

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::Utc;
use sandbox_manager_contract::{LifecycleKind, Sandbox, SandboxState, StorageKind};
use serde::Serialize;
use tokio::sync::Notify;
use utoipa::ToSchema;

use super::{lock, Manager};
use crate::access::{Endpoints, Secrets};
use crate::driver::SandboxSpec;
use crate::error::ManagerResult;
use crate::record::{new_sandbox_id, SandboxRecord};

/// After a failed start the pool waits this long (doubling up to a minute) before the next.
const RETRY_AFTER_FAILURE: Duration = Duration::from_secs(1);
/// The refill loop also looks every so often without being woken.
const RECHECK: Duration = Duration::from_secs(2);

/// What a pool's sandboxes are made with (besides the default network and limits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct PoolShape {
    pub storage: StorageKind,
    pub warm_kernel: bool,
}

pub(super) struct Pool {
    target: usize,
    shape: PoolShape,
    state: Mutex<PoolState>,
    wake: Notify,
}

/// The light pool and the code pool.
pub(super) struct Pools {
    pub light: Pool,
    pub code: Pool,
}

#[derive(Default)]
struct PoolState {
    ready: VecDeque<Pooled>,
    starting: usize,
    /// Every id the pool is responsible for: starting, ready, or being claimed.
    held: HashSet<String>,
}

pub(super) struct Pooled {
    id: String,
    secrets: Secrets,
    endpoints: Endpoints,
    /// The key of its home volume (its own id), if it has one.
    home_volume: Option<String>,
}

impl Pooled {
    /// What removes it from the engine: its id and its volume's key.
    pub(super) fn removal(&self) -> (&str, Option<&str>) {
        (&self.id, self.home_volume.as_deref())
    }
}

/// What `/health` reports about the pool.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct PoolStatus {
    pub target: usize,
    pub ready: usize,
    pub starting: usize,
}

impl Pools {
    pub(super) fn new(settings: &crate::config::Settings) -> Self {
        let light = PoolShape {
            storage: settings.sandbox.storage,
            warm_kernel: false,
        };
        let code = PoolShape {
            storage: StorageKind::Volume,
            warm_kernel: true,
        };
        Self {
            light: Pool::new(settings.pool.size, light),
            code: Pool::new(settings.pool.code_size, code),
        }
    }

    fn both(&self) -> [&Pool; 2] {
        [&self.light, &self.code]
    }

    /// The pool whose sandboxes have `shape`, if it keeps any.
    pub(super) fn of_shape(&self, shape: PoolShape) -> Option<&Pool> {
        self.both()
            .into_iter()
            .find(|pool| pool.shape == shape && pool.target > 0)
    }

    /// Whether either pool holds this sandbox id.
    pub(super) fn holds(&self, id: &str) -> bool {
        self.both().iter().any(|pool| lock(&pool.state).held.contains(id))
    }

    /// Every sandbox id the pools hold now (a pool sandbox's home volume key is its id).
    pub(super) fn held(&self) -> HashSet<String> {
        self.both()
            .iter()
            .flat_map(|pool| lock(&pool.state).held.clone())
            .collect()
    }

    /// Ready and starting sandboxes of both, which the memory budget counts.
    pub(super) fn in_memory(&self) -> usize {
        self.both()
            .iter()
            .map(|pool| {
                let status = pool.status();
                status.ready + status.starting
            })
            .sum()
    }

    /// Forgets a ready sandbox the engine says has died; the one forgotten, if it was one.
    pub(super) fn forget(&self, id: &str) -> Option<Pooled> {
        self.both().iter().find_map(|pool| pool.forget(id))
    }
}

impl Pool {
    fn new(target: usize, shape: PoolShape) -> Self {
        Self {
            target,
            shape,
            state: Mutex::default(),
            wake: Notify::new(),
        }
    }

    pub(super) fn status(&self) -> PoolStatus {
        let state = lock(&self.state);
        PoolStatus {
            target: self.target,
            ready: state.ready.len(),
            starting: state.starting,
        }
    }

    /// Takes a ready sandbox; it stays held until [`Pool::release`].
    fn take(&self) -> Option<Pooled> {
        let taken = lock(&self.state).ready.pop_front();
        self.wake.notify_one();
        taken
    }

    fn release(&self, id: &str) {
        lock(&self.state).held.remove(id);
    }

    fn forget(&self, id: &str) -> Option<Pooled> {
        let mut state = lock(&self.state);
        let at = state.ready.iter().position(|p| p.id == id)?;
        let forgotten = state.ready.remove(at);
        state.held.remove(id);
        self.wake.notify_one();
        forgotten
    }

    /// Reserves a slot for a new pool sandbox, if the pool is short of one.
    fn reserve(&self, parallel: usize) -> Option<String> {
        let mut state = lock(&self.state);
        if state.ready.len() + state.starting >= self.target || state.starting >= parallel {
            return None;
        }
        let id = new_sandbox_id();
        state.starting += 1;
        state.held.insert(id.clone());
        Some(id)
    }

    fn started(&self, pooled: Option<Pooled>, id: &str) {
        let mut state = lock(&self.state);
        state.starting -= 1;
        match pooled {
            Some(pooled) => state.ready.push_back(pooled),
            None => {
                state.held.remove(id);
            }
        }
    }

    /// The ready sandboxes, removed from the pool (for shutdown).
    fn drain(&self) -> Vec<Pooled> {
        let mut state = lock(&self.state);
        let drained: Vec<Pooled> = state.ready.drain(..).collect();
        for pooled in &drained {
            state.held.remove(&pooled.id);
        }
        drained
    }
}

impl Manager {
    /// Keeps a pool (`pick` finds it) full, starting up to `parallel_starts` sandboxes
    /// at a time.
    pub(super) async fn pool_loop(self: Arc<Self>, pick: fn(&Pools) -> &Pool) {
        let pool = pick(&self.pools);
        if pool.target == 0 {
            return std::future::pending().await;
        }
        let parallel = self.settings.pool.parallel_starts.max(1);
        let mut backoff = RETRY_AFTER_FAILURE;
        let (done_tx, mut done_rx) = tokio::sync::mpsc::unbounded_channel::<bool>();
        loop {
            while let Some(id) = pool.reserve(parallel) {
                let manager = self.clone();
                let done = done_tx.clone();
                tokio::spawn(async move {
                    let pool = pick(&manager.pools);
                    let pooled = manager.start_pooled(pool.shape, &id).await;
                    let ok = pooled.is_some();
                    pool.started(pooled, &id);
                    let _ = done.send(ok);
                });
            }
            tokio::select! {
                () = pool.wake.notified() => {}
                Some(ok) = done_rx.recv() => {
                    if ok {
                        backoff = RETRY_AFTER_FAILURE;
                    } else {
                        tokio::time::sleep(backoff).await;
                        backoff = (backoff * 2).min(Duration::from_secs(60));
                    }
                }
                () = tokio::time::sleep(RECHECK) => {}
            }
        }
    }

    async fn start_pooled(&self, shape: PoolShape, id: &str) -> Option<Pooled> {
        // Within the memory budget too, counting the others being started (not this one).
        let (live, pooled) = self.memory_users(1).await;
        if let Err(full) = self.memory.admit(&live, pooled) {
            tracing::info!(sandbox = id, %full, "the warm pool waits for memory");
            return None;
        }
        let secrets = Secrets::generate();
        let home_volume = (shape.storage == StorageKind::Volume).then(|| id.to_owned());
        let spec = SandboxSpec {
            sandbox_id: id.to_owned(),
            session_id: None,
            owner: None,
            secrets: secrets.clone(),
            limits: self.settings.sandbox.limits,
            network: self.settings.sandbox.network,
            home_volume: home_volume.clone(),
            warm_kernel: shape.warm_kernel,
        };
        let started = match self.driver.start(&spec).await {
            Ok(endpoints) => self.wait_ready(id, endpoints, &secrets).await,
            Err(err) => Err(err.into()),
        };
        match started {
            Ok(endpoints) => Some(Pooled {
                id: id.to_owned(),
                secrets,
                endpoints,
                home_volume,
            }),
            Err(err) => {
                tracing::warn!(sandbox = id, %err, "could not start a pool sandbox");
                let _ = self.driver.remove(id, home_volume.as_deref()).await;
                None
            }
        }
    }

    /// Hands a ready sandbox of `pool` to `record`'s session, or `None` when the pool has
    /// none that answers. `record` takes over the pooled sandbox's id, secrets, ports and
    /// home volume.
    pub(super) async fn claim_from_pool(
        &self,
        pool: &Pool,
        record: &mut SandboxRecord,
    ) -> ManagerResult<Option<Sandbox>> {
        while let Some(pooled) = pool.take() {
            if !self.answers(&pooled.endpoints, &pooled.secrets).await {
                tracing::warn!(sandbox = %pooled.id, "a pool sandbox stopped answering; removing it");
                let (id, volume) = pooled.removal();
                let _ = self.driver.remove(id, volume).await;
                pool.release(&pooled.id);
                continue;
            }
            let now = Utc::now();
            record.id = pooled.id.clone();
            record.secrets = pooled.secrets.clone();
            record.endpoints = Some(pooled.endpoints.clone());
            record.home_key = pooled.home_volume.clone();
            record.state = SandboxState::Ready;
            record.created_at = now;
            record.last_used_at = now;
            let inserted = self
                .registry
                .insert(record, self.admit(&record.owner, false))
                .await;
            if let Err(err) = inserted {
                // Refused (quota): the sandbox goes back to the pool untouched.
                lock(&pool.state).ready.push_front(pooled);
                return Err(err);
            }
            pool.release(&pooled.id);
            self.events
                .publish(LifecycleKind::Ready, record, "claimed from the warm pool");
            return Ok(Some(self.view(record)));
        }
        Ok(None)
    }

    /// Removes the pools' ready sandboxes (on shutdown; a crash leaves them to
    /// reconciliation).
    pub async fn drain_pool(&self) {
        for pooled in self.pools.both().into_iter().flat_map(Pool::drain) {
            let (id, volume) = pooled.removal();
            if let Err(err) = self.driver.remove(id, volume).await {
                tracing::warn!(sandbox = %id, %err, "removing a pool sandbox on shutdown");
            }
        }
    }
}
