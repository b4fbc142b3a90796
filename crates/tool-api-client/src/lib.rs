//! Typed client of the sandbox tool-api, used by backend-api (and by the tool-api's own
//! tests, so every route is exercised through the same code the backend runs).
//!
//! One method per route; request and response types come from `tool-api-contract`. A
//! non-2xx answer becomes [`ClientError::Api`] with the server's error body. MCP stdio
//! servers are relayed over a WebSocket ([`McpStdio`]); the desktop's VNC server over an
//! upgraded connection ([`VncStream`]).

// Server and library code handles every error; tests may unwrap.
#![deny(clippy::unwrap_used)]

mod browser;
mod code;
mod desktop;
mod e2b;
mod files;
mod mcp;
mod shell;
mod web;

use client_kit::Endpoint;
use reqwest::{Method, RequestBuilder};
use serde::de::DeserializeOwned;
use serde::Serialize;
use tool_api_contract::info::{HealthResponse, InfoResponse};
use tool_api_contract::ErrorBody;

pub use desktop::VncStream;
pub use mcp::{CloseReason, McpStdio, StdioClose, StdioSink, StdioStream};
pub use tool_api_contract as contract;

client_kit::client_error! {
    service: "tool-api",
    body: ErrorBody,
    code: tool_api_contract::ErrorCode,
    extra: {
        /// A WebSocket (an MCP stdio relay) could not be opened, or broke.
        #[error("tool-api WebSocket failed: {0}")]
        WebSocket(Box<tokio_tungstenite::tungstenite::Error>),
        /// The sandbox could not start an MCP stdio server; the message says why (e.g. the
        /// command is not installed there).
        #[error("the MCP server could not be started: {0}")]
        StdioStart(String),
    },
}

impl From<tokio_tungstenite::tungstenite::Error> for ClientError {
    fn from(err: tokio_tungstenite::tungstenite::Error) -> Self {
        Self::WebSocket(Box::new(err))
    }
}

/// A client of one sandbox's tool-api.
#[derive(Debug, Clone)]
pub struct ToolApiClient {
    endpoint: Endpoint,
}

impl ToolApiClient {
    /// `base` is e.g. `http://127.0.0.1:49153` (no trailing slash needed).
    pub fn new(base: impl Into<String>, token: impl Into<String>) -> Self {
        Self::with_http(reqwest::Client::new(), base, token)
    }

    /// Shares an existing connection pool (backend-api talks to many sandboxes).
    pub fn with_http(http: reqwest::Client, base: impl Into<String>, token: impl Into<String>) -> Self {
        Self {
            endpoint: Endpoint::new(http, base, token),
        }
    }

    pub fn base_url(&self) -> &str {
        self.endpoint.base()
    }

    /// The WebSocket URL of `path` (`ws://` for `http://`, `wss://` for `https://`).
    fn ws_url(&self, path: &str) -> String {
        format!("{}{path}", self.endpoint.base().replacen("http", "ws", 1))
    }

    /// A request to `path` with the bearer token set; for routes without a typed method.
    pub fn request(&self, method: Method, path: &str) -> RequestBuilder {
        self.endpoint.request(method, path)
    }

    pub async fn health(&self) -> ClientResult<HealthResponse> {
        decode(self.endpoint.public(Method::GET, "/health").send().await?).await
    }

    /// Says the sandbox's network rules are in place, which lets it start anything (the
    /// manager's call, on every start of a sandbox).
    pub async fn network_ready(&self) -> ClientResult<()> {
        check(self.request(Method::POST, "/v1/network-ready").send().await?).await?;
        Ok(())
    }

    pub async fn info(&self) -> ClientResult<InfoResponse> {
        self.get_json("/v1/info").await
    }

    async fn get_json<T: DeserializeOwned>(&self, path: &str) -> ClientResult<T> {
        decode(self.request(Method::GET, path).send().await?).await
    }

    async fn post_json<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
    ) -> ClientResult<T> {
        decode(self.request(Method::POST, path).json(body).send().await?).await
    }
}
