//! In-process fan-out for a single backend (no Redis configured): one bounded broadcast
//! channel per session and per owner, created on first subscription and dropped when
//! its last subscriber is gone.
//!
//! A subscriber that falls more than [`CAPACITY`] messages behind has its stream ended
//! instead of making the sender buffer without bound; the client reconnects and resumes
//! from the log.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;

use futures::stream::{BoxStream, StreamExt};
use tokio::sync::broadcast;
use tokio_stream::wrappers::BroadcastStream;

use crate::domain::event::StoredEvent;
use crate::domain::ports::{EventBus, SessionChange};
use crate::domain::session::SessionId;
use crate::domain::user::UserId;
use crate::domain::DomainResult;

/// Messages a subscriber may lag behind before it is cut off.
pub const CAPACITY: usize = 1024;

/// Channels by key.
struct Topics<K, V> {
    channels: Mutex<HashMap<K, broadcast::Sender<V>>>,
}

impl<K: Eq + Hash + Clone, V: Clone + Send + 'static> Topics<K, V> {
    fn new() -> Self {
        Self {
            channels: Mutex::new(HashMap::new()),
        }
    }

    fn publish(&self, key: &K, value: V) {
        let mut channels = self.channels.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(sender) = channels.get(key) {
            if sender.send(value).is_err() {
                // Nobody listens any more.
                channels.remove(key);
            }
        }
    }

    /// Ends every subscriber's stream.
    fn close_all(&self) {
        self.channels.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }

    fn subscribe(&self, key: &K) -> BoxStream<'static, V> {
        let receiver = self
            .channels
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(key.clone())
            .or_insert_with(|| broadcast::channel(CAPACITY).0)
            .subscribe();
        // `Lagged` ends the stream: the subscriber resumes from the log.
        BroadcastStream::new(receiver)
            .take_while(|item| std::future::ready(item.is_ok()))
            .filter_map(|item| std::future::ready(item.ok()))
            .boxed()
    }
}

pub struct LocalBus {
    events: Topics<SessionId, StoredEvent>,
    sessions: Topics<UserId, SessionChange>,
}

impl LocalBus {
    pub fn new() -> Self {
        Self {
            events: Topics::new(),
            sessions: Topics::new(),
        }
    }

    /// Delivers what another replica published (used by the Redis bus).
    pub fn deliver_event(&self, event: StoredEvent) {
        self.events.publish(&event.session_id.clone(), event);
    }

    pub fn deliver_session_change(&self, change: SessionChange) {
        self.sessions.publish(&change.owner().clone(), change);
    }

    /// Ends every open subscription, so clients resume from the log (after the Redis
    /// bus may have missed messages).
    pub fn close_all(&self) {
        self.events.close_all();
        self.sessions.close_all();
    }
}

impl Default for LocalBus {
    fn default() -> Self {
        Self::new()
    }
}

#[async_trait::async_trait]
impl EventBus for LocalBus {
    async fn publish_event(&self, event: &StoredEvent) -> DomainResult<()> {
        self.deliver_event(event.clone());
        Ok(())
    }

    fn subscribe_events(&self, session: &SessionId) -> BoxStream<'static, StoredEvent> {
        self.events.subscribe(session)
    }

    async fn publish_session_change(&self, change: &SessionChange) -> DomainResult<()> {
        self.deliver_session_change(change.clone());
        Ok(())
    }

    fn subscribe_sessions(&self, owner: &UserId) -> BoxStream<'static, SessionChange> {
        self.sessions.subscribe(owner)
    }
}
