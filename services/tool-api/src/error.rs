//! The tool-api's one error type.
//!
//! Every operation returns [`ToolError`]. A client-facing failure carries a stable
//! [`ErrorCode`] (which fixes the HTTP status) and a message a person or a model can act
//! on; anything unexpected is `Internal`, logged in full and sent as a generic message.

use std::io;

use tool_api_contract::ErrorCode;

#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("{message}")]
    Api {
        code: ErrorCode,
        message: String,
        details: Option<serde_json::Value>,
    },
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

pub type ToolResult<T> = Result<T, ToolError>;

impl ToolError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::Api {
            code,
            message: message.into(),
            details: None,
        }
    }

    pub fn with_details(code: ErrorCode, message: impl Into<String>, details: serde_json::Value) -> Self {
        Self::Api {
            code,
            message: message.into(),
            details: Some(details),
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidInput, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::NotFound, message)
    }

    /// Maps a filesystem error on `path` to the error a client can act on. Kinds that say
    /// something about the request (missing, exists, wrong kind…) are client errors; the
    /// rest are internal.
    pub fn io(err: io::Error, path: &std::path::Path) -> Self {
        let p = path.display();
        let (code, message) = match err.kind() {
            io::ErrorKind::NotFound => (ErrorCode::NotFound, format!("{p}: no such file or directory")),
            io::ErrorKind::AlreadyExists => (ErrorCode::AlreadyExists, format!("{p}: already exists")),
            io::ErrorKind::PermissionDenied => {
                (ErrorCode::PermissionDenied, format!("{p}: permission denied"))
            }
            io::ErrorKind::IsADirectory => (ErrorCode::WrongKind, format!("{p}: is a directory")),
            io::ErrorKind::NotADirectory => (
                ErrorCode::WrongKind,
                format!("{p}: a component is not a directory"),
            ),
            io::ErrorKind::DirectoryNotEmpty => (
                ErrorCode::DirectoryNotEmpty,
                format!("{p}: directory is not empty (set recursive to delete it with its contents)"),
            ),
            io::ErrorKind::InvalidFilename | io::ErrorKind::InvalidInput => {
                (ErrorCode::InvalidInput, format!("{p}: invalid path ({err})"))
            }
            io::ErrorKind::ReadOnlyFilesystem => {
                (ErrorCode::PermissionDenied, format!("{p}: read-only filesystem"))
            }
            io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => (
                ErrorCode::PayloadTooLarge,
                format!("{p}: no space left on the sandbox disk"),
            ),
            io::ErrorKind::CrossesDevices => (
                ErrorCode::InvalidInput,
                format!("{p}: cannot move across filesystems"),
            ),
            _ => return Self::Internal(anyhow::Error::new(err).context(format!("I/O on {p}"))),
        };
        Self::new(code, message)
    }
}

/// A fetch's failure on its way out (`web_kit`): a bad request is the caller's to fix, an
/// upstream that failed is 502, one that did not answer in time 504.
impl From<web_kit::WebError> for ToolError {
    fn from(err: web_kit::WebError) -> Self {
        use web_kit::WebError;
        let code = match &err {
            WebError::Invalid(_) => ErrorCode::InvalidInput,
            WebError::Upstream(_) => ErrorCode::UpstreamError,
            WebError::Timeout(_) => ErrorCode::UpstreamTimeout,
        };
        Self::new(code, err.to_string())
    }
}
