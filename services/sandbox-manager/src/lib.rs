//! sandbox-manager: owns every sandbox's life. backend-api asks it for "the sandbox of
//! session S"; nothing else talks to the container engine.
//!
//! Layout: [`driver`] is the port to the engine (Docker through bollard, or Kubernetes
//! through kube); [`manager`] is
//! the application (create-or-get, delete, the warm pool, the reaper, health, engine
//! events, reconciliation); [`store`] keeps the records across restarts; [`events`] is
//! the lifecycle event bus; [`http`] maps it all onto routes; [`startup`] wires and serves.

// Server and library code handles every error; tests may unwrap.
#![deny(clippy::unwrap_used)]

pub mod access;
pub mod config;
pub mod driver;
pub mod error;
pub mod events;
pub mod http;
pub mod manager;
pub mod record;
pub mod startup;
pub mod store;

pub use startup::Application;
