//! The key-value port in the embedded store: values with an expiry time, removed lazily
//! when read and by a sweep every minute.

use std::time::Duration;

use chrono::Utc;
use redb::{ReadableDatabase, ReadableTable};

use super::{EmbeddedStore, KV};
use crate::domain::ports::KeyValueStore;
use crate::domain::DomainResult;

const SWEEP_EVERY: Duration = Duration::from_secs(60);

fn expiry(ttl: Duration) -> i64 {
    Utc::now().timestamp_millis() + ttl.as_millis() as i64
}

impl EmbeddedStore {
    /// Removes expired keys every minute while the store is in use.
    pub(super) fn spawn_expiry(&self) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let handle = std::sync::Arc::downgrade(&self.handle);
        runtime.spawn(async move {
            loop {
                tokio::time::sleep(SWEEP_EVERY).await;
                let Some(handle) = handle.upgrade() else { return };
                let swept = tokio::task::spawn_blocking(move || {
                    handle.run(|db| {
                        let now = Utc::now().timestamp_millis();
                        let txn = db.begin_write()?;
                        txn.open_table(KV)?.retain(|_, (_, expires)| expires > now)?;
                        txn.commit()?;
                        Ok(())
                    })
                })
                .await;
                if let Ok(Err(err)) = swept {
                    tracing::warn!(%err, "sweeping expired keys");
                }
            }
        });
    }
}

#[async_trait::async_trait]
impl KeyValueStore for EmbeddedStore {
    async fn put(&self, key: &str, value: &str, ttl: Duration) -> DomainResult<()> {
        let (key, value) = (key.to_owned(), value.to_owned());
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(KV)?
                .insert(key.as_str(), (value.as_str(), expiry(ttl)))?;
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn get(&self, key: &str) -> DomainResult<Option<String>> {
        let key = key.to_owned();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(KV)?;
            let now = Utc::now().timestamp_millis();
            let value = table.get(key.as_str())?;
            Ok(value.and_then(|v| {
                let (value, expires) = v.value();
                (expires > now).then(|| value.to_owned())
            }))
        })
        .await
    }

    async fn take(&self, key: &str) -> DomainResult<Option<String>> {
        let key = key.to_owned();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let now = Utc::now().timestamp_millis();
            let taken = {
                let mut table = txn.open_table(KV)?;
                let removed = table.remove(key.as_str())?;
                removed.and_then(|v| {
                    let (value, expires) = v.value();
                    (expires > now).then(|| value.to_owned())
                })
            };
            txn.commit()?;
            Ok(taken)
        })
        .await
    }

    async fn add(&self, key: &str, by: u64, ttl: Duration) -> DomainResult<u64> {
        let key = key.to_owned();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let now = Utc::now().timestamp_millis();
            let count = {
                let mut table = txn.open_table(KV)?;
                let current = table.get(key.as_str())?.map(|v| {
                    let (value, expires) = v.value();
                    (value.parse::<u64>().unwrap_or(0), expires)
                });
                let (count, expires) = match current {
                    Some((count, expires)) if expires > now => (count.saturating_add(by), expires),
                    _ => (by, expiry(ttl)),
                };
                table.insert(key.as_str(), (count.to_string().as_str(), expires))?;
                count
            };
            txn.commit()?;
            Ok(count)
        })
        .await
    }

    async fn ping(&self) -> DomainResult<()> {
        self.blocking(|db| {
            db.begin_read()?;
            Ok(())
        })
        .await
    }
}
