//! Extractors that answer axum's rejections with the kit's JSON error, so a malformed
//! request gets `400 {"error":{"code":"malformed_request",…}}` (and a body over the limit
//! `413 payload_too_large`) instead of plain text.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::api_error::{ApiError, KitCode};

/// `axum::Json` with the kit's errors; as a response, plain JSON.
#[derive(Debug, FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Json<T>(pub T);

/// `axum::extract::Query` with the kit's errors.
#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Query<T>(pub T);

impl<T: serde::Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        let code = match &rejection {
            JsonRejection::BytesRejection(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                KitCode::PayloadTooLarge
            }
            _ => KitCode::MalformedRequest,
        };
        ApiError::kit(code, rejection.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        ApiError::kit(KitCode::MalformedRequest, rejection.body_text())
    }
}
