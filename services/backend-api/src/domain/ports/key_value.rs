//! The port of short-lived keys: revocations, counters, tickets and cache entries.

use std::time::Duration;

use crate::domain::error::DomainResult;

/// Short-lived keys with a time-to-live: revocations, rate-limit counters, single-use
/// tickets, cache entries. Redis in production, the embedded store otherwise.
#[async_trait::async_trait]
pub trait KeyValueStore: Send + Sync {
    async fn put(&self, key: &str, value: &str, ttl: Duration) -> DomainResult<()>;
    async fn get(&self, key: &str) -> DomainResult<Option<String>>;
    /// Gets and deletes in one step: only one caller ever gets the value.
    async fn take(&self, key: &str) -> DomainResult<Option<String>>;
    /// Adds `by` to a counter that starts at 0 and lives `ttl` from its first addition;
    /// returns the new count.
    async fn add(&self, key: &str, by: u64, ttl: Duration) -> DomainResult<u64>;
    /// Adds one (see [`KeyValueStore::add`]).
    async fn increment(&self, key: &str, ttl: Duration) -> DomainResult<u64> {
        self.add(key, 1, ttl).await
    }
    /// Whether the store answers (for readiness).
    async fn ping(&self) -> DomainResult<()>;
}
