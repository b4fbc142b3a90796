//! Extractors that turn axum's rejections into the contract's error body, so a malformed
//! request gets `400 {"error":{"code":"malformed_request",…}}` instead of plain text.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::FromRequest;
use axum::extract::FromRequestParts;
use tool_api_contract::ErrorCode;

use crate::error::ToolError;

/// `axum::Json` with contract errors.
#[derive(Debug, FromRequest)]
#[from_request(via(axum::Json), rejection(ToolError))]
pub struct Json<T>(pub T);

/// `axum::extract::Query` with contract errors.
#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ToolError))]
pub struct Query<T>(pub T);

impl<T: serde::Serialize> axum::response::IntoResponse for Json<T> {
    fn into_response(self) -> axum::response::Response {
        axum::Json(self.0).into_response()
    }
}

impl From<JsonRejection> for ToolError {
    fn from(rejection: JsonRejection) -> Self {
        let code = match rejection {
            JsonRejection::BytesRejection(ref r)
                if r.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE =>
            {
                ErrorCode::PayloadTooLarge
            }
            _ => ErrorCode::MalformedRequest,
        };
        ToolError::new(code, rejection.body_text())
    }
}

impl From<QueryRejection> for ToolError {
    fn from(rejection: QueryRejection) -> Self {
        ToolError::new(ErrorCode::MalformedRequest, rejection.body_text())
    }
}
