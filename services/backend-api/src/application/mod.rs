//! Use cases: each orchestrates domain ports and knows nothing of HTTP or of which
//! adapters are plugged in.

pub mod agent;
pub mod api_keys;
pub mod auth;
pub mod automations;
pub mod e2b;
pub mod error;
pub mod events;
pub mod files;
pub mod holds;
pub mod invites;
pub mod jobs;
pub mod live;
pub mod login_limits;
pub mod mcp_servers;
pub mod memory;
mod notebook;
pub mod password_checks;
pub mod principal;
pub mod sessions;
mod sharing;
pub mod tickets;
pub mod toolbox;
pub mod turns;
pub mod webhook_signature;

pub use error::{AppError, AppResult};
