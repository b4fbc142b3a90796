//! Routes of web search and page fetch; the work is done in [`crate::web`].

use axum::extract::State;
use tool_api_contract::search::{FetchRequest, FetchResponse, WebSearchRequest, WebSearchResponse};
use tool_api_contract::ErrorBody;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::Json;
use super::AppState;
use crate::error::ToolResult;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(search))
        .routes(routes!(fetch))
}

/// Searches the web through the sandbox's configured provider (SEARCH_PROVIDER). A provider
/// failure is an error, never an empty result list.
#[utoipa::path(post, path = "/v1/search", tag = "web", request_body = WebSearchRequest,
    responses((status = 200, body = WebSearchResponse),
        (status = 400, body = ErrorBody, description = "the body is not a search request"),
        (status = 422, body = ErrorBody, description = "blank query or max_results of 0"),
        (status = 502, body = ErrorBody, description = "the provider refused, failed or answered with an unusable body"),
        (status = 503, body = ErrorBody, description = "no search provider is configured"),
        (status = 504, body = ErrorBody, description = "the provider did not answer in time")))]
async fn search(
    State(state): State<AppState>,
    Json(request): Json<WebSearchRequest>,
) -> ToolResult<Json<WebSearchResponse>> {
    Ok(Json(state.web.search(&request).await?))
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
