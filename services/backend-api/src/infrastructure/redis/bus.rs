//! Fan-out between replicas over Redis pub/sub. Every replica publishes what it stores
//! (and its agents' signals) and keeps one subscription that hands what arrives to its
//! in-process [`LocalBus`], whose subscribers are this replica's open streams and agent.
//!
//! Pub/sub delivers at most once, so a message published while the subscription was
//! down is lost. When the subscription comes back, every local stream is therefore
//! ended: clients reconnect with their last id and the log fills what they missed.

use std::sync::Arc;
use std::time::Duration;

use ::redis::AsyncCommands;
use futures::stream::BoxStream;
use futures::StreamExt;
use serde::Serialize;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::{failure, RedisStore};
use crate::domain::event::StoredEvent;
use crate::domain::ports::{EventBus, SessionChange};
use crate::domain::replica::RunSignal;
use crate::domain::session::SessionId;
use crate::domain::user::UserId;
use crate::domain::{DomainError, DomainResult};
use crate::infrastructure::local_bus::LocalBus;

const EVENTS: &str = "events:";
const SESSIONS: &str = "sessions:";
/// One channel for the agents' signals, which every replica reads.
const SIGNALS: &str = "signals";
/// Longest pause between attempts to subscribe again.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

pub struct RedisBus {
    store: RedisStore,
    local: Arc<LocalBus>,
    listener: JoinHandle<()>,
}

impl RedisBus {
    /// Subscribes (returning once the subscription is in place, so nothing published
    /// after this is missed) and keeps the subscription up until dropped.
    pub async fn start(store: RedisStore) -> anyhow::Result<Self> {
        let local = Arc::new(LocalBus::new());
        let (subscribed, first) = oneshot::channel();
        let listener = tokio::spawn(listen(store.clone(), local.clone(), subscribed));
        first
            .await
            .map_err(|_| anyhow::anyhow!("the Redis subscriber stopped"))?
            .map_err(|err| anyhow::anyhow!("subscribing to Redis: {err}"))?;
        Ok(Self {
            store,
            local,
            listener,
        })
    }

    async fn publish(&self, channel: String, message: &impl Serialize) -> DomainResult<()> {
        let payload = serde_json::to_string(message).map_err(|err| {
            DomainError::Internal(anyhow::Error::new(err).context("encoding a bus message"))
        })?;
        let _receivers: u64 = self
            .store
            .connection
            .clone()
            .publish(channel, payload)
            .await
            .map_err(failure)?;
        Ok(())
    }
}

impl Drop for RedisBus {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

/// Subscribes, delivers, and subscribes again after a lost connection (with back-off).
async fn listen(
    store: RedisStore,
    local: Arc<LocalBus>,
    subscribed: oneshot::Sender<::redis::RedisResult<()>>,
) {
    let mut subscribed = Some(subscribed);
    let mut backoff = Duration::from_millis(100);
    loop {
        let attempt = async {
            let mut pubsub = store.client.get_async_pubsub().await?;
            pubsub.psubscribe(store.key(&format!("{EVENTS}*"))).await?;
            pubsub.psubscribe(store.key(&format!("{SESSIONS}*"))).await?;
            pubsub.subscribe(store.key(SIGNALS)).await?;
            Ok::<_, ::redis::RedisError>(pubsub)
        };
        match attempt.await {
            Ok(pubsub) => {
                backoff = Duration::from_millis(100);
                match subscribed.take() {
                    Some(first) => {
                        let _ = first.send(Ok(()));
                    }
                    None => {
                        tracing::info!("Redis subscription restored; open streams resume from the log");
                        local.close_all();
                    }
                }
                let mut messages = pubsub.into_on_message();
                while let Some(message) = messages.next().await {
                    deliver(
                        &store,
                        &local,
                        message.get_channel_name(),
                        message.get_payload_bytes(),
                    );
                }
                tracing::warn!("lost the Redis subscription; live events pause until it is back");
            }
            Err(err) => {
                if let Some(first) = subscribed.take() {
                    let _ = first.send(Err(err));
                    return;
                }
                tracing::warn!(%err, "subscribing to Redis again");
            }
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}

fn deliver(store: &RedisStore, local: &LocalBus, channel: &str, payload: &[u8]) {
    let Some(topic) = channel.strip_prefix(store.prefix.as_str()) else {
        return;
    };
    let delivered = if topic.starts_with(EVENTS) {
        serde_json::from_slice(payload).map(|event| local.deliver_event(event))
    } else if topic == SIGNALS {
        serde_json::from_slice(payload).map(|signal| local.deliver_signal(signal))
    } else {
        serde_json::from_slice(payload).map(|change| local.deliver_session_change(change))
    };
    if let Err(err) = delivered {
        tracing::warn!(%err, channel, "ignoring a bus message that does not decode");
    }
}

#[async_trait::async_trait]
impl EventBus for RedisBus {
    async fn publish_event(&self, event: &StoredEvent) -> DomainResult<()> {
        let channel = self.store.key(&format!("{EVENTS}{}", event.session_id.as_str()));
        self.publish(channel, event).await
    }

    fn subscribe_events(&self, session: &SessionId) -> BoxStream<'static, StoredEvent> {
        self.local.subscribe_events(session)
    }

    async fn publish_session_change(&self, change: &SessionChange) -> DomainResult<()> {
        let channel = self.store.key(&format!("{SESSIONS}{}", change.owner().as_str()));
        self.publish(channel, change).await
    }

    fn subscribe_sessions(&self, owner: &UserId) -> BoxStream<'static, SessionChange> {
        self.local.subscribe_sessions(owner)
    }

    async fn publish_signal(&self, signal: &RunSignal) -> DomainResult<()> {
        self.publish(self.store.key(SIGNALS), signal).await
    }

    fn subscribe_signals(&self) -> BoxStream<'static, RunSignal> {
        self.local.subscribe_signals()
    }
}
