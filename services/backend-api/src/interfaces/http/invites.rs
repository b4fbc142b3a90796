//! `/api/v1/admin/invites`: an admin invites someone to a deployment whose registration
//! is `invite` (the code is shown once, in the answer), or revokes an unused invite.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::extract::{CurrentUser, Json, Path};
use super::AppState;
use crate::application::invites::NewInvite;
use crate::application::AppResult;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create))
        .routes(routes!(revoke))
}

#[derive(Deserialize, ToSchema, Default)]
pub struct InviteRequest {
    /// Only this address may use the invite.
    #[serde(default)]
    pub email: Option<String>,
    /// 1 to 720; default 168 (a week).
    #[serde(default)]
    pub expires_in_hours: Option<u64>,
}

/// Makes an invite; its code is in this answer only (the sign-in page takes it as
/// `?invite=<code>`).
#[utoipa::path(post, path = "/api/v1/admin/invites", tag = "users", request_body = InviteRequest,
    responses((status = 201, body = NewInvite), (status = 403, body = ErrorBody, description = "not an admin"),
        (status = 422, body = ErrorBody)))]
async fn create(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Json(body): Json<InviteRequest>,
) -> AppResult<(StatusCode, axum::Json<NewInvite>)> {
    let invite = state
        .invites
        .create(&principal, body.email.as_deref(), body.expires_in_hours)
        .await?;
    Ok((StatusCode::CREATED, axum::Json(invite)))
}

/// Ends an unused invite.
#[utoipa::path(delete, path = "/api/v1/admin/invites/{code}", tag = "users",
    responses((status = 204), (status = 403, body = ErrorBody, description = "not an admin"),
        (status = 404, body = ErrorBody, description = "no such unused invite")))]
async fn revoke(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(code): Path<String>,
) -> AppResult<StatusCode> {
    state.invites.revoke(&principal, &code).await?;
    Ok(StatusCode::NO_CONTENT)
}
