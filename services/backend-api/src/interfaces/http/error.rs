//! How the API's one error type, [`AppError`], is answered: the status noted on each
//! variant and the `{"error": {"code", "message"}}` body, sent through
//! [`service_kit::ApiError`] as every service sends its errors. Internal errors are logged
//! with the request's id and never sent.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use crate::application::AppError;

// The body of every error answer, as a schema: `service_kit::ApiError` writes it.
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

impl AppError {
    /// The status it is sent with and its code in the body.
    pub(crate) fn status(&self) -> (StatusCode, &'static str) {
        match self {
            AppError::Malformed(_) => (StatusCode::BAD_REQUEST, "malformed_request"),
            AppError::Invalid(_) | AppError::InvalidField { .. } => {
                (StatusCode::UNPROCESSABLE_ENTITY, "invalid")
            }
            AppError::Unauthorized(_) => (StatusCode::UNAUTHORIZED, "unauthorized"),
            AppError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            AppError::NotFound(_) | AppError::NoRoute => (StatusCode::NOT_FOUND, "not_found"),
            AppError::MethodNotAllowed => (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed"),
            AppError::Gone(_) => (StatusCode::GONE, "gone"),
            AppError::Conflict(_) => (StatusCode::CONFLICT, "conflict"),
            AppError::TooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large"),
            AppError::StorageFull(_) => (StatusCode::INSUFFICIENT_STORAGE, "storage_full"),
            AppError::RangeNotSatisfiable(_) => (StatusCode::RANGE_NOT_SATISFIABLE, "range_not_satisfiable"),
            AppError::RateLimited { .. } => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            AppError::TooManyOpen(_) => (StatusCode::TOO_MANY_REQUESTS, "too_many_open"),
            AppError::Busy { .. } | AppError::Unavailable(_) => {
                (StatusCode::SERVICE_UNAVAILABLE, "unavailable")
            }
            AppError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }

    /// What the caller is told: an internal error is logged in full and told generically.
    pub(crate) fn public_message(&self) -> String {
        match self {
            AppError::Internal(err) => {
                tracing::error!(error = ?err, "internal error");
                "internal error; the server log has the details (search for this request's id)".to_owned()
            }
            other => other.to_string(),
        }
    }

    /// The headers the answer carries besides its body: `Retry-After` when waiting helps.
    pub(crate) fn add_headers(&self, response: &mut Response) {
        if let AppError::RateLimited { retry_after_secs, .. } | AppError::Busy { retry_after_secs, .. } = self
        {
            if let Ok(value) = HeaderValue::from_str(&retry_after_secs.to_string()) {
                response.headers_mut().insert(header::RETRY_AFTER, value);
            }
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let (status, code) = self.status();
        let message = self.public_message();
        let field = match &self {
            AppError::InvalidField { field, .. } => Some(*field),
            _ => None,
        };
        let detail = ErrorDetail { code, message, field };
        let mut response = service_kit::ApiError::new(status.as_u16(), detail).into_response();
        self.add_headers(&mut response);
        if status == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn answer(err: AppError) -> (StatusCode, axum::http::HeaderMap, serde_json::Value) {
        let response = err.into_response();
        let (parts, body) = response.into_parts();
        let bytes = axum::body::to_bytes(body, 4096).await.unwrap();
        (
            parts.status,
            parts.headers,
            serde_json::from_slice(&bytes).unwrap(),
        )
    }

    #[tokio::test]
    async fn each_answer_has_its_status_code_and_body() {
        let (status, _, body) = answer(AppError::NoRoute).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let no_route = serde_json::json!({"error": {"code": "not_found", "message": "no such route"}});
        assert_eq!(body, no_route);
        let (status, _, body) = answer(AppError::MethodNotAllowed).await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(body["error"]["code"], "method_not_allowed");
        let field = AppError::InvalidField {
            field: "name",
            message: "is empty".into(),
        };
        let (status, _, body) = answer(field).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        let invalid =
            serde_json::json!({"error": {"code": "invalid", "message": "name: is empty", "field": "name"}});
        assert_eq!(body, invalid);
    }

    #[tokio::test]
    async fn waiting_and_credentials_are_named_in_headers_and_internals_never_sent() {
        let limited = AppError::RateLimited {
            reason: "too many sign-ins".into(),
            retry_after_secs: 7,
        };
        let (status, headers, body) = answer(limited).await;
        assert_eq!(
            (status, &headers[header::RETRY_AFTER]),
            (StatusCode::TOO_MANY_REQUESTS, &HeaderValue::from_static("7"))
        );
        assert_eq!(body["error"]["message"], "too many sign-ins; retry in 7 s");
        let (_, headers, _) = answer(AppError::Unauthorized("sign in".into())).await;
        assert_eq!(headers[header::WWW_AUTHENTICATE], "Bearer");
        let (status, _, body) =
            answer(AppError::Internal(anyhow::anyhow!("the secret path /srv/keys"))).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(!body.to_string().contains("/srv/keys"), "{body}");
        assert_eq!(body["error"]["code"], "internal");
    }
}
