//! The event log in use: append (stored first, then published) and the resumable stream.
//!
//! A stream first subscribes to the live bus, then replays the log after the client's
//! last id, then follows live events. Live delivery is only a hint: an event whose number
//! is not the next one expected makes the stream read the gap from the log, so the
//! client sees every event exactly once, in order, whichever replica stored it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use futures::{Stream, StreamExt};

use super::error::{AppError, AppResult};
use crate::domain::event::{AgentEvent, StoredEvent};
use crate::domain::ports::{AppendId, EventBus, EventLog, SessionChange};
use crate::domain::session::{Session, SessionId};
use crate::domain::user::UserId;

/// Events read from the log per query while replaying.
const REPLAY_BATCH: usize = 500;
/// How long a run's event waits for a store that does not answer, and the pauses
/// between tries.
const OUTAGE_WAIT: Duration = Duration::from_secs(120);
const FIRST_PAUSE: Duration = Duration::from_millis(250);
const MAX_PAUSE: Duration = Duration::from_secs(2);

pub struct EventService {
    log: Arc<dyn EventLog>,
    bus: Arc<dyn EventBus>,
}

impl EventService {
    pub fn new(log: Arc<dyn EventLog>, bus: Arc<dyn EventBus>) -> Self {
        Self { log, bus }
    }

    /// Stores the event, then publishes it and the session's new summary.
    pub async fn append(&self, session: &SessionId, event: AgentEvent) -> AppResult<(StoredEvent, Session)> {
        self.store(session, event, Utc::now(), AppendId::new()).await
    }

    /// [`EventService::append`] for a run, whose log must have no hole: while the store
    /// does not answer, the same append is tried again (its event stored once, whatever
    /// landed), so the run waits, up to [`OUTAGE_WAIT`] or until `go_on` says no.
    pub async fn append_through_outage(
        &self,
        session: &SessionId,
        event: AgentEvent,
        go_on: impl Fn() -> bool,
    ) -> AppResult<(StoredEvent, Session)> {
        let (at, id, started) = (Utc::now(), AppendId::new(), Instant::now());
        let mut pause = FIRST_PAUSE;
        loop {
            match self.store(session, event.clone(), at, id).await {
                Err(AppError::Unavailable(why)) if go_on() && started.elapsed() < OUTAGE_WAIT => {
                    tracing::warn!(session = session.as_str(), %why, "an event waits for the store");
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(MAX_PAUSE);
                }
                done => return done,
            }
        }
    }

    async fn store(
        &self,
        session: &SessionId,
        event: AgentEvent,
        at: DateTime<Utc>,
        id: AppendId,
    ) -> AppResult<(StoredEvent, Session)> {
        let (stored, summary) = self.log.append(session, event, at, id).await?;
        // Stored is what counts: a failed publish only delays live delivery until the
        // next event (or reconnect) fills the gap from the log.
        if let Err(err) = self.bus.publish_event(&stored).await {
            tracing::warn!(%err, "publishing an event");
        }
        self.publish_session(&summary).await;
        Ok((stored, summary))
    }

    pub async fn publish_session(&self, session: &Session) {
        let change = SessionChange::Updated {
            session: Box::new(session.clone()),
        };
        if let Err(err) = self.bus.publish_session_change(&change).await {
            tracing::warn!(%err, "publishing a session change");
        }
    }

    pub async fn publish_deleted(&self, session: &Session) {
        let change = SessionChange::Deleted {
            id: session.id.clone(),
            owner: session.owner.clone(),
        };
        if let Err(err) = self.bus.publish_session_change(&change).await {
            tracing::warn!(%err, "publishing a session deletion");
        }
    }

    /// Live changes to the owner's sessions.
    pub fn session_changes(&self, owner: &UserId) -> impl Stream<Item = SessionChange> + Send + 'static {
        self.bus.subscribe_sessions(owner)
    }

    pub async fn page(&self, session: &SessionId, after: u64, limit: usize) -> AppResult<Vec<StoredEvent>> {
        Ok(self.log.read_after(session, after, limit).await?)
    }

    /// Every event after `after`, then live ones. The stream ends on a store error or
    /// when the subscriber falls behind (the client resumes with its last id).
    pub fn stream(&self, session: SessionId, after: u64) -> impl Stream<Item = StoredEvent> + Send + 'static {
        let log = self.log.clone();
        let mut live = self.bus.subscribe_events(&session);
        async_stream::stream! {
            let mut last = after;
            loop {
                let Ok(batch) = log.read_after(&session, last, REPLAY_BATCH).await else { return };
                let full = batch.len() == REPLAY_BATCH;
                for event in batch {
                    last = event.seq;
                    yield event;
                }
                if !full {
                    break;
                }
            }
            while let Some(event) = live.next().await {
                if event.seq <= last {
                    continue;
                }
                if event.seq > last + 1 {
                    // Missed some (published before we subscribed, or by a slow path):
                    // the log has them.
                    let Ok(gap) = log.read_after(&session, last, (event.seq - last - 1) as usize).await else { return };
                    for missed in gap.into_iter().filter(|e| e.seq < event.seq) {
                        last = missed.seq;
                        yield missed;
                    }
                    if last + 1 != event.seq {
                        return;
                    }
                }
                last = event.seq;
                yield event;
            }
        }
    }
}
