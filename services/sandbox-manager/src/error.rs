//! The manager's one error type.
//!
//! A client-facing failure carries a stable [`ErrorCode`] (which fixes the HTTP status) and
//! a message the backend or an operator can act on; anything unexpected is `Internal`,
//! logged in full by the HTTP layer and sent as a generic message.

use sandbox_manager_contract::ErrorCode;

use crate::driver::DriverError;

#[derive(Debug, thiserror::Error)]
pub enum ManagerError {
    #[error("{message}")]
    Api { code: ErrorCode, message: String },
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

pub type ManagerResult<T> = Result<T, ManagerError>;

impl ManagerError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::Api {
            code,
            message: message.into(),
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidInput, message)
    }

    pub fn not_found(id: &str) -> Self {
        Self::new(ErrorCode::NotFound, format!("no sandbox {id}"))
    }
}

impl From<DriverError> for ManagerError {
    fn from(err: DriverError) -> Self {
        let code = match &err {
            DriverError::EngineUnavailable(_) => ErrorCode::EngineUnavailable,
            DriverError::ImageMissing(_) => ErrorCode::ImageMissing,
            DriverError::StartFailed(_) => ErrorCode::StartFailed,
            DriverError::Engine(_) => return Self::Internal(anyhow::Error::new(err)),
        };
        Self::new(code, err.to_string())
    }
}
