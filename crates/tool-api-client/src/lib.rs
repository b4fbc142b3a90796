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

use reqwest::{Method, RequestBuilder, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;
use tool_api_contract::info::{HealthResponse, InfoResponse};
use tool_api_contract::ErrorBody;

pub use desktop::VncStream;
pub use mcp::{CloseReason, McpStdio, StdioClose, StdioSink, StdioStream};
pub use tool_api_contract as contract;

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The server answered with an error body.
    #[error("tool-api returned {status}: {}", .body.error.message)]
    Api { status: u16, body: ErrorBody },
    /// The server could not be reached, or the connection broke.
    #[error("tool-api request failed: {0}")]
    Transport(#[from] reqwest::Error),
    /// The server answered with something that is not the expected JSON.
    #[error("tool-api sent an unexpected body ({status}): {message}")]
    Decode { status: u16, message: String },
    /// A WebSocket (an MCP stdio relay) could not be opened, or broke.
    #[error("tool-api WebSocket failed: {0}")]
    WebSocket(Box<tokio_tungstenite::tungstenite::Error>),
    /// The sandbox could not start an MCP stdio server; the message says why (e.g. the
    /// command is not installed there).
    #[error("the MCP server could not be started: {0}")]
    StdioStart(String),
}

impl From<tokio_tungstenite::tungstenite::Error> for ClientError {
    fn from(err: tokio_tungstenite::tungstenite::Error) -> Self {
        Self::WebSocket(Box::new(err))
    }
}

impl ClientError {
    /// The contract's error code, when the server sent one.
    pub fn code(&self) -> Option<tool_api_contract::ErrorCode> {
        match self {
            Self::Api { body, .. } => Some(body.error.code),
            _ => None,
        }
    }
}

pub type ClientResult<T> = Result<T, ClientError>;

/// A client of one sandbox's tool-api.
#[derive(Debug, Clone)]
pub struct ToolApiClient {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl ToolApiClient {
    /// `base` is e.g. `http://127.0.0.1:49153` (no trailing slash needed).
    pub fn new(base: impl Into<String>, token: impl Into<String>) -> Self {
        Self::with_http(reqwest::Client::new(), base, token)
    }

    /// Shares an existing connection pool (backend-api talks to many sandboxes).
    pub fn with_http(http: reqwest::Client, base: impl Into<String>, token: impl Into<String>) -> Self {
        Self {
            http,
            base: base.into().trim_end_matches('/').to_owned(),
            token: token.into(),
        }
    }

    pub fn base_url(&self) -> &str {
        &self.base
    }

    /// The WebSocket URL of `path` (`ws://` for `http://`, `wss://` for `https://`).
    fn ws_url(&self, path: &str) -> String {
        format!("{}{path}", self.base.replacen("http", "ws", 1))
    }

    /// A request to `path` with the bearer token set; for routes without a typed method.
    pub fn request(&self, method: Method, path: &str) -> RequestBuilder {
        self.http
            .request(method, format!("{}{}", self.base, path))
            .bearer_auth(&self.token)
    }

    pub async fn health(&self) -> ClientResult<HealthResponse> {
        decode(self.http.get(format!("{}/health", self.base)).send().await?).await
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

/// Passes a successful response through; turns an error response into [`ClientError`].
pub async fn check(response: Response) -> ClientResult<Response> {
    let status = response.status().as_u16();
    if response.status().is_success() {
        return Ok(response);
    }
    let bytes = response.bytes().await?;
    Err(refusal(status, &bytes))
}

/// An error answer: the server's error body, or what came instead.
fn refusal(status: u16, bytes: &[u8]) -> ClientError {
    match serde_json::from_slice::<ErrorBody>(bytes) {
        Ok(body) => ClientError::Api { status, body },
        Err(_) => ClientError::Decode {
            status,
            message: String::from_utf8_lossy(bytes).chars().take(500).collect(),
        },
    }
}

/// Checks the status, then parses the JSON body.
pub async fn decode<T: DeserializeOwned>(response: Response) -> ClientResult<T> {
    let response = check(response).await?;
    let status = response.status().as_u16();
    let bytes = response.bytes().await?;
    serde_json::from_slice(&bytes).map_err(|err| ClientError::Decode {
        status,
        message: err.to_string(),
    })
}
