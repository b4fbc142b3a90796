//! Wire types of the sandbox tool-api.
//!
//! The tool-api server (`services/tool-api`) and its typed client (`tool-api-client`, used by
//! backend-api) both compile against these types, so a request or response shape is written
//! once and the two sides cannot drift apart. Every type derives `utoipa::ToSchema`; the
//! server's `/openapi.json` is generated from them.

// Server and library code handles every error; tests may unwrap.
#![deny(clippy::unwrap_used)]

pub mod browser;
pub mod code;
pub mod desktop;
pub mod error;
pub mod files;
pub mod info;
pub mod mcp;
pub mod shell;
pub mod web;

pub use error::{ErrorBody, ErrorCode, ErrorDetail};
