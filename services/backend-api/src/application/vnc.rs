//! The live desktop: a signed-in person asks for a ticket (bound to them, the session and
//! a mode, valid for a few seconds, usable once), and the browser opens the VNC relay
//! with it — WebSockets cannot carry an `Authorization` header. Redeeming checks
//! everything before the sandbox is contacted, then connects and authenticates to the
//! sandbox's VNC server here, so the password never leaves the backend.

use std::sync::Arc;
use std::time::Duration;

use rand::distr::{Alphanumeric, SampleString};

use super::agent::{AgentService, TakeOverGuard};
use super::error::{AppError, AppResult};
use super::sessions::SessionService;
use crate::domain::agent::SandboxGateway;
use crate::domain::ports::{KeyValueStore, SessionRepository};
use crate::domain::session::SessionId;
use crate::domain::user::UserId;
use crate::domain::vnc::{DesktopConnector, DesktopStream, VncGrant, VncMode};

pub struct IssuedTicket {
    pub ticket: String,
    pub mode: VncMode,
    pub expires_in: Duration,
}

/// An open, authenticated connection to the session's desktop, with what it may do.
pub struct Desktop {
    pub mode: VncMode,
    pub stream: Box<dyn DesktopStream>,
    /// Held for as long as a control connection lasts.
    pub take_over: Option<TakeOverGuard>,
}

pub struct VncService {
    sessions: Arc<SessionService>,
    repository: Arc<dyn SessionRepository>,
    tickets: Arc<dyn KeyValueStore>,
    sandboxes: Arc<dyn SandboxGateway>,
    connector: Arc<dyn DesktopConnector>,
    agent: Arc<AgentService>,
    ticket_ttl: Duration,
}

fn ticket_key(ticket: &str) -> String {
    format!("vnc-ticket:{ticket}")
}

impl VncService {
    pub fn new(
        sessions: Arc<SessionService>,
        repository: Arc<dyn SessionRepository>,
        tickets: Arc<dyn KeyValueStore>,
        sandboxes: Arc<dyn SandboxGateway>,
        connector: Arc<dyn DesktopConnector>,
        agent: Arc<AgentService>,
        ticket_ttl: Duration,
    ) -> Self {
        Self {
            sessions,
            repository,
            tickets,
            sandboxes,
            connector,
            agent,
            ticket_ttl,
        }
    }

    pub async fn issue(&self, owner: &UserId, id: &str, mode: VncMode) -> AppResult<IssuedTicket> {
        let session = self.sessions.get(owner, id).await?;
        let grant = VncGrant {
            user: owner.clone(),
            session: session.id,
            mode,
        };
        let ticket = Alphanumeric.sample_string(&mut rand::rng(), 40);
        let value = serde_json::to_string(&grant).map_err(anyhow::Error::from)?;
        self.tickets
            .put(&ticket_key(&ticket), &value, self.ticket_ttl)
            .await?;
        Ok(IssuedTicket {
            ticket,
            mode,
            expires_in: self.ticket_ttl,
        })
    }

    /// Uses up the ticket (whatever happens next) and, when it grants this session to
    /// the person who still owns it, connects to the desktop.
    pub async fn open(&self, id: &str, ticket: &str) -> AppResult<Desktop> {
        let refused =
            || AppError::Unauthorized("the VNC ticket is unknown, used or expired; ask for a new one".into());
        if ticket.is_empty() || ticket.len() > 128 {
            return Err(refused());
        }
        let stored = self
            .tickets
            .take(&ticket_key(ticket))
            .await?
            .ok_or_else(refused)?;
        let grant: VncGrant = serde_json::from_str(&stored).map_err(|_| refused())?;
        let session = SessionId::parse(id)?;
        if grant.session != session {
            return Err(AppError::Forbidden(
                "the VNC ticket is for another session".into(),
            ));
        }
        let session = self
            .repository
            .get(&session)
            .await?
            .filter(|s| s.owner == grant.user)
            .ok_or(AppError::NotFound("session"))?;
        let sandbox = self.sandboxes.acquire(&session.id, &session.owner).await?;
        let stream = self.connector.connect(&sandbox).await?;
        let take_over = (grant.mode == VncMode::Control).then(|| self.agent.take_over(&session.id));
        Ok(Desktop {
            mode: grant.mode,
            stream,
            take_over,
        })
    }
}
