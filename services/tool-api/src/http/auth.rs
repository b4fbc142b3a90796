//! Bearer-token check for every route but `/health` (compared in constant time by
//! `service_kit::bearer_matches`).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::Response;
use tool_api_contract::ErrorCode;

use crate::error::ToolError;

/// The expected token; `None` only in the explicit insecure development mode.
#[derive(Clone)]
pub struct ExpectedToken(pub Option<Arc<str>>);

pub async fn require_token(
    State(expected): State<ExpectedToken>,
    request: Request,
    next: Next,
) -> Result<Response, ToolError> {
    if let Some(expected) = &expected.0 {
        let header = request.headers().get(AUTHORIZATION).and_then(|v| v.to_str().ok());
        if !service_kit::bearer_matches(header, expected) {
            return Err(ToolError::new(
                ErrorCode::Unauthorized,
                "missing or wrong bearer token (Authorization: Bearer <SANDBOX_TOKEN>)",
            ));
        }
    }
    Ok(next.run(request).await)
}
