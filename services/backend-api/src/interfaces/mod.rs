//! How the outside world reaches the application: HTTP (JSON and SSE).

pub mod http;
