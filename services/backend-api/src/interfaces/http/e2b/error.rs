//! Errors of the E2B-compatible API in E2B's shape, `{"code": <status>, "message": …}`,
//! which its SDKs read into their exceptions. The status of each is Sandpiper's own
//! (see [`AppError`]); internal errors are logged, never sent.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::application::AppError;

#[derive(Debug, thiserror::Error)]
pub enum E2bError {
    /// Whatever status the application's error has.
    #[error(transparent)]
    Api(#[from] AppError),
    /// 400: the body or query is not what the route takes.
    #[error("{0}")]
    Malformed(String),
    /// 502, not to be cached: the data plane cannot reach the sandbox or the port named,
    /// as E2B's proxy answers (its SDKs tell a sandbox that "was not found" from a port
    /// that "is not open" by the message's words).
    #[error("{0}")]
    Unavailable(String),
    /// 501: E2B has this and Sandpiper does not (yet); the message says what to do.
    #[error("{0}")]
    Unsupported(&'static str),
}

impl From<crate::domain::DomainError> for E2bError {
    fn from(err: crate::domain::DomainError) -> Self {
        Self::Api(err.into())
    }
}

#[derive(Serialize)]
struct Body {
    code: u16,
    message: String,
}

impl IntoResponse for E2bError {
    fn into_response(self) -> Response {
        let (status, message) = match &self {
            Self::Api(err) => (err.status().0, err.public_message()),
            Self::Malformed(message) => (StatusCode::BAD_REQUEST, message.clone()),
            Self::Unavailable(message) => (StatusCode::BAD_GATEWAY, message.clone()),
            Self::Unsupported(message) => (StatusCode::NOT_IMPLEMENTED, (*message).to_owned()),
        };
        let mut response = (
            status,
            axum::Json(Body {
                code: status.as_u16(),
                message,
            }),
        )
            .into_response();
        match &self {
            Self::Api(err) => err.add_headers(&mut response),
            Self::Unavailable(_) => {
                let no_store = HeaderValue::from_static("no-store");
                response.headers_mut().insert(header::CACHE_CONTROL, no_store);
            }
            Self::Malformed(_) | Self::Unsupported(_) => {}
        }
        response
    }
}

pub type E2bResult<T> = Result<T, E2bError>;
