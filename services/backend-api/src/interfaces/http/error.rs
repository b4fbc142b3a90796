//! The HTTP surface's one error type: every failure a client can see, each with its
//! status and `{"error": {"code", "message"}}` body. Internal errors are logged with the
//! request's id and never sent.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use crate::application::AppError;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The application's errors, with the statuses noted on [`AppError`].
    #[error(transparent)]
    App(#[from] AppError),
    /// 404: no route matches.
    #[error("no such route")]
    NoRoute,
    /// 405: the route exists but not for this method.
    #[error("this route does not take that method")]
    MethodNotAllowed,
}

#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable, machine-readable: `malformed_request`, `invalid`, `unauthorized`,
    /// `forbidden`, `not_found`, `gone`, `method_not_allowed`, `conflict`, `payload_too_large`,
    /// `range_not_satisfiable`,
    /// `rate_limited`, `too_many_open`, `unavailable`, `internal`.
    pub code: &'static str,
    /// For people: what went wrong and what to do.
    pub message: String,
    /// The request field to fix, when one is to blame (`invalid` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<&'static str>,
}

impl From<crate::domain::DomainError> for ApiError {
    fn from(err: crate::domain::DomainError) -> Self {
        Self::App(err.into())
    }
}

impl ApiError {
    /// The status it is sent with and its code in the body.
    pub(crate) fn status(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::NoRoute => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::MethodNotAllowed => (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed"),
            ApiError::App(err) => match err {
                AppError::Malformed(_) => (StatusCode::BAD_REQUEST, "malformed_request"),
                AppError::Invalid(_) | AppError::InvalidField { .. } => {
                    (StatusCode::UNPROCESSABLE_ENTITY, "invalid")
                }
                AppError::Unauthorized(_) => (StatusCode::UNAUTHORIZED, "unauthorized"),
                AppError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
                AppError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
                AppError::Gone(_) => (StatusCode::GONE, "gone"),
                AppError::Conflict(_) => (StatusCode::CONFLICT, "conflict"),
                AppError::TooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large"),
                AppError::StorageFull(_) => (StatusCode::INSUFFICIENT_STORAGE, "storage_full"),
                AppError::RangeNotSatisfiable(_) => {
                    (StatusCode::RANGE_NOT_SATISFIABLE, "range_not_satisfiable")
                }
                AppError::RateLimited { .. } => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
                AppError::TooManyOpen(_) => (StatusCode::TOO_MANY_REQUESTS, "too_many_open"),
                AppError::Busy { .. } | AppError::Unavailable(_) => {
                    (StatusCode::SERVICE_UNAVAILABLE, "unavailable")
                }
                AppError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
            },
        }
    }

    /// What the caller is told: an internal error is logged in full and told generically.
    pub(crate) fn public_message(&self) -> String {
        match self {
            ApiError::App(AppError::Internal(err)) => {
                tracing::error!(error = ?err, "internal error");
                "internal error; the server log has the details (search for this request's id)".to_owned()
            }
            other => other.to_string(),
        }
    }

    /// The headers the answer carries besides its body: `Retry-After` when waiting helps.
    pub(crate) fn add_headers(&self, response: &mut Response) {
        if let ApiError::App(
            AppError::RateLimited { retry_after_secs, .. } | AppError::Busy { retry_after_secs, .. },
        ) = self
        {
            if let Ok(value) = HeaderValue::from_str(&retry_after_secs.to_string()) {
                response.headers_mut().insert(header::RETRY_AFTER, value);
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status();
        let message = self.public_message();
        let field = match &self {
            ApiError::App(AppError::InvalidField { field, .. }) => Some(*field),
            _ => None,
        };
        let mut response = (
            status,
            axum::Json(ErrorBody {
                error: ErrorDetail { code, message, field },
            }),
        )
            .into_response();
        self.add_headers(&mut response);
        if status == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
