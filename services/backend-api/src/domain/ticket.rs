//! Single-use tickets for a session's live connections — the desktop and the terminal.
//! A browser cannot put an `Authorization` header on a WebSocket, so a signed-in person
//! first asks for a ticket over ordinary HTTP and then opens the socket with it.

use serde::{Deserialize, Serialize};

use super::session::SessionId;
use super::user::UserId;
use super::vnc::VncMode;

/// What a ticket opens; a ticket for one never opens the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "opens", rename_all = "snake_case")]
pub enum Access {
    Desktop {
        mode: VncMode,
    },
    /// The terminal is always control: the agent pauses while the person types.
    Terminal,
}

impl Access {
    pub fn opens(self) -> Opens {
        match self {
            Self::Desktop { .. } => Opens::Desktop,
            Self::Terminal => Opens::Terminal,
        }
    }
}

/// The connection a ticket is for, whatever the mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opens {
    Desktop,
    Terminal,
}

impl std::fmt::Display for Opens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Desktop => "desktop",
            Self::Terminal => "terminal",
        })
    }
}

/// What a ticket grants, as stored under it until it is used or expires.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Grant {
    pub user: UserId,
    pub session: SessionId,
    pub access: Access,
}
