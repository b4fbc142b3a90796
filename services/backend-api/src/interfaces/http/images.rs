//! Images the agent's tool events refer to — browser screenshots and code cells' charts —
//! of the owner's sessions, and of a shared session for its replay. Named by their
//! content's hash, so they never change and may be cached for good. (The path says
//! `screenshots` because stored events carry such URLs.)

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;

use super::error::ErrorBody;
use super::extract::{CurrentUser, Path};
use super::AppState;
use crate::application::AppResult;
use crate::domain::image::{ImageFormat, ImageId};
use crate::domain::session::SessionId;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(image))
        .routes(routes!(shared_image))
}

/// The URL [`image`] serves a session's image at, which the agent's tool views link to.
pub fn image_url(session: &SessionId, image: &ImageId) -> String {
    format!(
        "/api/v1/sessions/{}/screenshots/{}",
        session.as_str(),
        image.file_name()
    )
}

/// The picture as its own type; an SVG is still under the API's sandboxing policy, so
/// opened on its own no script in it runs.
fn picture((bytes, format): (Vec<u8>, ImageFormat), cache: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, format.content_type()),
            (header::CACHE_CONTROL, cache),
        ],
        bytes,
    )
}

/// An image from one of the caller's sessions (`{image}` as the tool event's view gives it:
/// `<hash>.jpg`, `.png` or `.svg`).
#[utoipa::path(get, path = "/api/v1/sessions/{id}/screenshots/{image}", tag = "sessions",
    responses((status = 200, description = "the image (JPEG, PNG or SVG)", content_type = "image/*", body = Vec<u8>),
        (status = 404, body = ErrorBody)))]
async fn image(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path((id, image)): Path<(String, String)>,
) -> AppResult<impl IntoResponse> {
    let found = state.sessions.image(&principal.user_id, &id, &image).await?;
    Ok(picture(found, "private, max-age=31536000, immutable"))
}

/// An image from a shared session (no sign-in needed).
#[utoipa::path(get, path = "/api/v1/shared/{token}/screenshots/{image}", tag = "shared", security(()),
    responses((status = 200, description = "the image (JPEG, PNG or SVG)", content_type = "image/*", body = Vec<u8>),
        (status = 404, body = ErrorBody), (status = 410, body = ErrorBody, description = "the link has expired")))]
async fn shared_image(
    State(state): State<AppState>,
    Path((token, image)): Path<(String, String)>,
) -> AppResult<impl IntoResponse> {
    let found = state.sessions.shared_image(&token, &image).await?;
    // Not for shared caches: unsharing must end access.
    Ok(picture(found, "private, max-age=300"))
}
