//! The core the typed clients of Sandpiper's services (sandbox-manager, tool-api) share,
//! so they cannot differ in it: where requests go and with which token ([`Endpoint`]), the
//! shape of a client's error ([`client_error!`]), and how an answer becomes a value or
//! that error ([`check`], [`decode`], [`refusal`]).
//!
//! A crate of its own rather than part of `service-kit`: that one is server-only (axum,
//! the tracing subscriber, signal handling), and a client is linked into programs that
//! serve nothing of the kind; this one needs no more than the HTTP client and serde.

// Server and library code handles every error; tests may unwrap.
#![deny(clippy::unwrap_used)]

use reqwest::{Method, RequestBuilder, Response};
use serde::de::DeserializeOwned;

/// Where a client sends its requests: a base URL and the bearer token they carry.
#[derive(Debug, Clone)]
pub struct Endpoint {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl Endpoint {
    /// `base` is e.g. `http://127.0.0.1:8090` (a trailing slash is dropped); `http` may be
    /// a pool shared with other clients.
    pub fn new(http: reqwest::Client, base: impl Into<String>, token: impl Into<String>) -> Self {
        Self {
            http,
            base: base.into().trim_end_matches('/').to_owned(),
            token: token.into(),
        }
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    pub fn token(&self) -> &str {
        &self.token
    }

    /// A request to `path` with the bearer token set.
    pub fn request(&self, method: Method, path: &str) -> RequestBuilder {
        self.http
            .request(method, format!("{}{}", self.base, path))
            .bearer_auth(&self.token)
    }

    /// A request to `path` without the token (a service's public routes).
    pub fn public(&self, method: Method, path: &str) -> RequestBuilder {
        self.http.request(method, format!("{}{}", self.base, path))
    }
}

/// What a client's error must be able to say for [`check`] and [`decode`] to make it;
/// [`client_error!`] defines such an error.
pub trait ClientFailure: From<reqwest::Error> {
    /// The contract's error body.
    type Body: DeserializeOwned;
    /// The service answered `status` with its error body.
    fn api(status: u16, body: Self::Body) -> Self;
    /// The service answered `status` with something else than the body expected.
    fn unexpected(status: u16, message: String) -> Self;
}

/// Passes a successful response through; turns an error response into `E`.
pub async fn check<E: ClientFailure>(response: Response) -> Result<Response, E> {
    let status = response.status().as_u16();
    if response.status().is_success() {
        return Ok(response);
    }
    let bytes = response.bytes().await?;
    Err(refusal(status, &bytes))
}

/// An error answer: the service's error body, or (its first 500 characters) what came
/// instead.
pub fn refusal<E: ClientFailure>(status: u16, bytes: &[u8]) -> E {
    match serde_json::from_slice::<E::Body>(bytes) {
        Ok(body) => E::api(status, body),
        Err(_) => E::unexpected(status, String::from_utf8_lossy(bytes).chars().take(500).collect()),
    }
}

/// Checks the status, then parses the JSON body.
pub async fn decode<T: DeserializeOwned, E: ClientFailure>(response: Response) -> Result<T, E> {
    let response = check::<E>(response).await?;
    let status = response.status().as_u16();
    let bytes = response.bytes().await?;
    serde_json::from_slice(&bytes).map_err(|err| E::unexpected(status, err.to_string()))
}

/// Defines a client's `ClientError` (with `Api`, `Transport` and `Decode` variants, then
/// the client's own `extra` ones), `ClientError::code`, `ClientResult`, and the client's
/// `check` and `decode`. `body` is the contract's error body, `{"error": {"code", "message",
/// …}}`, and `code` its error code; `service` names the service in messages.
#[macro_export]
macro_rules! client_error {
    (
        service: $service:literal,
        body: $body:ty,
        code: $code:ty
        $(, extra: { $($extra:tt)* })? $(,)?
    ) => {
        #[derive(Debug, thiserror::Error)]
        pub enum ClientError {
            /// The service answered with an error body.
            #[error("{} returned {status}: {}", $service, .body.error.message)]
            Api { status: u16, body: $body },
            /// The service could not be reached, or the connection broke.
            #[error("{} request failed: {}", $service, .0)]
            Transport(#[from] reqwest::Error),
            /// The service answered with something that is not the expected JSON.
            #[error("{} sent an unexpected body ({status}): {message}", $service)]
            Decode { status: u16, message: String },
            $($($extra)*)?
        }

        impl ClientError {
            /// The contract's error code, when the service sent one.
            pub fn code(&self) -> Option<$code> {
                match self {
                    Self::Api { body, .. } => Some(body.error.code),
                    _ => None,
                }
            }
        }

        impl $crate::ClientFailure for ClientError {
            type Body = $body;

            fn api(status: u16, body: $body) -> Self {
                Self::Api { status, body }
            }

            fn unexpected(status: u16, message: String) -> Self {
                Self::Decode { status, message }
            }
        }

        pub type ClientResult<T> = Result<T, ClientError>;

        /// Passes a successful response through; turns an error response into
        /// [`ClientError`].
        pub async fn check(response: reqwest::Response) -> ClientResult<reqwest::Response> {
            $crate::check(response).await
        }

        /// Checks the status, then parses the JSON body.
        pub async fn decode<T: serde::de::DeserializeOwned>(response: reqwest::Response) -> ClientResult<T> {
            $crate::decode(response).await
        }
    };
}
