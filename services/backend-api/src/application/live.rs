//! A session's live connections for the person watching it: the desktop (watched, or
//! taken over) and the terminal. Each opens with a single-use ticket (see [`tickets`]);
//! redeeming it reaches the session's sandbox from here — the VNC password and the
//! sandbox's token never leave the backend. Taking over the desktop and an open
//! terminal both pause the agent for as long as they last. Whether the desktop runs
//! can be asked without a ticket, and asking starts nothing: no desktop, no sandbox.
//!
//! [`tickets`]: super::tickets

use std::sync::Arc;

use super::agent::{AgentService, TakeOverGuard};
use super::error::{AppError, AppResult};
use super::holds::{Held, Hold, Holds};
use super::sessions::SessionService;
use super::tickets::{IssuedTicket, TicketBook};
use crate::domain::ports::{DesktopConnector, DesktopStream, SandboxGateway, TerminalConnector};
use crate::domain::terminal::{TerminalChannel, TerminalSize};
use crate::domain::ticket::{Access, Opens};
use crate::domain::user::UserId;
use crate::domain::vnc::{DesktopState, VncMode};

/// An open, authenticated connection to the session's desktop, with what it may do.
pub struct Desktop {
    pub mode: VncMode,
    pub stream: Box<dyn DesktopStream>,
    /// Held for as long as a control connection lasts.
    pub take_over: Option<TakeOverGuard>,
    /// The person's relay slot, for as long as the connection lasts.
    pub hold: Hold,
}

/// An open terminal, and the hold on the agent that lasts as long as it does.
pub struct Terminal {
    pub channel: TerminalChannel,
    pub take_over: TakeOverGuard,
    pub hold: Hold,
}

/// How the sandbox's desktop and terminal are reached.
pub struct Connectors {
    pub desktop: Arc<dyn DesktopConnector>,
    pub terminal: Arc<dyn TerminalConnector>,
}

pub struct LiveService {
    sessions: Arc<SessionService>,
    tickets: TicketBook,
    sandboxes: Arc<dyn SandboxGateway>,
    connectors: Connectors,
    agent: Arc<AgentService>,
    holds: Arc<Holds>,
}

impl LiveService {
    pub fn new(
        sessions: Arc<SessionService>,
        tickets: TicketBook,
        sandboxes: Arc<dyn SandboxGateway>,
        connectors: Connectors,
        agent: Arc<AgentService>,
        holds: Arc<Holds>,
    ) -> Self {
        Self {
            sessions,
            tickets,
            sandboxes,
            connectors,
            agent,
            holds,
        }
    }

    pub async fn desktop_ticket(&self, owner: &UserId, id: &str, mode: VncMode) -> AppResult<IssuedTicket> {
        self.tickets.issue(owner, id, Access::Desktop { mode }).await
    }

    /// Whether the desktop of `owner`'s session `id` runs; finds the session's sandbox
    /// but never creates it or starts its desktop.
    pub async fn desktop_state(&self, owner: &UserId, id: &str) -> AppResult<DesktopState> {
        let session = self.sessions.get(owner, id).await?;
        match self.sandboxes.find(&session.id).await? {
            Some(sandbox) => Ok(self.connectors.desktop.state(&sandbox).await?),
            None => Ok(DesktopState::NoSandbox),
        }
    }

    pub async fn terminal_ticket(&self, owner: &UserId, id: &str) -> AppResult<IssuedTicket> {
        self.tickets.issue(owner, id, Access::Terminal).await
    }

    /// Uses up the ticket (whatever happens next) and, when it grants this session's
    /// desktop to the person who still owns it, connects to the desktop.
    pub async fn open_desktop(&self, id: &str, ticket: &str) -> AppResult<Desktop> {
        let (session, access) = self.tickets.redeem(id, ticket, Opens::Desktop).await?;
        let Access::Desktop { mode } = access else {
            return Err(AppError::Internal(anyhow::anyhow!(
                "a desktop ticket without a mode"
            )));
        };
        let hold = self.holds.acquire(&session.owner, Held::Relay)?;
        let sandbox = self
            .sandboxes
            .acquire(&session.id, &session.owner, session.network)
            .await?;
        let stream = self.connectors.desktop.connect(&sandbox).await?;
        let take_over = (mode == VncMode::Control).then(|| self.agent.take_over(&session.id));
        Ok(Desktop {
            mode,
            stream,
            take_over,
            hold,
        })
    }

    /// Uses up the ticket (whatever happens next) and, when it grants this session's
    /// terminal to the person who still owns it, opens a shell of `size` in its sandbox.
    pub async fn open_terminal(&self, id: &str, ticket: &str, size: TerminalSize) -> AppResult<Terminal> {
        let (session, _) = self.tickets.redeem(id, ticket, Opens::Terminal).await?;
        let hold = self.holds.acquire(&session.owner, Held::Relay)?;
        let sandbox = self
            .sandboxes
            .acquire(&session.id, &session.owner, session.network)
            .await?;
        let channel = self.connectors.terminal.open(&sandbox, size).await?;
        Ok(Terminal {
            channel,
            take_over: self.agent.take_over(&session.id),
            hold,
        })
    }
}
