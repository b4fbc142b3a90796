//! Watching the sandboxes: the reaper (idle time-out, maximum lifetime), the health check
//! (unhealthy after repeated failures, ready again on recovery; the memory each sandbox
//! reports goes to the memory budget) and the engine's events (an OOM kill is reported; a
//! sandbox that stopped is started again, up to a limit).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::Utc;
use futures::StreamExt;
use sandbox_manager_contract::{LifecycleKind, SandboxState};

use super::{lock, Manager};
use crate::driver::EngineEvent;
use crate::record::SandboxRecord;

impl Manager {
    pub(super) async fn monitor_loop(self: Arc<Self>) {
        tokio::join!(self.clone().watch_engine(), self.check_loop());
    }

    async fn check_loop(self: Arc<Self>) {
        let every = Duration::from_secs(self.settings.lifetime.check_interval_secs.max(1));
        let failures = Mutex::new(HashMap::new());
        loop {
            tokio::time::sleep(every).await;
            self.check_all(&failures).await;
        }
    }

    /// One round of reaping and health checks.
    async fn check_all(&self, failures: &Mutex<HashMap<String, u32>>) {
        let now = Utc::now();
        let mut to_check = Vec::new();
        for record in self.registry.all().await {
            if !matches!(record.state, SandboxState::Ready | SandboxState::Unhealthy)
                || self.is_busy(&record.id)
            {
                continue;
            }
            if now >= record.expires_at(self.lifetime) {
                self.expire(&record).await;
            } else {
                to_check.push(record);
            }
        }
        let checks = to_check.into_iter().map(|record| async move {
            let (ok, memory) = match &record.endpoints {
                Some(endpoints) => self.check(endpoints, &record.secrets).await,
                None => (false, None),
            };
            (record, ok, memory)
        });
        let checked = futures::future::join_all(checks).await;
        self.memory.observed(
            checked
                .iter()
                .map(|(record, _, memory)| (record.id.as_str(), *memory)),
        );
        let threshold = self.settings.lifetime.unhealthy_after.max(1);
        for (record, ok, _) in checked {
            let failed = {
                let mut failures = lock(failures);
                if ok {
                    failures.remove(&record.id);
                    0
                } else {
                    let count = failures.entry(record.id.clone()).or_insert(0);
                    *count += 1;
                    *count
                }
            };
            let next = match (record.state, ok) {
                (SandboxState::Ready, false) if failed >= threshold => SandboxState::Unhealthy,
                (SandboxState::Unhealthy, true) => SandboxState::Ready,
                _ => continue,
            };
            let from = record.state;
            let updated = self
                .registry
                .update(&record.id, |r| {
                    if r.state == from {
                        r.state = next;
                    }
                })
                .await;
            match updated {
                Ok(Some(updated)) if updated.state == next => {
                    let (kind, message) = if next == SandboxState::Unhealthy {
                        let message = format!("it failed {failed} health checks in a row");
                        (LifecycleKind::Unhealthy, message)
                    } else {
                        (
                            LifecycleKind::Ready,
                            "it answers its health check again".to_owned(),
                        )
                    };
                    self.events.publish(kind, &updated, message);
                }
                Ok(_) => {}
                Err(err) => tracing::error!(sandbox = %record.id, %err, "recording a health change"),
            }
        }
    }

    /// Ends a sandbox whose time is up. Its volume stays (a new sandbox of the session
    /// finds it); the record stays as `expired` until the session's sandbox is created
    /// again or deleted.
    async fn expire(&self, record: &SandboxRecord) {
        let _busy = self.busy(&record.id);
        let reason = if Utc::now() >= record.created_at + self.lifetime.max_lifetime {
            "it reached the maximum lifetime"
        } else {
            "it was idle too long"
        };
        if let Err(err) = self.end_keeping_volume(record, reason).await {
            tracing::warn!(sandbox = %record.id, %err, "could not end an expired sandbox; retrying later");
        }
    }

    /// Follows the engine's events, reconnecting (with back-off) when the engine goes away.
    async fn watch_engine(self: Arc<Self>) {
        let mut backoff = Duration::from_secs(1);
        loop {
            match self.driver.prepare().await {
                Ok(()) => {
                    backoff = Duration::from_secs(1);
                    let mut events = self.driver.events();
                    while let Some(event) = events.next().await {
                        match event {
                            Ok(event) => {
                                tokio::spawn(self.clone().on_engine_event(event));
                            }
                            Err(err) => {
                                tracing::warn!(%err, "engine event stream broke");
                                break;
                            }
                        }
                    }
                }
                Err(err) => tracing::warn!(%err, "the container engine is not answering"),
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_secs(30));
        }
    }

    async fn on_engine_event(self: Arc<Self>, event: EngineEvent) {
        match event {
            EngineEvent::OutOfMemory { sandbox_id } => {
                if let Some(record) = self.registry.get(&sandbox_id).await.filter(|r| r.state.is_live()) {
                    let message = format!(
                        "a process in the sandbox exceeded its memory limit ({} MiB) and was killed",
                        record.limits.memory_mb
                    );
                    self.events.publish(LifecycleKind::OomKilled, &record, message);
                }
            }
            EngineEvent::Died {
                sandbox_id,
                exit_code,
            } => {
                if let Some(pooled) = self.pools.forget(&sandbox_id) {
                    let (id, volume) = pooled.removal();
                    let _ = self.driver.remove(id, volume).await;
                    self.pools.release(id);
                    return;
                }
                let why = match exit_code {
                    Some(code) => format!("it stopped with exit code {code}"),
                    None => "it stopped".to_owned(),
                };
                self.recover(&sandbox_id, &why).await;
            }
        }
    }

    /// Starts a stopped sandbox again, or gives it up as lost after too many restarts.
    pub(super) async fn recover(&self, id: &str, why: &str) {
        if self.is_busy(id) {
            return;
        }
        let _busy = self.busy(id);
        let Some(record) = self.registry.get(id).await else {
            return;
        };
        if !matches!(record.state, SandboxState::Ready | SandboxState::Unhealthy) {
            return;
        }
        let max = self.settings.sandbox.max_restarts;
        if record.restarts >= max {
            return self
                .give_up(
                    &record,
                    &format!("{why}, and it was restarted {max} times already"),
                )
                .await;
        }
        let restarted = match self.driver.restart(id).await {
            Ok(endpoints) => self.wait_ready(id, endpoints, &record.secrets).await,
            Err(err) => Err(err.into()),
        };
        let endpoints = match restarted {
            Ok(endpoints) => endpoints,
            Err(err) => {
                return self
                    .give_up(&record, &format!("{why}; restarting failed: {err}"))
                    .await
            }
        };
        let updated = self
            .registry
            .update(id, |r| {
                r.endpoints = Some(endpoints);
                r.restarts += 1;
                r.state = SandboxState::Ready;
            })
            .await;
        match updated {
            Ok(Some(updated)) => self.events.publish(
                LifecycleKind::Restarted,
                &updated,
                format!("{why} and was started again (at a new address)"),
            ),
            Ok(None) => {}
            Err(err) => tracing::error!(sandbox = id, %err, "recording a restart"),
        }
    }

    async fn give_up(&self, record: &SandboxRecord, why: &str) {
        if let Err(err) = self.driver.remove(&record.id, None).await {
            tracing::warn!(sandbox = %record.id, %err, "removing a sandbox given up");
        }
        match self.registry.set_state(&record.id, SandboxState::Lost).await {
            Ok(Some(lost)) => self.events.publish(LifecycleKind::Lost, &lost, why),
            Ok(None) => {}
            Err(err) => tracing::error!(sandbox = %record.id, %err, "recording a lost sandbox"),
        }
    }
}
