//! tool-api: the HTTP server inside every sandbox container, the agent's hands.
//!
//! It serves file operations, shell sessions and an interactive terminal, page fetch, the
//! browser tools, MCP stdio servers, a code interpreter (a Jupyter kernel), and sandbox
//! information; it also starts and watches the sandbox desktop.
//! backend-api reaches it (through the port the sandbox-manager publishes) with the
//! sandbox's own bearer token; nobody else should.
//!
//! Layout: [`files`], [`shell`], [`web`], [`desktop`], [`browser`], [`mcp_stdio`],
//! [`kernel`], [`interpreter`] (E2B's code contexts) and [`system`] do the work and know
//! nothing of HTTP; [`system_program`] finds the programs tool-api starts itself, never
//! the user's; [`network_gate`] holds everything back until the sandbox's firewall is in
//! place; [`http`] maps them onto routes; [`startup`] wires and serves.

// Server and library code handles every error; tests may unwrap.
#![deny(clippy::unwrap_used)]

pub mod browser;
pub mod child_env;
mod clock;
pub mod config;
pub mod desktop;
pub mod envd;
pub mod error;
pub mod files;
pub mod home_seed;
pub mod http;
pub mod interpreter;
pub mod kernel;
pub mod mcp_stdio;
pub mod network_gate;
mod open_files;
pub mod paths;
mod process_group;
pub mod sandbox_env;
pub mod shell;
pub mod startup;
mod stderr_tail;
pub mod storage_quota;
mod storage_writers;
pub mod system;
pub mod system_program;
pub mod web;

pub use startup::Application;
