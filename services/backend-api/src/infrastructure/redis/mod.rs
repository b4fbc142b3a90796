//! The Redis adapter: the key-value port (single-use tickets, revocations, rate-limit
//! counters, cache), the agents' run leases, and the event bus that fans events and
//! signals out to every backend replica.
//!
//! Commands go through a connection manager, which reconnects by itself: while Redis is
//! away calls fail fast with `Unavailable` (503), and work again once it is back. Every
//! key and channel starts with the configured prefix, so several deployments (or test
//! runs) can share one Redis.

mod bus;
mod kv;
mod leases;

use std::time::Duration;

use ::redis::aio::{ConnectionManager, ConnectionManagerConfig};
use ::redis::{Client, RedisError};
use anyhow::Context;

pub use bus::RedisBus;

use crate::domain::DomainError;

/// Limits that keep a request from hanging on an unreachable Redis.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(3);

#[derive(Clone)]
pub struct RedisStore {
    client: Client,
    connection: ConnectionManager,
    prefix: String,
}

impl RedisStore {
    pub async fn connect(url: &str, prefix: &str) -> anyhow::Result<Self> {
        let client = Client::open(url).context("parsing REDIS_URL")?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(CONNECT_TIMEOUT))
            .set_response_timeout(Some(RESPONSE_TIMEOUT))
            // Reconnect attempts per failed call; later calls try again themselves.
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(500));
        let connection = client
            .get_connection_manager_with_config(config)
            .await
            .context("connecting to Redis (is it running and is REDIS_URL right?)")?;
        Ok(Self {
            client,
            connection,
            prefix: prefix.to_owned(),
        })
    }

    fn key(&self, key: &str) -> String {
        format!("{}{key}", self.prefix)
    }
}

/// A client error as the domain sees it: a lost or refused connection and timeouts are
/// `Unavailable` (503); anything else is internal.
fn failure(err: RedisError) -> DomainError {
    if err.is_io_error() || err.is_connection_refusal() || err.is_connection_dropped() || err.is_timeout() {
        DomainError::Unavailable {
            what: "the cache (Redis)",
            detail: err.to_string(),
        }
    } else {
        DomainError::Internal(anyhow::Error::new(err).context("Redis"))
    }
}
