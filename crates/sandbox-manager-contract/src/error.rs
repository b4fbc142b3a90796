//! The one error body every sandbox-manager route returns on failure.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `{"error": {"code": …, "message": …}}`: the JSON body of every non-2xx response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ErrorDetail {
    pub code: ErrorCode,
    /// A sentence an operator or the backend can act on.
    pub message: String,
}

/// Stable, machine-readable error codes; [`ErrorCode::status`] fixes the HTTP status of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// 400: the request could not be parsed (bad JSON, wrong types, bad query string).
    MalformedRequest,
    /// 401: missing or wrong service token.
    Unauthorized,
    /// 404: no such sandbox or route.
    NotFound,
    /// 405: the route exists but not with this method.
    MethodNotAllowed,
    /// 409: the session's sandbox belongs to another owner, or is being removed.
    Conflict,
    /// 413: the request body is larger than the manager accepts (64 KiB).
    PayloadTooLarge,
    /// 422: the request parsed but a value is invalid (empty id, absurd limits…).
    InvalidInput,
    /// 429: the owner already has as many live sandboxes as the quota allows.
    OwnerQuotaExceeded,
    /// 429: the manager runs as many sandboxes as its global cap allows.
    CapacityReached,
    /// 503: the container engine is not answering; retry later.
    EngineUnavailable,
    /// 503: the sandbox image is not on the engine (build it with `./build.sh`) or, on
    /// Kubernetes, cannot be pulled.
    ImageMissing,
    /// 503: the engine could not start the sandbox (out of memory, bad configuration…).
    StartFailed,
    /// 504: the sandbox did not become ready in time; it has been removed.
    ReadyTimeout,
    /// 500: a bug or an unexpected failure; details are in the manager's log only.
    Internal,
}

impl ErrorCode {
    /// The HTTP status code this error is sent with.
    pub fn status(self) -> u16 {
        match self {
            Self::MalformedRequest => 400,
            Self::Unauthorized => 401,
            Self::NotFound => 404,
            Self::MethodNotAllowed => 405,
            Self::Conflict => 409,
            Self::PayloadTooLarge => 413,
            Self::InvalidInput => 422,
            Self::OwnerQuotaExceeded | Self::CapacityReached => 429,
            Self::Internal => 500,
            Self::EngineUnavailable | Self::ImageMissing | Self::StartFailed => 503,
            Self::ReadyTimeout => 504,
        }
    }
}
