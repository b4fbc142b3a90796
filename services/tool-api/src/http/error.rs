//! How a [`ToolError`] becomes an HTTP response: the contract's status and JSON body,
//! through the kit's [`ApiError`] (which logs an internal error and sends none of it).

use axum::response::{IntoResponse, Response};
use service_kit::ApiError;
use tool_api_contract::ErrorDetail;

use crate::error::ToolError;

impl IntoResponse for ToolError {
    fn into_response(self) -> Response {
        let (code, message, details) = match self {
            ToolError::Api {
                code,
                message,
                details,
            } => (code, message, details),
            ToolError::Internal(err) => return ApiError::internal(&err, "tool-api").into_response(),
        };
        ApiError::new(
            code.status(),
            ErrorDetail {
                code,
                message,
                details,
            },
        )
        .into_response()
    }
}

#[cfg(test)]
mod tests {
    use tool_api_contract::ErrorCode;

    #[test]
    fn the_contract_has_the_codes_the_kit_answers_with() {
        assert_eq!(service_kit::contract_has_kit_codes(ErrorCode::status), Ok(()));
    }
}
