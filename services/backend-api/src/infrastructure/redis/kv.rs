//! The key-value port on Redis: expiry is Redis's own (`PX`), `take` is `GETDEL`, and a
//! counter gets its time-to-live in the same script that creates it, so no counter can
//! outlive its window.

use std::time::Duration;

use ::redis::{AsyncCommands, Script};

use super::{failure, RedisStore};
use crate::domain::ports::KeyValueStore;
use crate::domain::DomainResult;

/// INCRBY, and PEXPIRE when the key has no expiry yet (it is new): one atomic step.
const ADD: &str = r"
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count";

fn millis(ttl: Duration) -> u64 {
    (ttl.as_millis() as u64).max(1)
}

#[async_trait::async_trait]
impl KeyValueStore for RedisStore {
    async fn put(&self, key: &str, value: &str, ttl: Duration) -> DomainResult<()> {
        let options = ::redis::SetOptions::default().with_expiration(::redis::SetExpiry::PX(millis(ttl)));
        let () = self
            .connection
            .clone()
            .set_options(self.key(key), value, options)
            .await
            .map_err(failure)?;
        Ok(())
    }

    async fn get(&self, key: &str) -> DomainResult<Option<String>> {
        self.connection.clone().get(self.key(key)).await.map_err(failure)
    }

    async fn take(&self, key: &str) -> DomainResult<Option<String>> {
        self.connection
            .clone()
            .get_del(self.key(key))
            .await
            .map_err(failure)
    }

    async fn add(&self, key: &str, by: u64, ttl: Duration) -> DomainResult<u64> {
        Script::new(ADD)
            .key(self.key(key))
            .arg(millis(ttl))
            .arg(by)
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(failure)
    }

    async fn ping(&self) -> DomainResult<()> {
        let _: String = ::redis::cmd("PING")
            .query_async(&mut self.connection.clone())
            .await
            .map_err(failure)?;
        Ok(())
    }
}
