//! The memory budget: what the sandboxes use together, as each one's tool-api reports it
//! at the health checks, against what the manager may give them. A new sandbox is
//! admitted when its reservation fits. A light sandbox uses a few MiB of its limit, so
//! counting use rather than limits is what lets one machine hold hundreds.

use std::collections::HashMap;
use std::sync::Mutex;

use sandbox_manager_contract::ErrorCode;
use serde::Serialize;
use utoipa::ToSchema;

use super::lock;
use crate::config::{DriverKind, Settings};
use crate::error::{ManagerError, ManagerResult};
use crate::record::SandboxRecord;

const MIB: u64 = 1 << 20;

/// What `/health` says of it.
#[derive(Debug, Serialize, ToSchema)]
pub struct MemoryStatus {
    /// In use by the sandboxes (and the pools', as they reported when ready), MiB.
    pub used_mb: u64,
    /// What they may use together; absent when there is no budget.
    pub budget_mb: Option<u64>,
}

pub struct MemoryBudget {
    /// Bytes; `None`: no budget.
    budget: Option<u64>,
    /// What a sandbox counts for until it reports, and what a new one needs.
    reservation: u64,
    reported: Mutex<HashMap<String, u64>>,
}

impl MemoryBudget {
    pub fn new(settings: &Settings) -> Self {
        let budget = match (settings.quota.memory_mb, settings.driver) {
            (Some(0), _) | (None, DriverKind::Kubernetes) => None,
            (Some(mb), _) => Some(mb * MIB),
            (None, DriverKind::Docker) => host_memory().map(|total| total / 10 * 9),
        };
        Self {
            budget,
            reservation: settings.sandbox.memory_reservation_mb * MIB,
            reported: Mutex::default(),
        }
    }

    /// What one round of health checks found; sandboxes it did not check are forgotten
    /// (they count their reservation until they report again).
    pub fn observed<'a>(&self, checked: impl Iterator<Item = (&'a str, Option<u64>)>) {
        let fresh = checked
            .filter_map(|(id, used)| Some((id.to_owned(), used?)))
            .collect();
        *lock(&self.reported) = fresh;
    }

    /// What one sandbox was seen to use, until the next round of health checks (a pool
    /// sandbox's reading, carried over when it is claimed).
    pub fn observed_one(&self, id: &str, used: u64) {
        lock(&self.reported).insert(id.to_owned(), used);
    }

    /// What a sandbox counts for until it reports, and what a new one needs, bytes.
    pub fn reservation(&self) -> u64 {
        self.reservation
    }

    /// In use by the live sandboxes and the pools' (`pooled` bytes).
    fn in_use<'a>(&self, live: impl IntoIterator<Item = &'a SandboxRecord>, pooled: u64) -> u64 {
        let reported = lock(&self.reported);
        let records: u64 = live
            .into_iter()
            .map(|record| reported.get(&record.id).copied().unwrap_or(self.reservation))
            .sum();
        records + pooled
    }

    /// Refuses one more sandbox when its reservation does not fit (`429`).
    pub fn admit<'a>(
        &self,
        live: impl IntoIterator<Item = &'a SandboxRecord>,
        pooled: u64,
    ) -> ManagerResult<()> {
        let Some(budget) = self.budget else {
            return Ok(());
        };
        let used = self.in_use(live, pooled);
        if used + self.reservation > budget {
            return Err(ManagerError::new(
                ErrorCode::CapacityReached,
                format!(
                    "the sandboxes use {} MiB of the {} MiB they may use together; retry when some are gone",
                    used / MIB,
                    budget / MIB
                ),
            ));
        }
        Ok(())
    }

    pub fn status<'a>(&self, live: impl IntoIterator<Item = &'a SandboxRecord>, pooled: u64) -> MemoryStatus {
        MemoryStatus {
            used_mb: self.in_use(live, pooled) / MIB,
            budget_mb: self.budget.map(|budget| budget / MIB),
        }
    }
}

/// The machine's memory, as `/proc/meminfo` gives it (a container sees the host's).
fn host_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = text
        .lines()
        .find_map(|line| line.strip_prefix("MemTotal:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}
