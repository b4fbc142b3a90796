//! The warm pools: sandboxes started ahead of demand, each with its own fresh secrets, so
//! a session gets one in milliseconds. A pooled sandbox is handed to exactly one session
//! and removed with it, so no two sessions ever share a token.
//!
//! There are two, each of one [`PoolShape`]: the light pool, whose sandboxes have the
//! default storage and no kernel yet (what a chat's agent needs), and the code pool, whose
//! sandboxes have a home volume and their code interpreter's kernel started (what E2B's
//! code interpreter asks for). A pool sandbox's volume is keyed by its own id
//! ([`pools::pool_volume_key`], kept as the record's `home_key`), so the volume follows it
//! to the session that claims it.
//!
//! Pool sandboxes have no record; the pool itself holds their ids (while they start, wait,
//! are claimed and are removed), which is how reconciliation knows them and their
//! volumes. After a manager crash they are orphans and are removed; the pools refill.
//!
//! # Layout
//! - `pools.rs` — the bookkeeping: [`Pool`], [`Pools`], a ready [`pools::Pooled`].
//! - here — the refill loop, a pool sandbox's start, a claim, and the drain at shutdown.

mod pools;

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use sandbox_manager_contract::{LifecycleKind, Sandbox, SandboxState, StorageKind};

use super::{lock, Manager};
use crate::access::Secrets;
use crate::driver::SandboxSpec;
use crate::error::ManagerResult;
use crate::record::SandboxRecord;
use pools::{pool_volume_key, Pooled};
pub use pools::{Pool, PoolShape, PoolStatus, Pools};

/// After a failed start the pool waits this long (doubling up to a minute) before the next.
const RETRY_AFTER_FAILURE: Duration = Duration::from_secs(1);
/// The refill loop also looks every so often without being woken.
const RECHECK: Duration = Duration::from_secs(2);

impl Manager {
    /// Keeps a pool (`pick` finds it) full, the two pools starting up to
    /// `parallel_starts` sandboxes at a time between them.
    pub(super) async fn pool_loop(self: Arc<Self>, pick: fn(&Pools) -> &Pool) {
        let pool = pick(&self.pools);
        if pool.target == 0 {
            return std::future::pending().await;
        }
        let parallel = self.settings.pool.parallel_starts.max(1);
        let mut backoff = RETRY_AFTER_FAILURE;
        let (done_tx, mut done_rx) = tokio::sync::mpsc::unbounded_channel::<bool>();
        loop {
            loop {
                let others = self.pools.starting() - pool.status().starting;
                let Some(id) = pool.reserve(parallel.saturating_sub(others)) else {
                    break;
                };
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
        let home_volume = (shape.storage == StorageKind::Volume).then(|| pool_volume_key(id));
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
                memory: self.check(&endpoints, &secrets).await.1,
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
            if let Some(used) = pooled.memory {
                self.memory.observed_one(&pooled.id, used);
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
            self.pools.release(id);
        }
    }
}
