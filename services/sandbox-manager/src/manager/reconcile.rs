//! Reconciliation: the engine's containers and volumes against the records, at start-up
//! and periodically. Containers no record, pool slot or running operation explains are
//! orphans and are removed; `creating` / `removing` records no operation owns were cut
//! short by a crash and are finished; live records whose container vanished are marked
//! lost, and stopped ones are started again.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use sandbox_manager_contract::{LifecycleKind, SandboxState};

use super::Manager;
use crate::error::ManagerResult;

/// What one reconciliation changed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reconciled {
    pub orphans_removed: usize,
    pub interrupted_finished: usize,
    pub lost: usize,
    pub restarted: usize,
    pub volumes_removed: usize,
}

impl Manager {
    pub(super) async fn reconcile_loop(self: Arc<Self>) {
        let every = Duration::from_secs(self.settings.lifetime.reconcile_interval_secs.max(1));
        let mut first = true;
        loop {
            match self.reconcile().await {
                Ok(done) if done != Reconciled::default() => tracing::info!(?done, "reconciled"),
                Ok(_) => {}
                Err(err) => tracing::warn!(%err, "reconciliation failed; retrying"),
            }
            // Until the first round succeeded (engine down at start-up), retry quickly.
            let wait = if first {
                Duration::from_secs(2).min(every)
            } else {
                every
            };
            first = false;
            tokio::time::sleep(wait).await;
        }
    }

    pub async fn reconcile(&self) -> ManagerResult<Reconciled> {
        let mut done = Reconciled::default();
        let observed = self.driver.list().await?;
        let stopped: HashMap<&str, bool> = observed
            .iter()
            .map(|o| (o.sandbox_id.as_str(), o.stopped))
            .collect();

        for o in &observed {
            // The pool first, then the records: a claim records before it releases.
            if self.pools.holds(&o.sandbox_id) || self.is_busy(&o.sandbox_id) {
                continue;
            }
            if self.registry.get(&o.sandbox_id).await.is_none() {
                tracing::info!(sandbox = %o.sandbox_id, "removing an orphaned sandbox");
                self.driver.remove(&o.sandbox_id, None).await?;
                done.orphans_removed += 1;
            }
        }

        for record in self.registry.all().await {
            if self.is_busy(&record.id) {
                continue;
            }
            match record.state {
                SandboxState::Creating => {
                    let _busy = self.busy(&record.id);
                    self.driver.remove(&record.id, None).await?;
                    self.registry.remove(&record.id).await?;
                    let why = "its creation was interrupted (manager restart)";
                    self.events.publish(LifecycleKind::Removed, &record, why);
                    done.interrupted_finished += 1;
                }
                SandboxState::Removing => {
                    let _busy = self.busy(&record.id);
                    self.finish_removal(&record, "deleted (finished after an interruption)")
                        .await?;
                    done.interrupted_finished += 1;
                }
                SandboxState::Ready | SandboxState::Unhealthy => match stopped.get(record.id.as_str()) {
                    None => {
                        if let Some(lost) = self.registry.set_state(&record.id, SandboxState::Lost).await? {
                            let why = "its container vanished outside the manager's control";
                            self.events.publish(LifecycleKind::Lost, &lost, why);
                            done.lost += 1;
                        }
                    }
                    Some(true) => {
                        self.recover(&record.id, "it was found stopped").await;
                        done.restarted += 1;
                    }
                    Some(false) => {}
                },
                SandboxState::Expired | SandboxState::Lost => {}
            }
        }

        // A home volume no record and no pool sandbox holds is left over. The pools are
        // read first, then the records: a claim records before the pool lets go, a cold
        // create records before it makes the volume, and a session's next sandbox records
        // the key it takes over before the ended one's record goes.
        let volumes = self.driver.list_volumes().await?;
        let pooled = self.pools.held_volume_keys();
        let records = self.registry.all().await;
        let kept: HashSet<&str> = records.iter().filter_map(|r| r.home_volume()).collect();
        for key in volumes {
            if pooled.contains(&key) || kept.contains(key.as_str()) {
                continue;
            }
            // One still in use (its container being removed) goes in a later round.
            match self.driver.remove_volume(&key).await {
                Ok(()) => done.volumes_removed += 1,
                Err(err) => tracing::warn!(volume = %key, %err, "a left-over volume stays for now"),
            }
        }
        Ok(done)
    }
}
