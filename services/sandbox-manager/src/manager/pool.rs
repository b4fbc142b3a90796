//! The warm pool: sandboxes started ahead of demand, each with its own fresh secrets, so a
//! session gets one in milliseconds. A pooled sandbox is handed to exactly one session and
//! removed with it, so no two sessions ever share a token.
//!
//! Pool sandboxes have no record; the pool itself holds their ids (also while they start
//! and while a claim is being recorded), which is how reconciliation knows them. After a
//! manager crash they are orphans and are removed; the pool refills.

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::Utc;
use sandbox_manager_contract::{LifecycleKind, Sandbox, SandboxState};
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

pub(super) struct Pool {
    target: usize,
    state: Mutex<PoolState>,
    wake: Notify,
}

#[derive(Default)]
struct PoolState {
    ready: VecDeque<Pooled>,
    starting: usize,
    /// Every id the pool is responsible for: starting, ready, or being claimed.
    held: HashSet<String>,
}

struct Pooled {
    id: String,
    secrets: Secrets,
    endpoints: Endpoints,
}

/// What `/health` reports about the pool.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct PoolStatus {
    pub target: usize,
    pub ready: usize,
    pub starting: usize,
}

impl Pool {
    pub(super) fn new(target: usize) -> Self {
        Self {
            target,
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

    pub(super) fn holds(&self, id: &str) -> bool {
        lock(&self.state).held.contains(id)
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

    /// Forgets a ready sandbox the engine says has died; `true` if it was one.
    pub(super) fn forget(&self, id: &str) -> bool {
        let mut state = lock(&self.state);
        let before = state.ready.len();
        state.ready.retain(|p| p.id != id);
        let found = state.ready.len() != before;
        if found {
            state.held.remove(id);
            self.wake.notify_one();
        }
        found
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

    /// Ids of the ready sandboxes, removed from the pool (for shutdown).
    fn drain(&self) -> Vec<String> {
        let mut state = lock(&self.state);
        let ids: Vec<String> = state.ready.drain(..).map(|p| p.id).collect();
        for id in &ids {
            state.held.remove(id);
        }
        ids
    }
}

impl Manager {
    /// Keeps the pool full, starting up to `parallel_starts` sandboxes at a time.
    pub(super) async fn pool_loop(self: Arc<Self>) {
        if self.pool.target == 0 {
            return std::future::pending().await;
        }
        let parallel = self.settings.pool.parallel_starts.max(1);
        let mut backoff = RETRY_AFTER_FAILURE;
        let (done_tx, mut done_rx) = tokio::sync::mpsc::unbounded_channel::<bool>();
        loop {
            while let Some(id) = self.pool.reserve(parallel) {
                let manager = self.clone();
                let done = done_tx.clone();
                tokio::spawn(async move {
                    let pooled = manager.start_pooled(&id).await;
                    let ok = pooled.is_some();
                    manager.pool.started(pooled, &id);
                    let _ = done.send(ok);
                });
            }
            tokio::select! {
                () = self.pool.wake.notified() => {}
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

    async fn start_pooled(&self, id: &str) -> Option<Pooled> {
        // Within the memory budget too, counting the others being started (not this one).
        let (live, pooled) = self.memory_users(1).await;
        if let Err(full) = self.memory.admit(&live, pooled) {
            tracing::info!(sandbox = id, %full, "the warm pool waits for memory");
            return None;
        }
        let secrets = Secrets::generate();
        let spec = SandboxSpec {
            sandbox_id: id.to_owned(),
            session_id: None,
            owner: None,
            secrets: secrets.clone(),
            limits: self.settings.sandbox.limits,
            network: self.settings.sandbox.network,
            storage: sandbox_manager_contract::StorageKind::Tmpfs,
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
            }),
            Err(err) => {
                tracing::warn!(sandbox = id, %err, "could not start a pool sandbox");
                let _ = self.driver.remove(id, None).await;
                None
            }
        }
    }

    /// Hands a ready pool sandbox to `record`'s session, or `None` when the pool has none
    /// that answers. `record` takes over the pooled sandbox's id, secrets and ports.
    pub(super) async fn claim_from_pool(&self, record: &mut SandboxRecord) -> ManagerResult<Option<Sandbox>> {
        while let Some(pooled) = self.pool.take() {
            if !self.answers(&pooled.endpoints, &pooled.secrets).await {
                tracing::warn!(sandbox = %pooled.id, "a pool sandbox stopped answering; removing it");
                let _ = self.driver.remove(&pooled.id, None).await;
                self.pool.release(&pooled.id);
                continue;
            }
            let now = Utc::now();
            record.id = pooled.id.clone();
            record.secrets = pooled.secrets.clone();
            record.endpoints = Some(pooled.endpoints.clone());
            record.state = SandboxState::Ready;
            record.created_at = now;
            record.last_used_at = now;
            let inserted = self
                .registry
                .insert(record, self.admit(&record.owner, false))
                .await;
            if let Err(err) = inserted {
                // Refused (quota): the sandbox goes back to the pool untouched.
                lock(&self.pool.state).ready.push_front(pooled);
                return Err(err);
            }
            self.pool.release(&pooled.id);
            self.events
                .publish(LifecycleKind::Ready, record, "claimed from the warm pool");
            return Ok(Some(self.view(record)));
        }
        Ok(None)
    }

    /// Removes the pool's ready sandboxes (on shutdown; a crash leaves them to
    /// reconciliation).
    pub async fn drain_pool(&self) {
        for id in self.pool.drain() {
            if let Err(err) = self.driver.remove(&id, None).await {
                tracing::warn!(sandbox = %id, %err, "removing a pool sandbox on shutdown");
            }
        }
    }
}
