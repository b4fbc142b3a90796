//! How a [`ManagerError`] becomes a response: the contract's status and JSON body.
//! Internal errors are logged here and never shown to the client.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use sandbox_manager_contract::{ErrorBody, ErrorCode, ErrorDetail};

use crate::error::ManagerError;

impl IntoResponse for ManagerError {
    fn into_response(self) -> Response {
        let detail = match self {
            ManagerError::Api { code, message } => ErrorDetail { code, message },
            ManagerError::Internal(err) => {
                tracing::error!(error = ?err, "internal error");
                ErrorDetail {
                    code: ErrorCode::Internal,
                    message: "internal error; see the sandbox-manager log".into(),
                }
            }
        };
        let status = StatusCode::from_u16(detail.code.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, Json(ErrorBody { error: detail })).into_response()
    }
}
