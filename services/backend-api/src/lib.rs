//! backend-api: the API the Sandpiper front end talks to — accounts and sign-in,
//! sessions, and each session's agent event log, replayed and followed over SSE.
//!
//! Four layers, depending inward only: `domain` (types, rules, ports), `application`
//! (use cases on the ports), `infrastructure` (adapters: embedded store, MongoDB, Redis,
//! argon2, JWT) and `interfaces::http` (axum). `startup` wires them.

pub mod application;
pub mod config;
pub mod domain;
pub mod infrastructure;
pub mod interfaces;
pub mod startup;

pub use startup::Application;
