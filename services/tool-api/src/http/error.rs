//! How a [`ToolError`] becomes an HTTP response: the contract's status and JSON body.
//! Internal errors are logged here and never shown to the client.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use tool_api_contract::{ErrorBody, ErrorCode, ErrorDetail};

use crate::error::ToolError;

impl IntoResponse for ToolError {
    fn into_response(self) -> Response {
        let detail = match self {
            ToolError::Api {
                code,
                message,
                details,
            } => ErrorDetail {
                code,
                message,
                details,
            },
            ToolError::Internal(err) => {
                tracing::error!(error = ?err, "internal error");
                ErrorDetail {
                    code: ErrorCode::Internal,
                    message: "internal error; see the tool-api log".into(),
                    details: None,
                }
            }
        };
        let status = StatusCode::from_u16(detail.code.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, Json(ErrorBody { error: detail })).into_response()
    }
}
