//! Use cases: each orchestrates domain ports and knows nothing of HTTP or of which
//! adapters are plugged in.

pub mod agent;
pub mod auth;
pub mod error;
pub mod events;
pub mod files;
pub mod sessions;
pub mod vnc;

pub use error::{AppError, AppResult};
