//! Sessions and their event logs in MongoDB, without transactions.
//!
//! A session document changes only by compare-and-swap: it is replaced only if it is
//! still exactly as it was read, and the change is the domain's own rule
//! ([`Session::apply`] for events, [`Session::merge_edits`] for a person's edits).
//!
//! An append takes the number after the session's `last_seq` and inserts the event; the
//! unique index on (session, seq) lets only one writer have each number. The winner then
//! advances the summary. A writer that finds its number taken first makes sure that
//! event is applied (its writer may be slow, or may have crashed in between) and tries
//! the next number — so the log never has a gap and the summary never misses an event.
//!
//! Each append inserts its event under an `_id` of its own. The driver retries a write
//! whose answer was lost, and the retry can find the first attempt's document in place
//! (a server need not remember retried writes): the number is taken, but by this very
//! append. The `_id` tells the two cases apart, so an event is never stored twice.

use chrono::{DateTime, Utc};
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, to_document};
use serde::Serialize;

use super::{all, bson, failure, is_duplicate_key, MongoStore};
use crate::domain::event::{AgentEvent, StoredEvent};
use crate::domain::ports::{AppendId, EventLog, SessionRepository};
use crate::domain::session::{Session, SessionId, SessionStatus};
use crate::domain::user::UserId;
use crate::domain::{DomainError, DomainResult};

/// Rounds of a compare-and-swap before giving up: only reached if a session is written
/// by far more writers at once than a chat ever has.
const MAX_ROUNDS: usize = 1000;

/// An event as an append inserts it: under the append's own `_id`. Reading ignores the
/// `_id` (as it ignores the one MongoDB gave events stored before there was this).
#[derive(Serialize)]
struct EventRecord<'a> {
    #[serde(rename = "_id")]
    write_id: ObjectId,
    #[serde(flatten)]
    event: &'a StoredEvent,
}

impl MongoStore {
    async fn current(&self, id: &SessionId) -> DomainResult<Session> {
        SessionRepository::get(self, id)
            .await?
            .ok_or(DomainError::NotFound("session"))
    }

    /// Replaces `current` with `next` if the stored session is still `current`.
    async fn swap(&self, current: &Session, next: &Session) -> DomainResult<bool> {
        let unchanged = to_document(current)
            .map_err(|err| DomainError::Internal(anyhow::Error::new(err).context("encoding a session")))?;
        let replaced = self
            .sessions
            .replace_one(unchanged, next)
            .await
            .map_err(failure)?;
        Ok(replaced.matched_count == 1)
    }

    /// Applies the event numbered right after `current.last_seq` unless someone did.
    async fn advance(&self, mut current: Session, event: &StoredEvent) -> DomainResult<Session> {
        for _ in 0..MAX_ROUNDS {
            if current.last_seq >= event.seq {
                return Ok(current);
            }
            let mut next = current.clone();
            next.apply(event);
            if self.swap(&current, &next).await? {
                return Ok(next);
            }
            current = self.current(&event.session_id).await?;
        }
        Err(contention())
    }

    /// [`EventLog::append`] with the `_id` its event is inserted under: one per append,
    /// so at most one document can ever hold the event, whatever the retries.
    #[doc(hidden)] // Public for the test that plays a retried insert.
    pub async fn append_as(
        &self,
        session: &SessionId,
        event: AgentEvent,
        at: DateTime<Utc>,
        write_id: ObjectId,
    ) -> DomainResult<(StoredEvent, Session)> {
        let records = self.events.clone_with_type::<EventRecord>();
        for _ in 0..MAX_ROUNDS {
            let current = self.current(session).await?;
            let stored = StoredEvent {
                session_id: session.clone(),
                seq: current.last_seq + 1,
                at,
                event: event.clone(),
            };
            let record = EventRecord {
                write_id,
                event: &stored,
            };
            match records.insert_one(&record).await {
                Ok(_) => {
                    let summary = self.advance(current, &stored).await?;
                    return Ok((stored, summary));
                }
                Err(err) if is_duplicate_key(&err) => {
                    // Our own insert, already in place (a retried write): it stands.
                    let ours = self
                        .events
                        .find_one(doc! { "_id": write_id })
                        .await
                        .map_err(failure)?;
                    if let Some(ours) = ours {
                        let summary = self.advance(current, &ours).await?;
                        return Ok((ours, summary));
                    }
                    // The number is taken: finish that append's summary, try the next.
                    let taken = self
                        .events
                        .find_one(doc! { "session_id": session.as_str(), "seq": bson(&stored.seq)? })
                        .await
                        .map_err(failure)?;
                    if let Some(taken) = taken {
                        self.advance(current, &taken).await?;
                    }
                }
                Err(err) => return Err(failure(err)),
            }
        }
        Err(contention())
    }
}

fn contention() -> DomainError {
    DomainError::Internal(anyhow::anyhow!(
        "a session kept changing under {MAX_ROUNDS} attempts to update it"
    ))
}

#[async_trait::async_trait]
impl SessionRepository for MongoStore {
    async fn insert(&self, session: &Session) -> DomainResult<()> {
        self.sessions.insert_one(session).await.map_err(failure)?;
        Ok(())
    }

    async fn get(&self, id: &SessionId) -> DomainResult<Option<Session>> {
        self.sessions
            .find_one(doc! { "id": id.as_str() })
            .await
            .map_err(failure)
    }

    async fn list_for(
        &self,
        owner: &UserId,
        before: Option<&SessionId>,
        limit: usize,
    ) -> DomainResult<Vec<Session>> {
        let mut filter = doc! { "owner": owner.as_str() };
        if let Some(before) = before {
            filter.insert("id", doc! { "$lt": before.as_str() });
        }
        // Newest first: ids are time-ordered.
        all(self
            .sessions
            .find(filter)
            .sort(doc! { "id": -1 })
            .limit(limit as i64))
        .await
    }

    async fn update(&self, edited: &Session) -> DomainResult<()> {
        for _ in 0..MAX_ROUNDS {
            let current = self.current(&edited.id).await?;
            let merged = current.merge_edits(edited.clone());
            if self.swap(&current, &merged).await? {
                return Ok(());
            }
        }
        Err(contention())
    }

    async fn delete(&self, id: &SessionId) -> DomainResult<()> {
        self.sessions
            .delete_one(doc! { "id": id.as_str() })
            .await
            .map_err(failure)?;
        self.events
            .delete_many(doc! { "session_id": id.as_str() })
            .await
            .map_err(failure)?;
        self.images
            .delete_many(doc! { "session_id": id.as_str() })
            .await
            .map_err(failure)?;
        self.memory_prompts
            .delete_many(doc! { "session_id": id.as_str() })
            .await
            .map_err(failure)?;
        self.agent_servers
            .delete_many(doc! { "session_id": id.as_str() })
            .await
            .map_err(failure)?;
        Ok(())
    }

    async fn by_share_token(&self, token: &str) -> DomainResult<Option<Session>> {
        self.sessions
            .find_one(doc! { "share_token": token })
            .await
            .map_err(failure)
    }

    async fn with_status(&self, status: SessionStatus) -> DomainResult<Vec<Session>> {
        all(self.sessions.find(doc! { "status": bson(&status)? })).await
    }
}

#[async_trait::async_trait]
impl EventLog for MongoStore {
    async fn append(
        &self,
        session: &SessionId,
        event: AgentEvent,
        at: DateTime<Utc>,
        id: AppendId,
    ) -> DomainResult<(StoredEvent, Session)> {
        self.append_as(session, event, at, ObjectId::from_bytes(id.bytes()))
            .await
    }

    async fn read_after(
        &self,
        session: &SessionId,
        after: u64,
        limit: usize,
    ) -> DomainResult<Vec<StoredEvent>> {
        // Numbers are stored as 64-bit signed integers; none is larger than that.
        let Ok(after) = i64::try_from(after) else {
            return Ok(Vec::new());
        };
        all(self
            .events
            .find(doc! { "session_id": session.as_str(), "seq": { "$gt": after } })
            .sort(doc! { "seq": 1 })
            .limit(limit as i64))
        .await
    }
}
