//! tool-api's integration tests, one binary with a module per area: the real server on
//! real files, processes, PTYs and a real desktop, and the sandbox image as a container.
//! Run one area with `cargo test -p tool-api --test integration shell::`.

mod archive_contents;
mod code;
mod code_interpreter;
mod container;
mod desktop;
mod desktop_stop;
mod desktop_teardown;
mod envd;
mod fakes;
mod files;
mod files_transfer;
mod lifecycle;
mod mcp_stdio;
mod shell;
mod storage;
mod support;
mod system;
mod terminal;
mod web;
