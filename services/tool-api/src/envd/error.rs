//! The one error type of the E2B envd surface. Each variant is a Connect error code; the
//! HTTP layer turns it into Connect's error JSON (with the code's HTTP status) on the RPC
//! routes, and into envd's `{code, message}` body on the REST routes.

use tool_api_contract::ErrorCode;

use crate::error::ToolError;

#[derive(Debug, thiserror::Error)]
pub enum EnvdError {
    /// `invalid_argument`, HTTP 400: the request names something malformed or impossible.
    #[error("{0}")]
    InvalidArgument(String),
    /// `not_found`, HTTP 404: no such file, process or watcher.
    #[error("{0}")]
    NotFound(String),
    /// `already_exists`, HTTP 409.
    #[error("{0}")]
    AlreadyExists(String),
    /// `permission_denied`, HTTP 403: e.g. the `root` user, which the sandbox has not.
    #[error("{0}")]
    PermissionDenied(String),
    /// `failed_precondition`, HTTP 400: the target is not in a state for this call (stdin
    /// closed, not a PTY).
    #[error("{0}")]
    FailedPrecondition(String),
    /// `resource_exhausted`, HTTP 429 on RPC routes and 507 on the REST upload: the
    /// storage quota or a system limit is reached.
    #[error("{0}")]
    ResourceExhausted(String),
    /// `resource_exhausted`, HTTP 429 on RPC routes and 413 on the REST upload: larger
    /// than the upload limit.
    #[error("{0}")]
    TooLarge(String),
    /// `deadline_exceeded`, HTTP 504: the request's `Connect-Timeout-Ms` passed.
    #[error("{0}")]
    DeadlineExceeded(String),
    /// `internal`, HTTP 500: logged, and answered with a generic message.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

pub type EnvdResult<T> = Result<T, EnvdError>;

impl EnvdError {
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::InvalidArgument(message.into())
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::NotFound(message.into())
    }

    /// The Connect code's name, as it appears in error JSON.
    pub fn code(&self) -> &'static str {
        match self {
            Self::InvalidArgument(_) => "invalid_argument",
            Self::NotFound(_) => "not_found",
            Self::AlreadyExists(_) => "already_exists",
            Self::PermissionDenied(_) => "permission_denied",
            Self::FailedPrecondition(_) => "failed_precondition",
            Self::ResourceExhausted(_) | Self::TooLarge(_) => "resource_exhausted",
            Self::DeadlineExceeded(_) => "deadline_exceeded",
            Self::Internal(_) => "internal",
        }
    }

    /// The HTTP status Connect gives the code.
    pub fn status(&self) -> u16 {
        match self {
            Self::InvalidArgument(_) | Self::FailedPrecondition(_) => 400,
            Self::NotFound(_) => 404,
            Self::AlreadyExists(_) => 409,
            Self::PermissionDenied(_) => 403,
            Self::ResourceExhausted(_) | Self::TooLarge(_) => 429,
            Self::DeadlineExceeded(_) => 504,
            Self::Internal(_) => 500,
        }
    }

    /// The HTTP status of the REST routes (envd's own), where a full disk is 507.
    pub fn rest_status(&self) -> u16 {
        match self {
            Self::ResourceExhausted(_) => 507,
            Self::TooLarge(_) => 413,
            other => other.status(),
        }
    }

    /// The message a client may see; internal errors are logged here instead.
    pub fn public_message(&self) -> String {
        match self {
            Self::Internal(err) => {
                tracing::error!(error = ?err, "internal error on the envd surface");
                "internal error; see the tool-api log".to_owned()
            }
            other => other.to_string(),
        }
    }
}

/// The file operations shared with the rest of the tool-api report [`ToolError`]s.
impl From<ToolError> for EnvdError {
    fn from(err: ToolError) -> Self {
        match err {
            ToolError::Internal(err) => Self::Internal(err),
            ToolError::Api { code, message, .. } => match code {
                ErrorCode::NotFound => Self::NotFound(message),
                ErrorCode::AlreadyExists => Self::AlreadyExists(message),
                ErrorCode::PermissionDenied => Self::PermissionDenied(message),
                ErrorCode::StorageFull | ErrorCode::LimitReached => Self::ResourceExhausted(message),
                ErrorCode::PayloadTooLarge => Self::TooLarge(message),
                ErrorCode::DirectoryNotEmpty | ErrorCode::FileBusy | ErrorCode::NotRunning => {
                    Self::FailedPrecondition(message)
                }
                _ => Self::InvalidArgument(message),
            },
        }
    }
}

impl EnvdError {
    /// A filesystem error on `path`, classified as [`ToolError::io`] does.
    pub fn io(err: std::io::Error, path: &std::path::Path) -> Self {
        ToolError::io(err, path).into()
    }
}
