//! The lifecycle event bus: every event gets the next sequence number, is kept in a short
//! history (so a reconnecting client can resume with `Last-Event-ID`) and is broadcast to
//! the live streams. Numbering, history and broadcast happen under one lock, so a new
//! subscriber's replay and its live part neither overlap nor leave a gap. The history is
//! also in the record store, so after a restart the numbers go on and a client that
//! resumes still gets what it missed.

use std::collections::VecDeque;
use std::sync::Mutex;

use chrono::Utc;
use sandbox_manager_contract::{LifecycleEvent, LifecycleKind};
use tokio::sync::broadcast;

use crate::record::SandboxRecord;
use crate::store::RecordStore;

/// Events kept for replay.
const HISTORY: usize = 1024;
/// Events a live stream may fall behind before it is dropped (it then resumes).
const LAG: usize = 256;

pub struct EventBus {
    sender: broadcast::Sender<LifecycleEvent>,
    history: Mutex<History>,
    store: RecordStore,
}

struct History {
    next_seq: u64,
    events: VecDeque<LifecycleEvent>,
}

impl EventBus {
    /// The bus with the history the store kept, numbering on from its last event.
    pub fn open(store: RecordStore) -> anyhow::Result<Self> {
        let events: VecDeque<LifecycleEvent> = store.recent_events(HISTORY)?.into();
        let next_seq = events.back().map_or(1, |last| last.seq + 1);
        Ok(Self {
            sender: broadcast::channel(LAG).0,
            history: Mutex::new(History { next_seq, events }),
            store,
        })
    }

    pub fn publish(&self, kind: LifecycleKind, record: &SandboxRecord, message: impl Into<String>) {
        let mut history = self.history.lock().unwrap_or_else(|p| p.into_inner());
        let event = LifecycleEvent {
            seq: history.next_seq,
            kind,
            sandbox_id: record.id.clone(),
            session_id: record.session_id.as_str().to_owned(),
            owner: record.owner.as_str().to_owned(),
            at: Utc::now(),
            message: message.into(),
        };
        tracing::info!(sandbox = %event.sandbox_id, kind = ?kind, message = %event.message, "lifecycle");
        // A store that fails loses the event's replay after a restart, not the event.
        if let Err(err) = self.store.append_event(&event, HISTORY) {
            tracing::error!(seq = event.seq, %err, "storing a lifecycle event");
        }
        history.next_seq += 1;
        if history.events.len() == HISTORY {
            history.events.pop_front();
        }
        history.events.push_back(event.clone());
        // No receiver is fine: nobody is listening.
        let _ = self.sender.send(event);
    }

    /// The kept events after `after` and a receiver of every later one.
    pub fn subscribe(
        &self,
        after: Option<u64>,
    ) -> (Vec<LifecycleEvent>, broadcast::Receiver<LifecycleEvent>) {
        let history = self.history.lock().unwrap_or_else(|p| p.into_inner());
        let replay = match after {
            Some(after) => history.events.iter().filter(|e| e.seq > after).cloned().collect(),
            None => Vec::new(),
        };
        (replay, self.sender.subscribe())
    }
}
