//! Watching and taking over a session's desktop: the two ways to use it, whether it
//! runs (the port that connects to a sandbox's VNC server:
//! [`super::ports::DesktopConnector`]).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum VncMode {
    /// Watch only: the person's keyboard and mouse never reach the desktop.
    View,
    /// Take over: input goes through, and the agent pauses until the person lets go.
    Control,
}

/// Whether a session's desktop runs: what the person's panel asks before it connects,
/// since connecting starts the desktop (and the sandbox, when the session has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DesktopState {
    /// The session has no sandbox now (none yet, or removed after its idle time-out).
    NoSandbox,
    /// The sandbox runs without its desktop: the agent's next browser call or a
    /// connection starts it.
    Stopped,
    /// Started; not every part answers yet.
    Starting,
    /// Up, with its screen, VNC server and browser answering.
    Running,
    /// The sandbox has no desktop at all (disabled in its configuration).
    Disabled,
}
