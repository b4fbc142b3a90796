//! The error answer every Sandpiper service sends: a status and the JSON body
//! `{"error": {"code": …, "message": …}}` its contract describes. Failures the kit finds
//! itself (a body that does not parse, a wrong token, no such route) carry a [`KitCode`],
//! so every service answers them alike; an internal error is logged here and answered
//! without a word of it.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The codes the kit answers with itself. Each service's contract has every one of them,
/// under the same wire name and with the same status ([`contract_has_kit_codes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KitCode {
    /// 400: the request could not be parsed (bad JSON, wrong types, bad query string).
    MalformedRequest,
    /// 401: missing or wrong bearer token.
    Unauthorized,
    /// 404: no such route.
    NotFound,
    /// 405: the route exists but not with this method.
    MethodNotAllowed,
    /// 413: the body is larger than the service accepts.
    PayloadTooLarge,
    /// 500: a bug or an unexpected failure; the detail is in the service's log only.
    Internal,
}

impl KitCode {
    pub const ALL: [KitCode; 6] = [
        Self::MalformedRequest,
        Self::Unauthorized,
        Self::NotFound,
        Self::MethodNotAllowed,
        Self::PayloadTooLarge,
        Self::Internal,
    ];

    /// The HTTP status this code is sent with.
    pub fn status(self) -> StatusCode {
        match self {
            Self::MalformedRequest => StatusCode::BAD_REQUEST,
            Self::Unauthorized => StatusCode::UNAUTHORIZED,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// The detail of an answer the kit makes itself.
#[derive(Debug, Serialize)]
pub struct KitDetail {
    pub code: KitCode,
    pub message: String,
}

/// A failed request's answer: `detail` (a contract's `ErrorDetail`, or the kit's own)
/// sent as `{"error": detail}` with `status`.
#[derive(Debug)]
pub struct ApiError<D = KitDetail> {
    status: StatusCode,
    detail: D,
}

impl<D> ApiError<D> {
    /// `detail` with `status`, the number its contract gives the code (500 if it is none).
    pub fn new(status: u16, detail: D) -> Self {
        let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        Self { status, detail }
    }
}

impl ApiError {
    /// One of the kit's own answers.
    pub fn kit(code: KitCode, message: impl Into<String>) -> Self {
        let message = message.into();
        Self {
            status: code.status(),
            detail: KitDetail { code, message },
        }
    }

    /// An unexpected failure: logged in full here, answered `500 internal` with a pointer
    /// to `service`'s log and nothing of the error itself.
    pub fn internal(err: &anyhow::Error, service: &str) -> Self {
        tracing::error!(error = ?err, "internal error");
        Self::kit(
            KitCode::Internal,
            format!("internal error; see the {service} log"),
        )
    }
}

#[derive(Serialize)]
struct Body<'a, D> {
    error: &'a D,
}

impl<D: Serialize> IntoResponse for ApiError<D> {
    fn into_response(self) -> Response {
        (self.status, axum::Json(Body { error: &self.detail })).into_response()
    }
}

/// Whether a contract's error codes `C` have every [`KitCode`] under its wire name and
/// with its status (`status` is the contract's own mapping); the first missing one if not.
pub fn contract_has_kit_codes<C: DeserializeOwned>(status: impl Fn(C) -> u16) -> Result<(), KitCode> {
    for code in KitCode::ALL {
        let name = serde_json::to_value(code).map_err(|_| code)?;
        let theirs: C = serde_json::from_value(name).map_err(|_| code)?;
        if status(theirs) != code.status().as_u16() {
            return Err(code);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kit_codes_travel_by_their_snake_case_names() {
        let names: Vec<String> = KitCode::ALL
            .iter()
            .map(|code| serde_json::to_value(code).unwrap().as_str().unwrap().to_owned())
            .collect();
        let expected = [
            "malformed_request",
            "unauthorized",
            "not_found",
            "method_not_allowed",
            "payload_too_large",
            "internal",
        ];
        assert_eq!(names, expected);
    }

    #[derive(serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Partial {
        MalformedRequest,
        Unauthorized,
    }

    #[test]
    fn a_contract_without_a_kit_code_is_caught() {
        let missing = contract_has_kit_codes(|code: Partial| match code {
            Partial::MalformedRequest => 400,
            Partial::Unauthorized => 401,
        });
        assert_eq!(missing, Err(KitCode::NotFound));
    }

    #[tokio::test]
    async fn an_internal_error_is_answered_without_its_detail() {
        let err = anyhow::anyhow!("the secret path /srv/keys");
        let response = ApiError::internal(&err, "test-service").into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let bytes = axum::body::to_bytes(response.into_body(), 4096).await.unwrap();
        let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            body,
            serde_json::json!({"error": {
                "code": "internal",
                "message": "internal error; see the test-service log",
            }})
        );
    }
}
