//! Run leases in this process, for a single backend (no Redis configured): the same
//! rules as the shared ones, and nothing survives a restart, which is right since the
//! runs do not either.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::domain::ports::RunLeases;
use crate::domain::replica::RunLease;
use crate::domain::session::SessionId;
use crate::domain::DomainResult;

#[derive(Default)]
pub struct LocalLeases {
    held: Mutex<HashMap<SessionId, (RunLease, Instant)>>,
}

impl LocalLeases {
    /// The session's lease while it has not expired.
    fn live(held: &mut HashMap<SessionId, (RunLease, Instant)>, session: &SessionId) -> Option<RunLease> {
        match held.get(session) {
            Some((lease, until)) if *until > Instant::now() => Some(lease.clone()),
            Some(_) => {
                held.remove(session);
                None
            }
            None => None,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, (RunLease, Instant)>> {
        self.held.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[async_trait::async_trait]
impl RunLeases for LocalLeases {
    async fn acquire(
        &self,
        session: &SessionId,
        lease: &RunLease,
        ttl: Duration,
    ) -> DomainResult<Option<RunLease>> {
        let mut held = self.lock();
        if let Some(holder) = Self::live(&mut held, session) {
            return Ok(Some(holder));
        }
        held.insert(session.clone(), (lease.clone(), Instant::now() + ttl));
        Ok(None)
    }

    async fn renew(&self, session: &SessionId, lease: &RunLease, ttl: Duration) -> DomainResult<bool> {
        let mut held = self.lock();
        if Self::live(&mut held, session).as_ref() != Some(lease) {
            return Ok(false);
        }
        held.insert(session.clone(), (lease.clone(), Instant::now() + ttl));
        Ok(true)
    }

    async fn release(&self, session: &SessionId, lease: &RunLease) -> DomainResult<()> {
        let mut held = self.lock();
        if Self::live(&mut held, session).as_ref() == Some(lease) {
            held.remove(session);
        }
        Ok(())
    }

    async fn holder(&self, session: &SessionId) -> DomainResult<Option<RunLease>> {
        Ok(Self::live(&mut self.lock(), session))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::replica::ReplicaId;

    #[tokio::test]
    async fn a_lease_is_held_renewed_and_released_only_by_its_holder_until_it_expires() {
        let leases = LocalLeases::default();
        let session = SessionId::new();
        let (ours, theirs) = (
            RunLease::new(ReplicaId::new("a")),
            RunLease::new(ReplicaId::new("b")),
        );
        let ttl = Duration::from_millis(200);
        assert_eq!(leases.acquire(&session, &ours, ttl).await.unwrap(), None);
        assert_eq!(
            leases.acquire(&session, &theirs, ttl).await.unwrap(),
            Some(ours.clone())
        );
        assert!(!leases.renew(&session, &theirs, ttl).await.unwrap());
        leases.release(&session, &theirs).await.unwrap();
        assert_eq!(leases.holder(&session).await.unwrap(), Some(ours.clone()));
        assert!(leases.renew(&session, &ours, ttl).await.unwrap());

        // Not renewed: it expires, and is someone else's to take; the old holder can
        // neither renew nor free it.
        tokio::time::sleep(ttl + Duration::from_millis(50)).await;
        assert_eq!(leases.holder(&session).await.unwrap(), None);
        assert_eq!(leases.acquire(&session, &theirs, ttl).await.unwrap(), None);
        assert!(!leases.renew(&session, &ours, ttl).await.unwrap());
        leases.release(&session, &ours).await.unwrap();
        assert_eq!(leases.holder(&session).await.unwrap(), Some(theirs));
    }
}
