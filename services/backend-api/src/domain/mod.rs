//! The domain: users, sessions and agent events, the rules on them, and the ports
//! (traits) the application needs from the outside world. Nothing here knows HTTP,
//! MongoDB, Redis or any other adapter; the sandbox's tools are named by the tool-api
//! contract's request types, which are plain data shared with the sandbox, and the
//! backend's own tools (web search) by types of their own.

pub mod agent;
pub mod agent_server;
pub mod api_key;
pub mod automation;
pub mod automation_schedule;
pub mod backend_call;
pub mod e2b;
pub mod error;
pub mod event;
pub mod files;
pub mod ids;
pub mod image;
pub mod invite;
pub mod job;
pub mod job_attachment;
pub mod logged_call;
pub mod mcp;
pub mod mcp_edit;
pub mod memory;
pub mod memory_secrets;
pub mod model;
pub mod plan;
pub mod ports;
pub mod replica;
pub mod run_call;
pub mod sandbox_call;
pub mod session;
pub mod session_summary;
pub mod share;
pub mod terminal;
pub mod ticket;
pub mod tool;
pub mod toolbox;
pub mod user;
pub mod vnc;
pub mod web_search;

pub use error::{DomainError, DomainResult};
