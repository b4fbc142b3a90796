//! Issuing and redeeming the single-use tickets that open a session's desktop or
//! terminal. A ticket is bound to the person, the session and what it opens, lives a
//! few seconds, and is used up by the first attempt — whatever happens next. Redeeming
//! checks everything before any sandbox is contacted.

use std::sync::Arc;
use std::time::Duration;

use rand::distr::{Alphanumeric, SampleString};

use super::error::{AppError, AppResult};
use super::sessions::SessionService;
use crate::domain::ports::{KeyValueStore, SessionRepository};
use crate::domain::session::{Session, SessionId};
use crate::domain::ticket::{Access, Grant, Opens};
use crate::domain::user::UserId;

/// Longer strings are not tickets, and are refused without a store lookup.
const MAX_TICKET_LEN: usize = 128;

pub struct IssuedTicket {
    pub ticket: String,
    pub expires_in: Duration,
}

pub struct TicketBook {
    sessions: Arc<SessionService>,
    repository: Arc<dyn SessionRepository>,
    store: Arc<dyn KeyValueStore>,
    ttl: Duration,
}

fn key(ticket: &str) -> String {
    format!("live-ticket:{ticket}")
}

impl TicketBook {
    pub fn new(
        sessions: Arc<SessionService>,
        repository: Arc<dyn SessionRepository>,
        store: Arc<dyn KeyValueStore>,
        ttl: Duration,
    ) -> Self {
        Self {
            sessions,
            repository,
            store,
            ttl,
        }
    }

    /// A ticket to `access` the session `id`, which `owner` must own.
    pub async fn issue(&self, owner: &UserId, id: &str, access: Access) -> AppResult<IssuedTicket> {
        let session = self.sessions.get(owner, id).await?;
        let grant = Grant {
            user: owner.clone(),
            session: session.id,
            access,
        };
        let ticket = Alphanumeric.sample_string(&mut rand::rng(), 40);
        let value = serde_json::to_string(&grant).map_err(anyhow::Error::from)?;
        self.store.put(&key(&ticket), &value, self.ttl).await?;
        Ok(IssuedTicket {
            ticket,
            expires_in: self.ttl,
        })
    }

    /// Uses up the ticket and returns the session it grants with what it opens, when it
    /// is for session `id`, opens `wanted`, and its person still owns the session.
    pub async fn redeem(&self, id: &str, ticket: &str, wanted: Opens) -> AppResult<(Session, Access)> {
        let refused = || {
            AppError::Unauthorized(format!(
                "the {wanted} ticket is unknown, used or expired; ask for a new one"
            ))
        };
        if ticket.is_empty() || ticket.len() > MAX_TICKET_LEN {
            return Err(refused());
        }
        let stored = self.store.take(&key(ticket)).await?.ok_or_else(refused)?;
        let grant: Grant = serde_json::from_str(&stored).map_err(|_| refused())?;
        if grant.access.opens() != wanted {
            return Err(AppError::Forbidden(format!(
                "the ticket opens the {}, not the {wanted}",
                grant.access.opens()
            )));
        }
        let session = SessionId::parse(id)?;
        if grant.session != session {
            return Err(AppError::Forbidden(format!(
                "the {wanted} ticket is for another session"
            )));
        }
        let session = self
            .repository
            .get(&session)
            .await?
            .filter(|s| s.owner == grant.user)
            .ok_or(AppError::NotFound("session"))?;
        Ok((session, grant.access))
    }
}
