//! Extractors that turn axum's rejections into the contract's error body, so a malformed
//! request gets `400 {"error":{"code":"malformed_request",…}}` instead of plain text.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts};
use sandbox_manager_contract::ErrorCode;

use crate::error::ManagerError;

#[derive(Debug, FromRequest)]
#[from_request(via(axum::Json), rejection(ManagerError))]
pub struct Json<T>(pub T);

#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ManagerError))]
pub struct Query<T>(pub T);

impl From<JsonRejection> for ManagerError {
    fn from(rejection: JsonRejection) -> Self {
        let code = match &rejection {
            JsonRejection::BytesRejection(r) if r.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE => {
                ErrorCode::PayloadTooLarge
            }
            _ => ErrorCode::MalformedRequest,
        };
        ManagerError::new(code, rejection.body_text())
    }
}

impl From<QueryRejection> for ManagerError {
    fn from(rejection: QueryRejection) -> Self {
        ManagerError::new(ErrorCode::MalformedRequest, rejection.body_text())
    }
}
