//! Browser screenshots the agent's tool events refer to: the owner's, and a shared
//! session's for its replay. Named by their content's hash, so they never change and
//! may be cached for good.

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;

use super::error::{ApiResult, ErrorBody};
use super::extract::{CurrentUser, Path};
use super::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(screenshot))
        .routes(routes!(shared_screenshot))
}

fn jpeg(image: Vec<u8>, cache: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "image/jpeg"),
            (header::CACHE_CONTROL, cache),
        ],
        image,
    )
}

/// A screenshot from one of the caller's sessions (`{shot}` as the tool event's view gives it).
#[utoipa::path(get, path = "/api/v1/sessions/{id}/screenshots/{shot}", tag = "sessions",
    responses((status = 200, description = "the image", content_type = "image/jpeg", body = Vec<u8>),
        (status = 404, body = ErrorBody)))]
async fn screenshot(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path((id, shot)): Path<(String, String)>,
) -> ApiResult<impl IntoResponse> {
    let image = state.sessions.screenshot(&principal.user_id, &id, &shot).await?;
    Ok(jpeg(image, "private, max-age=31536000, immutable"))
}

/// A screenshot from a shared session (no sign-in needed).
#[utoipa::path(get, path = "/api/v1/shared/{token}/screenshots/{shot}", tag = "shared", security(()),
    responses((status = 200, description = "the image", content_type = "image/jpeg", body = Vec<u8>),
        (status = 404, body = ErrorBody)))]
async fn shared_screenshot(
    State(state): State<AppState>,
    Path((token, shot)): Path<(String, String)>,
) -> ApiResult<impl IntoResponse> {
    let image = state.sessions.shared_screenshot(&token, &shot).await?;
    // Not for shared caches: unsharing must end access.
    Ok(jpeg(image, "private, max-age=300"))
}
