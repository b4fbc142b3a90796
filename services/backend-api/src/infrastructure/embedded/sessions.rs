//! Sessions and their event logs in the embedded store. An append reads the session,
//! numbers the event `last_seq + 1`, applies it to the summary and writes both in one
//! transaction: redb runs one write transaction at a time, so numbers never repeat or skip.

use chrono::{DateTime, Utc};
use redb::{ReadableDatabase, ReadableTable};

use super::{
    decode, EmbeddedStore, AGENT_SERVERS, EVENTS, ID_MAX, MEMORY_PROMPTS, OWNER_SESSIONS, SCREENSHOTS,
    SESSIONS, SHARES,
};
use crate::domain::event::{AgentEvent, StoredEvent};
use crate::domain::ports::{AppendId, EventLog, SessionRepository};
use crate::domain::session::{Session, SessionId, SessionStatus};
use crate::domain::user::UserId;
use crate::domain::{DomainError, DomainResult};

fn write_session(
    txn: &redb::WriteTransaction,
    session: &Session,
    before: Option<&Session>,
) -> anyhow::Result<()> {
    txn.open_table(SESSIONS)?
        .insert(session.id.as_str(), serde_json::to_vec(session)?.as_slice())?;
    let mut shares = txn.open_table(SHARES)?;
    if let Some(old) = before.and_then(|b| b.share_token.as_deref()) {
        if session.share_token.as_deref() != Some(old) {
            shares.remove(old)?;
        }
    }
    if let Some(token) = &session.share_token {
        shares.insert(token.as_str(), session.id.as_str())?;
    }
    Ok(())
}

fn read_session(txn: &redb::WriteTransaction, id: &SessionId) -> anyhow::Result<Option<Session>> {
    let sessions = txn.open_table(SESSIONS)?;
    let found = sessions.get(id.as_str())?;
    found.map(|s| decode(s.value())).transpose()
}

#[async_trait::async_trait]
impl SessionRepository for EmbeddedStore {
    async fn insert(&self, session: &Session) -> DomainResult<()> {
        let session = session.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            write_session(&txn, &session, None)?;
            txn.open_table(OWNER_SESSIONS)?
                .insert((session.owner.as_str(), session.id.as_str()), ())?;
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn get(&self, id: &SessionId) -> DomainResult<Option<Session>> {
        let id = id.clone();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let sessions = txn.open_table(SESSIONS)?;
            let found = sessions.get(id.as_str())?;
            found.map(|s| decode(s.value())).transpose()
        })
        .await
    }

    async fn list_for(
        &self,
        owner: &UserId,
        before: Option<&SessionId>,
        limit: usize,
    ) -> DomainResult<Vec<Session>> {
        let owner = owner.clone();
        let before = before.cloned();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let index = txn.open_table(OWNER_SESSIONS)?;
            let sessions = txn.open_table(SESSIONS)?;
            let end = before.as_ref().map_or(ID_MAX, |b| b.as_str());
            let mut page = Vec::new();
            // Newest first: ids are time-ordered, walk the owner's range backwards.
            for entry in index
                .range((owner.as_str(), "")..(owner.as_str(), end))?
                .rev()
                .take(limit)
            {
                let (key, _) = entry?;
                let (_, id) = key.value();
                if let Some(session) = sessions.get(id)? {
                    page.push(decode(session.value())?);
                }
            }
            Ok(page)
        })
        .await
    }

    async fn update(&self, session: &Session) -> DomainResult<()> {
        let session = session.clone();
        let updated = self
            .blocking(move |db| {
                let txn = db.begin_write()?;
                let Some(before) = read_session(&txn, &session.id)? else {
                    return Ok(false);
                };
                let merged = before.merge_edits(session);
                write_session(&txn, &merged, Some(&before))?;
                txn.commit()?;
                Ok(true)
            })
            .await?;
        if updated {
            Ok(())
        } else {
            Err(DomainError::NotFound("session"))
        }
    }

    async fn delete(&self, id: &SessionId) -> DomainResult<()> {
        let id = id.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            if let Some(session) = read_session(&txn, &id)? {
                txn.open_table(SESSIONS)?.remove(id.as_str())?;
                txn.open_table(OWNER_SESSIONS)?
                    .remove((session.owner.as_str(), id.as_str()))?;
                if let Some(token) = &session.share_token {
                    txn.open_table(SHARES)?.remove(token.as_str())?;
                }
                let mut events = txn.open_table(EVENTS)?;
                events.retain_in((id.as_str(), 0)..=(id.as_str(), u64::MAX), |_, _| false)?;
                let mut screenshots = txn.open_table(SCREENSHOTS)?;
                screenshots.retain_in((id.as_str(), "")..=(id.as_str(), "~"), |_, _| false)?;
                txn.open_table(MEMORY_PROMPTS)?
                    .remove((session.owner.as_str(), id.as_str()))?;
                txn.open_table(AGENT_SERVERS)?
                    .retain_in((id.as_str(), "")..=(id.as_str(), "~"), |_, _| false)?;
            }
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn by_share_token(&self, token: &str) -> DomainResult<Option<Session>> {
        let token = token.to_owned();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let Some(id) = txn
                .open_table(SHARES)?
                .get(token.as_str())?
                .map(|v| v.value().to_owned())
            else {
                return Ok(None);
            };
            let sessions = txn.open_table(SESSIONS)?;
            let found = sessions.get(id.as_str())?;
            found.map(|s| decode(s.value())).transpose()
        })
        .await
    }

    async fn with_status(&self, status: SessionStatus) -> DomainResult<Vec<Session>> {
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let mut found = Vec::new();
            for entry in txn.open_table(SESSIONS)?.iter()? {
                let session: Session = decode(entry?.1.value())?;
                if session.status == status {
                    found.push(session);
                }
            }
            Ok(found)
        })
        .await
    }
}

#[async_trait::async_trait]
impl EventLog for EmbeddedStore {
    /// One transaction: an append that failed stored nothing, so `_id` is not needed.
    async fn append(
        &self,
        session: &SessionId,
        event: AgentEvent,
        at: DateTime<Utc>,
        _id: AppendId,
    ) -> DomainResult<(StoredEvent, Session)> {
        let id = session.clone();
        let appended = self
            .blocking(move |db| {
                let txn = db.begin_write()?;
                let Some(mut session) = read_session(&txn, &id)? else {
                    return Ok(None);
                };
                let stored = StoredEvent {
                    session_id: id.clone(),
                    seq: session.last_seq + 1,
                    at,
                    event,
                };
                session.apply(&stored);
                txn.open_table(EVENTS)?
                    .insert((id.as_str(), stored.seq), serde_json::to_vec(&stored)?.as_slice())?;
                write_session(&txn, &session, None)?;
                txn.commit()?;
                Ok(Some((stored, session)))
            })
            .await?;
        appended.ok_or(DomainError::NotFound("session"))
    }

    async fn read_after(
        &self,
        session: &SessionId,
        after: u64,
        limit: usize,
    ) -> DomainResult<Vec<StoredEvent>> {
        let id = session.clone();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let events = txn.open_table(EVENTS)?;
            let mut page = Vec::new();
            if after == u64::MAX {
                return Ok(page);
            }
            for entry in events
                .range((id.as_str(), after + 1)..=(id.as_str(), u64::MAX))?
                .take(limit)
            {
                page.push(decode(entry?.1.value())?);
            }
            Ok(page)
        })
        .await
    }
}
