//! The one error body every tool-api route returns on failure.

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
    /// A sentence a person (or a model) can act on.
    pub message: String,
    /// Machine-readable extras, e.g. `{"count": 3}` for an ambiguous replace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
}

/// Stable, machine-readable error codes. The HTTP status each one travels with is part of
/// the contract and is given by [`ErrorCode::status`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// 400: the request could not be parsed (bad JSON, wrong types, bad query string).
    MalformedRequest,
    /// 401: missing or wrong bearer token.
    Unauthorized,
    /// 403: the sandbox user may not touch this path.
    PermissionDenied,
    /// 404: no such file, directory, shell session or route.
    NotFound,
    /// 405: the route exists but not with this method.
    MethodNotAllowed,
    /// 409: the target already exists (and overwriting was not asked for).
    AlreadyExists,
    /// 409: the text to replace occurs more than once; `details.count` says how often.
    AmbiguousMatch,
    /// 409: the shell session is still running a command.
    SessionBusy,
    /// 409: another writer holds the file.
    FileBusy,
    /// 409: the element index is from before the page changed; view the page again.
    StaleElement,
    /// 409: the shell session has no running command to wait for or feed input to.
    NotRunning,
    /// 413: the body or the result is larger than the configured limit.
    PayloadTooLarge,
    /// 416: the requested byte range lies outside the file.
    RangeNotSatisfiable,
    /// 429: a limit on live resources (e.g. shell sessions) is reached.
    LimitReached,
    /// 422: the request parsed but a value is invalid (path, regex, glob, line range…).
    InvalidInput,
    /// 422: the text to replace does not occur in the file.
    NoMatch,
    /// 422: the path is a directory where a file was expected, or the reverse.
    WrongKind,
    /// 422: a non-recursive delete of a directory that is not empty.
    DirectoryNotEmpty,
    /// 507: the workspace is over its storage quota; files must be deleted before more
    /// can be written.
    StorageFull,
    /// 502: the search provider or fetched site answered with an error or an unusable body.
    UpstreamError,
    /// 503: the browser is not answering (starting, or restarting after a crash).
    BrowserUnavailable,
    /// 503: the desktop's VNC server is not answering (starting, or restarting after a
    /// crash).
    DesktopUnavailable,
    /// 503: the feature is not configured in this sandbox (e.g. no search provider).
    NotConfigured,
    /// 503: the code interpreter's kernel could not be started; the message says why.
    KernelUnavailable,
    /// 503: the sandbox is starting and its network rules are not in place yet; nothing
    /// in it runs until they are. Retry in a moment.
    NetworkPending,
    /// 504: the search provider or fetched site did not answer in time.
    UpstreamTimeout,
    /// 500: a bug or an unexpected system failure; details are in the server log only.
    Internal,
}

impl ErrorCode {
    /// The HTTP status code this error is sent with.
    pub fn status(self) -> u16 {
        match self {
            Self::MalformedRequest => 400,
            Self::Unauthorized => 401,
            Self::PermissionDenied => 403,
            Self::NotFound => 404,
            Self::MethodNotAllowed => 405,
            Self::AlreadyExists
            | Self::AmbiguousMatch
            | Self::SessionBusy
            | Self::FileBusy
            | Self::NotRunning
            | Self::StaleElement => 409,
            Self::PayloadTooLarge => 413,
            Self::RangeNotSatisfiable => 416,
            Self::InvalidInput | Self::NoMatch | Self::WrongKind | Self::DirectoryNotEmpty => 422,
            Self::LimitReached => 429,
            Self::Internal => 500,
            Self::UpstreamError => 502,
            Self::NotConfigured
            | Self::BrowserUnavailable
            | Self::DesktopUnavailable
            | Self::KernelUnavailable
            | Self::NetworkPending => 503,
            Self::UpstreamTimeout => 504,
            Self::StorageFull => 507,
        }
    }
}
