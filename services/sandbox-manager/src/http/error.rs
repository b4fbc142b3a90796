//! How a [`ManagerError`] becomes a response: the contract's status and JSON body, through
//! the kit's [`ApiError`] (which logs an internal error and sends none of it).

use axum::response::{IntoResponse, Response};
use sandbox_manager_contract::ErrorDetail;
use service_kit::ApiError;

use crate::error::ManagerError;

impl IntoResponse for ManagerError {
    fn into_response(self) -> Response {
        match self {
            ManagerError::Api { code, message } => {
                ApiError::new(code.status(), ErrorDetail { code, message }).into_response()
            }
            ManagerError::Internal(err) => ApiError::internal(&err, "sandbox-manager").into_response(),
        }
    }
}

#[cfg(test)]
mod tests {
    use sandbox_manager_contract::ErrorCode;

    #[test]
    fn the_contract_has_the_codes_the_kit_answers_with() {
        assert_eq!(service_kit::contract_has_kit_codes(ErrorCode::status), Ok(()));
    }
}
