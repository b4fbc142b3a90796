//! How a request to the outside web failed, in terms the caller maps onto its own API
//! (tool-api's error codes, the agent's tool result).

/// What went wrong with one search or fetch. Every message is meant for a person or a
/// model to act on, and never quotes a secret (a key, a URL that may carry one).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebError {
    /// The request itself cannot be sent (a blank query, no results asked for).
    #[error("{0}")]
    Invalid(String),
    /// The other side could not be reached, refused, failed, or answered with something
    /// unusable.
    #[error("{0}")]
    Upstream(String),
    /// The other side did not answer within the deadline.
    #[error("{0}")]
    Timeout(String),
}

pub type WebResult<T> = Result<T, WebError>;
