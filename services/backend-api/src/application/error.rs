//! The one error type of the API: what a use case, an extractor or the router refuses a
//! request with. The status is noted on each variant; `interfaces/http/error.rs` answers
//! it with that status and the JSON error body, so this layer knows nothing of axum.

use crate::domain::DomainError;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// 400: the request could not be parsed.
    #[error("{0}")]
    Malformed(String),
    /// 422: a value breaks a rule.
    #[error("{0}")]
    Invalid(String),
    /// 422: a field's value breaks a rule; the body names the field.
    #[error("{field}: {message}")]
    InvalidField { field: &'static str, message: String },
    /// 401: no valid credentials (missing, wrong, expired, revoked).
    #[error("{0}")]
    Unauthorized(String),
    /// 403: authenticated, but not allowed (not an admin; feature off in this auth mode).
    #[error("{0}")]
    Forbidden(String),
    /// 404: no such thing, or not the caller's.
    #[error("{0} not found")]
    NotFound(&'static str),
    /// 410: it existed but no longer works (an expired replay link); the message says
    /// what to do.
    #[error("{0}")]
    Gone(String),
    /// 409: a unique value is taken.
    #[error("{0}")]
    Conflict(String),
    /// 413: the body is larger than allowed.
    #[error("{0}")]
    TooLarge(String),
    /// 507: the session's workspace is over its storage quota; files must be deleted first.
    #[error("{0}")]
    StorageFull(String),
    /// 416: the requested byte range lies outside the file.
    #[error("{0}")]
    RangeNotSatisfiable(String),
    /// 429: a rate limit is reached (`reason` says which); retry after the given seconds.
    #[error("{reason}; retry in {retry_after_secs} s")]
    RateLimited { reason: String, retry_after_secs: u64 },
    /// 429: the person holds as many connections or sandboxes of a kind as allowed; the
    /// message says which and what to close.
    #[error("{0}")]
    TooManyOpen(String),
    /// 503: too much of one kind of work is waiting (`reason` says which); retry after
    /// the given seconds.
    #[error("{reason}; retry in {retry_after_secs} s")]
    Busy { reason: String, retry_after_secs: u64 },
    /// 503: a store does not answer; the message says which.
    #[error("{0}")]
    Unavailable(String),
    /// 404: no route matches the request's path.
    #[error("no such route")]
    NoRoute,
    /// 405: the route exists but not for this method.
    #[error("this route does not take that method")]
    MethodNotAllowed,
    /// 500: logged in full, sent as a generic message.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

pub type AppResult<T> = Result<T, AppError>;

impl From<DomainError> for AppError {
    fn from(err: DomainError) -> Self {
        match err {
            DomainError::Invalid(message) => Self::Invalid(message),
            DomainError::InvalidField { field, message } => Self::InvalidField { field, message },
            DomainError::NotFound(what) => Self::NotFound(what),
            DomainError::Conflict(message) => Self::Conflict(message),
            DomainError::TooLarge(message) => Self::TooLarge(message),
            DomainError::RangeNotSatisfiable(message) => Self::RangeNotSatisfiable(message),
            DomainError::StorageFull(message) => Self::StorageFull(message),
            DomainError::TooMany(message) => Self::TooManyOpen(message),
            DomainError::Unavailable { what, .. } => {
                Self::Unavailable(format!("{what} is unavailable right now; retry shortly"))
            }
            DomainError::Internal(err) => Self::Internal(err),
        }
    }
}
