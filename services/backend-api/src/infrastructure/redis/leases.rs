//! Run leases on Redis: a key per session holding its lease, with Redis's own expiry.
//! Each step compares before it writes, in one script, so a replica never extends or
//! deletes a lease that expired and went to someone else.

use std::time::Duration;

use ::redis::{AsyncCommands, Script};

use super::{failure, RedisStore};
use crate::domain::ports::RunLeases;
use crate::domain::replica::RunLease;
use crate::domain::session::SessionId;
use crate::domain::DomainResult;

const KEY: &str = "run-lease:";

/// SET NX PX, answering the holder when it is taken.
const ACQUIRE: &str = r"
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return false end
return redis.call('GET', KEYS[1])";

const RENEW: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0";

const RELEASE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0";

fn millis(ttl: Duration) -> u64 {
    (ttl.as_millis() as u64).max(1)
}

impl RedisStore {
    fn lease_key(&self, session: &SessionId) -> String {
        self.key(&format!("{KEY}{}", session.as_str()))
    }

    /// Runs one of the scripts above on the session's key with the lease (and a time
    /// to live, for those that set one).
    async fn on_lease<T: ::redis::FromRedisValue>(
        &self,
        script: &str,
        session: &SessionId,
        lease: &RunLease,
        ttl: Option<Duration>,
    ) -> DomainResult<T> {
        let script = Script::new(script);
        let mut invocation = script.key(self.lease_key(session));
        invocation.arg(lease.encode());
        if let Some(ttl) = ttl {
            invocation.arg(millis(ttl));
        }
        invocation
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(failure)
    }
}

#[async_trait::async_trait]
impl RunLeases for RedisStore {
    async fn acquire(
        &self,
        session: &SessionId,
        lease: &RunLease,
        ttl: Duration,
    ) -> DomainResult<Option<RunLease>> {
        let holder: Option<String> = self.on_lease(ACQUIRE, session, lease, Some(ttl)).await?;
        Ok(holder.as_deref().map(RunLease::decode))
    }

    async fn renew(&self, session: &SessionId, lease: &RunLease, ttl: Duration) -> DomainResult<bool> {
        let renewed: u64 = self.on_lease(RENEW, session, lease, Some(ttl)).await?;
        Ok(renewed == 1)
    }

    async fn release(&self, session: &SessionId, lease: &RunLease) -> DomainResult<()> {
        let _: u64 = self.on_lease(RELEASE, session, lease, None).await?;
        Ok(())
    }

    async fn holder(&self, session: &SessionId) -> DomainResult<Option<RunLease>> {
        let raw: Option<String> = self
            .connection
            .clone()
            .get(self.lease_key(session))
            .await
            .map_err(failure)?;
        Ok(raw.as_deref().map(RunLease::decode))
    }
}
