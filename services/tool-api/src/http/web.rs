//! The route of page fetch; the work is done in [`crate::web`].

use axum::extract::State;
use service_kit::Json;
use tool_api_contract::web::{FetchRequest, FetchResponse};
use tool_api_contract::ErrorBody;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use crate::error::ToolResult;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(fetch))
}

/// Fetches an http(s) URL, following redirects, as readable text: HTML as markdown, plain
/// text and JSON as they are. Any upstream status (404 too) is a result with its `status`.
#[utoipa::path(post, path = "/v1/fetch", tag = "web", request_body = FetchRequest,
    responses((status = 200, body = FetchResponse),
        (status = 400, body = ErrorBody, description = "the body is not a fetch request"),
        (status = 422, body = ErrorBody, description = "not an http(s) URL, or the content is not text"),
        (status = 502, body = ErrorBody, description = "the site could not be reached"),
        (status = 504, body = ErrorBody, description = "the site did not answer in time")))]
async fn fetch(
    State(state): State<AppState>,
    Json(request): Json<FetchRequest>,
) -> ToolResult<Json<FetchResponse>> {
    Ok(Json(state.web.fetch(&request).await?))
}
