//! Replay links of a session. Its owner shares it, with an expiry or until revoked, may
//! change the expiry, and revokes the link (the token stops working at once; sharing
//! again makes a new one). Anyone with a working link reads what the replay shows of the
//! log ([`share::replayed`]: never the model's memory) and the session's images; an
//! expired link is `Gone`, a revoked or unknown one `NotFound`.

use chrono::{DateTime, Utc};

use super::error::{AppError, AppResult};
use super::sessions::SessionService;
use crate::domain::event::StoredEvent;
use crate::domain::image::ImageFormat;
use crate::domain::session::Session;
use crate::domain::share;
use crate::domain::user::UserId;

/// Events read from the log per query while gathering a replay's page: memory events
/// can be large, and most of them are skipped.
const READ_BATCH: usize = 100;

impl SessionService {
    /// Makes the session replayable read-only by anyone with its token until
    /// `expires_at` (`None`: until revoked). A session already shared keeps its token and
    /// gets this expiry; one whose link expired gets a new token.
    pub async fn share(
        &self,
        owner: &UserId,
        id: &str,
        expires_at: Option<DateTime<Utc>>,
    ) -> AppResult<Session> {
        let mut session = self.get(owner, id).await?;
        if session.share_token.is_none() || session.share_expired(Utc::now()) {
            session.share_token = Some(share::new_token());
        }
        session.share_expires_at = expires_at;
        self.sessions.update(&session).await?;
        Ok(session)
    }

    /// Revokes the link: its token is not found from now on.
    pub async fn unshare(&self, owner: &UserId, id: &str) -> AppResult<Session> {
        let mut session = self.get(owner, id).await?;
        if session.share_token.take().is_some() {
            session.share_expires_at = None;
            self.sessions.update(&session).await?;
        }
        Ok(session)
    }

    /// The session a working link shares.
    pub async fn shared(&self, token: &str) -> AppResult<Session> {
        if token.len() != share::TOKEN_CHARS {
            return Err(AppError::NotFound("shared session"));
        }
        let session = self
            .sessions
            .by_share_token(token)
            .await?
            .ok_or(AppError::NotFound("shared session"))?;
        if session.share_expired(Utc::now()) {
            return Err(AppError::Gone(
                "this replay link has expired; ask the person who shared it for a new one".into(),
            ));
        }
        Ok(session)
    }

    /// Up to `limit` events after `after` as the replay shows them; fewer only at the
    /// end of the log.
    pub async fn shared_events(&self, token: &str, after: u64, limit: usize) -> AppResult<Vec<StoredEvent>> {
        let session = self.shared(token).await?;
        let mut shown = Vec::new();
        let mut after = after;
        loop {
            let batch = self.events.page(&session.id, after, READ_BATCH).await?;
            let more = batch.len() == READ_BATCH;
            after = batch.last().map_or(after, |event| event.seq);
            shown.extend(batch.into_iter().filter_map(share::replayed));
            if !more || shown.len() >= limit {
                break;
            }
        }
        // The rest of the last batch comes again with the next page.
        shown.truncate(limit);
        Ok(shown)
    }

    /// An image of a shared session, with its format.
    pub async fn shared_image(&self, token: &str, name: &str) -> AppResult<(Vec<u8>, ImageFormat)> {
        let session = self.shared(token).await?;
        self.read_image(&session, name).await
    }
}
