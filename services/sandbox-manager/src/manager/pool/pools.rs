//! The pools' bookkeeping: which sandboxes each pool holds (starting, ready, being
//! claimed or removed), what each ready one is, and the two pools together.

use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;

use sandbox_manager_contract::StorageKind;
use serde::Serialize;
use tokio::sync::Notify;
use utoipa::ToSchema;

use super::super::lock;
use crate::access::{Endpoints, Secrets};
use crate::config::Settings;
use crate::record::new_sandbox_id;

/// What a pool's sandboxes are made with (besides the default network and limits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolShape {
    pub storage: StorageKind,
    pub warm_kernel: bool,
}

/// The key of a pool sandbox's home volume: its id behind a `_`, which no session id
/// starts with, so that no session's volume (keyed by the session's id) can be one.
pub fn pool_volume_key(id: &str) -> String {
    format!("_{id}")
}

pub struct Pool {
    pub(super) target: usize,
    pub(super) shape: PoolShape,
    pub(super) state: Mutex<PoolState>,
    pub(super) wake: Notify,
}

#[derive(Default)]
pub(super) struct PoolState {
    pub(super) ready: VecDeque<Pooled>,
    starting: usize,
    /// Every id the pool is responsible for: starting, ready, being claimed, or being
    /// removed.
    held: HashSet<String>,
}

pub struct Pooled {
    pub(super) id: String,
    pub(super) secrets: Secrets,
    pub(super) endpoints: Endpoints,
    /// The key of its home volume, if it has one.
    pub(super) home_volume: Option<String>,
    /// The memory it said it used once it was ready, bytes.
    pub(super) memory: Option<u64>,
}

impl Pooled {
    /// What removes it from the engine: its id and its volume's key.
    pub fn removal(&self) -> (&str, Option<&str>) {
        (&self.id, self.home_volume.as_deref())
    }
}

/// What `/health` reports about a pool.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct PoolStatus {
    pub target: usize,
    pub ready: usize,
    pub starting: usize,
}

/// The light pool and the code pool.
pub struct Pools {
    pub light: Pool,
    pub code: Pool,
}

impl Pools {
    pub fn new(settings: &Settings) -> Self {
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

    pub(super) fn both(&self) -> [&Pool; 2] {
        [&self.light, &self.code]
    }

    /// The pool whose sandboxes have `shape`, if it keeps any.
    pub fn of_shape(&self, shape: PoolShape) -> Option<&Pool> {
        self.both()
            .into_iter()
            .find(|pool| pool.shape == shape && pool.target > 0)
    }

    /// Whether either pool holds this sandbox id.
    pub fn holds(&self, id: &str) -> bool {
        self.both().iter().any(|pool| lock(&pool.state).held.contains(id))
    }

    /// The home volume keys of every sandbox the pools hold now.
    pub fn held_volume_keys(&self) -> HashSet<String> {
        self.both()
            .iter()
            .flat_map(|pool| {
                let state = lock(&pool.state);
                state
                    .held
                    .iter()
                    .map(|id| pool_volume_key(id))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// What the memory budget counts for the pools' sandboxes, bytes: a ready one what it
    /// said it used (a code pool sandbox's kernel included), a starting one `reservation`.
    pub fn in_memory(&self, reservation: u64) -> u64 {
        self.both()
            .iter()
            .map(|pool| {
                let state = lock(&pool.state);
                let ready: u64 = state
                    .ready
                    .iter()
                    .map(|pooled| pooled.memory.unwrap_or(reservation))
                    .sum();
                ready + state.starting as u64 * reservation
            })
            .sum()
    }

    /// How many sandboxes both pools are starting.
    pub(super) fn starting(&self) -> usize {
        self.both().iter().map(|pool| lock(&pool.state).starting).sum()
    }

    /// Takes a ready sandbox the engine says has died out of its pool, which holds its id
    /// until [`Pools::release`] (after its removal).
    pub fn forget(&self, id: &str) -> Option<Pooled> {
        self.both().iter().find_map(|pool| pool.forget(id))
    }

    /// Lets go of a sandbox id once it is claimed or removed.
    pub fn release(&self, id: &str) {
        for pool in self.both() {
            pool.release(id);
        }
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

    pub fn status(&self) -> PoolStatus {
        let state = lock(&self.state);
        PoolStatus {
            target: self.target,
            ready: state.ready.len(),
            starting: state.starting,
        }
    }

    /// Takes a ready sandbox; it stays held until [`Pool::release`].
    pub(super) fn take(&self) -> Option<Pooled> {
        let taken = lock(&self.state).ready.pop_front();
        self.wake.notify_one();
        taken
    }

    pub(super) fn release(&self, id: &str) {
        lock(&self.state).held.remove(id);
    }

    fn forget(&self, id: &str) -> Option<Pooled> {
        let mut state = lock(&self.state);
        let at = state.ready.iter().position(|p| p.id == id)?;
        let forgotten = state.ready.remove(at);
        self.wake.notify_one();
        forgotten
    }

    /// Reserves a slot for a new pool sandbox, if the pool is short of one and fewer
    /// than `room` of its own are starting.
    pub(super) fn reserve(&self, room: usize) -> Option<String> {
        let mut state = lock(&self.state);
        if state.ready.len() + state.starting >= self.target || state.starting >= room {
            return None;
        }
        let id = new_sandbox_id();
        state.starting += 1;
        state.held.insert(id.clone());
        Some(id)
    }

    pub(super) fn started(&self, pooled: Option<Pooled>, id: &str) {
        let mut state = lock(&self.state);
        state.starting -= 1;
        match pooled {
            Some(pooled) => state.ready.push_back(pooled),
            None => {
                state.held.remove(id);
            }
        }
    }

    /// The ready sandboxes, taken out of the pool (for shutdown); still held until
    /// released.
    pub(super) fn drain(&self) -> Vec<Pooled> {
        lock(&self.state).ready.drain(..).collect()
    }
}
