//! In-process fan-out for a single backend (no Redis configured), and the local end of
//! the Redis bus: each subscriber gets its own bounded queue, registered under its
//! session (or owner) and removed when its stream is dropped.
//!
//! A subscription costs a small handle until something is published to it: the queue
//! allocates per message, not up front (a preallocated broadcast ring per session made
//! every opened-and-closed stream cost its full capacity until the next event). A
//! subscriber that falls more than [`CAPACITY`] messages behind has its queue closed
//! instead of making the sender buffer without bound: its stream ends after what it
//! already holds, and the client reconnects and resumes from the log.

use std::collections::HashMap;
use std::hash::Hash;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll};

use futures::channel::mpsc;
use futures::stream::{BoxStream, Stream, StreamExt};

use crate::domain::event::StoredEvent;
use crate::domain::ports::{EventBus, SessionChange};
use crate::domain::replica::RunSignal;
use crate::domain::session::SessionId;
use crate::domain::user::UserId;
use crate::domain::DomainResult;

/// Messages a subscriber may lag behind before it is cut off.
pub const CAPACITY: usize = 1024;

/// What topics are keyed by (a session, an owner).
trait Key: Eq + Hash + Clone + Send + Unpin + 'static {}
impl<K: Eq + Hash + Clone + Send + Unpin + 'static> Key for K {}

/// What is published (an event, a session change).
trait Message: Clone + Send + 'static {}
impl<V: Clone + Send + 'static> Message for V {}

/// Subscribers by key, each with its id (so a dropped stream removes only itself).
type Subscribers<K, V> = HashMap<K, Vec<(u64, mpsc::Sender<V>)>>;

struct Topics<K, V> {
    subscribers: Mutex<Subscribers<K, V>>,
    next_id: AtomicU64,
}

impl<K: Key, V: Message> Topics<K, V> {
    fn new() -> Arc<Self> {
        Arc::new(Self {
            subscribers: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(0),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Subscribers<K, V>> {
        self.subscribers.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn publish(&self, key: &K, value: V) {
        let mut subscribers = self.lock();
        let Some(list) = subscribers.get_mut(key) else {
            return;
        };
        // A full queue is a subscriber too far behind; a closed one has gone.
        list.retain_mut(|(_, sender)| sender.try_send(value.clone()).is_ok());
        if list.is_empty() {
            subscribers.remove(key);
        }
    }

    /// Ends every subscriber's stream.
    fn close_all(&self) {
        self.lock().clear();
    }

    fn subscribe(self: &Arc<Self>, key: &K) -> BoxStream<'static, V> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (sender, receiver) = mpsc::channel(CAPACITY);
        self.lock().entry(key.clone()).or_default().push((id, sender));
        Subscription {
            receiver,
            topics: Arc::downgrade(self),
            key: key.clone(),
            id,
        }
        .boxed()
    }

    fn unsubscribe(&self, key: &K, id: u64) {
        let mut subscribers = self.lock();
        if let Some(list) = subscribers.get_mut(key) {
            list.retain(|(other, _)| *other != id);
            if list.is_empty() {
                subscribers.remove(key);
            }
        }
    }
}

/// One subscriber's stream; dropping it (the client went away) unregisters it at once,
/// so a session nobody follows holds nothing.
struct Subscription<K: Key, V: Message> {
    receiver: mpsc::Receiver<V>,
    topics: Weak<Topics<K, V>>,
    key: K,
    id: u64,
}

impl<K: Key, V: Message> Stream for Subscription<K, V> {
    type Item = V;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<V>> {
        self.receiver.poll_next_unpin(cx)
    }
}

impl<K: Key, V: Message> Drop for Subscription<K, V> {
    fn drop(&mut self) {
        if let Some(topics) = self.topics.upgrade() {
            topics.unsubscribe(&self.key, self.id);
        }
    }
}

pub struct LocalBus {
    events: Arc<Topics<SessionId, StoredEvent>>,
    sessions: Arc<Topics<UserId, SessionChange>>,
    /// One topic: every signal goes to every subscriber (this replica's agent).
    signals: Arc<Topics<(), RunSignal>>,
}

impl LocalBus {
    pub fn new() -> Self {
        Self {
            events: Topics::new(),
            sessions: Topics::new(),
            signals: Topics::new(),
        }
    }

    /// Delivers what another replica published (used by the Redis bus).
    pub fn deliver_event(&self, event: StoredEvent) {
        self.events.publish(&event.session_id.clone(), event);
    }

    pub fn deliver_session_change(&self, change: SessionChange) {
        self.sessions.publish(&change.owner().clone(), change);
    }

    pub fn deliver_signal(&self, signal: RunSignal) {
        self.signals.publish(&(), signal);
    }

    /// Ends every open subscription, so clients resume from the log and the agent knows
    /// signals may have been missed (after the Redis bus may have lost messages).
    pub fn close_all(&self) {
        self.events.close_all();
        self.sessions.close_all();
        self.signals.close_all();
    }

    /// How many keys have a subscriber (for tests: nothing lingers once streams end).
    #[cfg(test)]
    fn open_topics(&self) -> usize {
        self.events.lock().len() + self.sessions.lock().len()
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

    async fn publish_signal(&self, signal: &RunSignal) -> DomainResult<()> {
        self.deliver_signal(signal.clone());
        Ok(())
    }

    fn subscribe_signals(&self) -> BoxStream<'static, RunSignal> {
        self.signals.subscribe(&())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_subscription_leaves_nothing_behind() {
        let bus = LocalBus::new();
        let owner = UserId::new();
        let first = bus.subscribe_sessions(&owner);
        let second = bus.subscribe_sessions(&owner);
        assert_eq!(bus.open_topics(), 1);
        drop(first);
        assert_eq!(bus.open_topics(), 1);
        drop(second);
        assert_eq!(bus.open_topics(), 0);
    }

    #[tokio::test]
    async fn a_subscriber_that_falls_behind_gets_what_it_holds_then_its_end() {
        let bus = LocalBus::new();
        let id = SessionId::new();
        let mut stream = bus.subscribe_sessions(&UserId::new());
        let owner = UserId::new();
        let mut behind = bus.subscribe_sessions(&owner);
        for _ in 0..CAPACITY + 10 {
            bus.deliver_session_change(SessionChange::Deleted {
                id: id.clone(),
                owner: owner.clone(),
            });
        }
        let mut got = 0;
        while behind.next().await.is_some() {
            got += 1;
        }
        assert!((CAPACITY..CAPACITY + 10).contains(&got), "got {got}");
        // Others' streams are untouched.
        assert!(futures::FutureExt::now_or_never(stream.next()).is_none());
    }
}
