//! Everyone's running rented sandboxes, as a signed file link is checked against them:
//! a snapshot read from the store at most every [`READ_GAP`], so that anonymous requests
//! with made-up signatures cannot make each replica read the whole store at their pace.
//! A link that matches no sandbox of the snapshot is checked again against one read
//! after the request arrived (waiting out the gap), so a sandbox made a moment ago is
//! found; requests that miss together share that one read.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Mutex;
use tokio::time::Instant;

use crate::domain::e2b::E2bSandboxId;
use crate::domain::ports::E2bSandboxRepository;
use crate::domain::DomainResult;

/// The least time between two reads of the store.
pub const READ_GAP: Duration = Duration::from_millis(100);

#[derive(Default)]
pub struct Running(Mutex<Snapshot>);

#[derive(Default)]
struct Snapshot {
    read_at: Option<Instant>,
    ids: Vec<E2bSandboxId>,
}

impl Running {
    /// The running sandbox `matches` picks, from a snapshot taken after `arrived` if the
    /// one at hand has none.
    pub async fn find(
        &self,
        store: &Arc<dyn E2bSandboxRepository>,
        arrived: Instant,
        matches: impl Fn(&E2bSandboxId) -> bool,
    ) -> DomainResult<Option<E2bSandboxId>> {
        let mut snapshot = self.0.lock().await;
        if let Some(id) = snapshot.ids.iter().find(|id| matches(id)) {
            return Ok(Some(id.clone()));
        }
        if snapshot.read_at.is_some_and(|read_at| read_at > arrived) {
            return Ok(None);
        }
        if let Some(read_at) = snapshot.read_at {
            tokio::time::sleep_until(read_at + READ_GAP).await;
        }
        let read_at = Instant::now();
        snapshot.ids = store.running().await?;
        snapshot.read_at = Some(read_at);
        Ok(snapshot.ids.iter().find(|id| matches(id)).cloned())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use chrono::Utc;
    use tokio::time::Instant;

    use super::{Running, READ_GAP};
    use crate::domain::e2b::{E2bSandbox, E2bSandboxId, E2bState, Template};
    use crate::domain::ports::E2bSandboxRepository;
    use crate::domain::session::Network;
    use crate::domain::user::UserId;
    use crate::infrastructure::embedded::EmbeddedStore;

    async fn add(store: &Arc<dyn E2bSandboxRepository>) -> E2bSandboxId {
        let now = Utc::now();
        let sandbox = E2bSandbox {
            id: E2bSandboxId::new(),
            owner: UserId::new(),
            template: Template::Base,
            metadata: Default::default(),
            network: Network::Internet,
            cpu_count: 1,
            memory_mb: 512,
            started_at: now,
            end_at: now + chrono::Duration::seconds(300),
            state: E2bState::Running,
            auto_pause: false,
            env_vars: Default::default(),
        };
        store.insert(&sandbox).await.unwrap();
        sandbox.id
    }

    /// A sandbox made after the last read is found by a request that arrives after it;
    /// misses in a burst read the store at most once per gap.
    #[tokio::test(start_paused = true)]
    async fn a_new_sandbox_is_found_and_misses_do_not_read_at_their_pace() {
        let dir = tempfile::tempdir().unwrap();
        let store: Arc<dyn E2bSandboxRepository> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
        let running = Running::default();
        let first = add(&store).await;
        let found = running
            .find(&store, Instant::now(), |id| *id == first)
            .await
            .unwrap();
        assert_eq!(found.as_ref(), Some(&first));

        let second = add(&store).await;
        let found = running
            .find(&store, Instant::now(), |id| *id == second)
            .await
            .unwrap();
        assert_eq!(
            found.as_ref(),
            Some(&second),
            "read again after the request arrived"
        );

        let start = Instant::now();
        for _ in 0..5 {
            let missed = running.find(&store, Instant::now(), |_| false).await.unwrap();
            assert!(missed.is_none());
        }
        // Each miss arrived after the last read, so each waited for its own: five reads
        // at least a gap apart.
        assert!(start.elapsed() >= READ_GAP * 5, "{:?}", start.elapsed());
        // A miss that arrived before the last read is answered from it, with no wait
        // (the clock is paused: only a sleep moves it).
        let earlier = Instant::now() - READ_GAP;
        let started = Instant::now();
        assert!(running.find(&store, earlier, |_| false).await.unwrap().is_none());
        assert!(started.elapsed() < READ_GAP);
    }
}
