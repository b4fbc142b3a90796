//! The desktop's VNC stream. `GET /v1/desktop/vnc` with `Connection: Upgrade` and
//! `Upgrade: rfb` answers `101 Switching Protocols`; from then on the connection carries
//! the RFB protocol both ways, straight to the sandbox's VNC server. That server listens
//! on the sandbox's loopback only and asks no password, so this route, behind the sandbox
//! token, is the one way in from outside.

/// The `Upgrade` protocol token of the VNC stream.
pub const VNC_UPGRADE: &str = "rfb";
