//! The service-token check in front of every route but `/health`.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::Response;
use sandbox_manager_contract::ErrorCode;

use crate::error::ManagerError;

/// The expected token; `None` only in the explicit insecure development mode.
#[derive(Clone)]
pub struct ExpectedToken(pub Option<Arc<str>>);

pub async fn require_token(
    State(expected): State<ExpectedToken>,
    request: Request,
    next: Next,
) -> Result<Response, ManagerError> {
    if let Some(expected) = &expected.0 {
        let header = request.headers().get(AUTHORIZATION).and_then(|v| v.to_str().ok());
        if !service_kit::bearer_matches(header, expected) {
            return Err(ManagerError::new(
                ErrorCode::Unauthorized,
                "missing or wrong service token (Authorization: Bearer <SANDBOX_MANAGER_TOKEN>)",
            ));
        }
    }
    Ok(next.run(request).await)
}
