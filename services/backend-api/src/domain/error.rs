//! Errors the domain and its ports speak: what went wrong in terms a use case can act on.

#[derive(Debug, thiserror::Error)]
pub enum DomainError {
    /// Input broke a rule (e.g. an email without a domain); the message says which.
    #[error("{0}")]
    Invalid(String),
    /// Like `Invalid`, for input with named fields: `field` names the one to fix.
    #[error("{field}: {message}")]
    InvalidField { field: &'static str, message: String },
    /// The thing does not exist (or belongs to someone else, which looks the same).
    #[error("{0} not found")]
    NotFound(&'static str),
    /// A unique value is taken (e.g. the email of an existing account).
    #[error("{0}")]
    Conflict(String),
    /// A body or result is larger than allowed.
    #[error("{0}")]
    TooLarge(String),
    /// The session's workspace is over its storage quota; the message says by how much.
    #[error("{0}")]
    StorageFull(String),
    /// A requested byte range lies outside the file.
    #[error("{0}")]
    RangeNotSatisfiable(String),
    /// As many of a kind as allowed are held (live sandboxes, for the person or the whole
    /// manager); the message says which and what to end first.
    #[error("{0}")]
    TooMany(String),
    /// A store (database, cache) does not answer; retrying later may work.
    #[error("{what} is unavailable: {detail}")]
    Unavailable { what: &'static str, detail: String },
    /// Anything else a store reported.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

pub type DomainResult<T> = Result<T, DomainError>;
