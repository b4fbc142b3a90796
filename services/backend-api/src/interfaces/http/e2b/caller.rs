//! Who calls the E2B-compatible API: the owner of the `sandboxes` key E2B's SDKs send as
//! `X-API-Key`. A key of another scope is refused (403), a missing, wrong, revoked or
//! expired one is 401, one over its rate limit 429 — the same lookup, limit and usage
//! count as every API key. (In the `none` auth mode everyone is the local user.)

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use super::error::E2bError;
use crate::application::AppError;
use crate::domain::api_key::ApiKeyScope;
use crate::domain::user::UserId;
use crate::interfaces::http::AppState;

pub struct E2bCaller(pub UserId);

impl FromRequestParts<AppState> for E2bCaller {
    type Rejection = E2bError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let key = parts
            .headers
            .get("x-api-key")
            .and_then(|value| value.to_str().ok())
            .map(str::trim);
        let Some(key) = key else {
            return Err(AppError::Unauthorized(
                "send a `sandboxes` API key as X-API-Key (E2B_API_KEY for E2B's SDKs)".into(),
            )
            .into());
        };
        let principal = state.auth.authenticate(Some(key)).await?;
        match principal.key {
            Some(used) if used.scope != ApiKeyScope::Sandboxes => Err(AppError::Forbidden(format!(
                "this API key's scope is `{}`; the E2B-compatible API takes keys of scope `sandboxes` \
                 (make one with POST /api/v1/api-keys {{\"name\": …, \"scope\": \"sandboxes\"}})",
                used.scope.as_str()
            ))
            .into()),
            // An access token is for the app, not for this API.
            None if principal.token.is_some() => Err(AppError::Unauthorized(
                "X-API-Key takes an API key of scope `sandboxes`, not a sign-in's access token".into(),
            )
            .into()),
            _ => Ok(Self(principal.user_id)),
        }
    }
}
