//! backend-api's integration tests, one binary with a module per area: the real server
//! (`Application::build` on port 0) over HTTP, SSE and WebSockets, with real sandboxes
//! from the sandbox-manager binary where a test needs one, and scripted model servers.
//! One binary links the service once and lets the modules share what they start.
//! Run one area with `cargo test -p backend-api --test integration agent::`.

mod agent;
mod agent_code;
mod agent_sandbox;
mod agent_tool_views;
mod api_keys;
mod auth;
mod automations;
mod delegation;
mod disk_full;
mod e2b;
mod e2b_listing;
mod e2b_records;
mod e2b_sandboxes;
mod events;
mod files;
mod frontend;
mod hardening;
mod job_attachments;
mod jobs;
mod mcp;
mod mcp_admin;
mod mcp_sandbox;
mod memory;
mod memory_approval;
mod memory_reach;
mod models;
mod redirects;
mod registration;
mod replicas;
mod sessions;
mod shared_stores;
mod sharing;
mod support;
mod terminal;
mod tool_register;
mod tool_register_python;
mod toolbox;
mod vnc;
