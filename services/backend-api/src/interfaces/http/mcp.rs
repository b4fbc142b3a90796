//! The MCP servers the agent gets tools from, as a signed-in person may see them: names,
//! addresses without secrets, tools, and why a server offers none.

use axum::extract::State;
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::extract::CurrentUser;
use super::AppState;
use crate::domain::mcp::McpServerStatus;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(servers))
}

/// The deployment's MCP servers and their tools (headers and environments are never shown).
#[utoipa::path(get, path = "/api/v1/mcp/servers", tag = "mcp",
    responses((status = 200, body = Vec<McpServerStatus>), (status = 401, body = ErrorBody)))]
async fn servers(
    State(state): State<AppState>,
    CurrentUser(_principal): CurrentUser,
) -> Json<Vec<McpServerStatus>> {
    Json(state.mcp.status(None).await)
}
