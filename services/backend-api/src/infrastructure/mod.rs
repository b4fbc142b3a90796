//! Adapters: the ports implemented with real technology. `embedded` (redb + in-process
//! fan-out) is the zero-setup default; `mongo` and `redis` are the production stores.

mod code_cells;
pub mod embedded;
pub mod llm;
pub mod local_bus;
pub mod local_leases;
pub mod mcp;
pub mod mongo;
pub mod password;
pub mod redis;
pub mod sandbox_environment;
pub mod sandbox_files;
pub mod sandbox_gateway;
pub mod sandbox_tools;
pub mod stores;
pub mod terminal;
pub mod tokens;
pub mod vnc;
pub mod web_search;
pub mod webhooks;
