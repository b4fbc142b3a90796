//! `/api/v1/admin/mcp/servers`: the admin's management of the MCP servers the agent gets
//! tools from — list, add, change (enable, disable, fields), delete. Header and
//! environment values are write-only: answers name the keys, never their values. What
//! each server offers right now is `GET /api/v1/mcp/servers`.

use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::extract::{CurrentUser, Json, Path};
use super::views::McpServerView;
use super::AppState;
use crate::application::AppResult;
use crate::domain::mcp_edit::McpServerInput;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, add))
        .routes(routes!(edit, remove))
}

/// Every MCP server, enabled or not, by name (admins only; no secret values).
#[utoipa::path(get, path = "/api/v1/admin/mcp/servers", tag = "mcp",
    responses((status = 200, body = Vec<McpServerView>), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody)))]
async fn list(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
) -> AppResult<axum::Json<Vec<McpServerView>>> {
    let servers = state.mcp_admin.list(&principal).await?;
    Ok(axum::Json(servers.iter().map(McpServerView::from).collect()))
}

/// Adds an MCP server (admins only): `name`, `transport` and its fields; runs get its
/// tools from their next turn when it is enabled (the default).
#[utoipa::path(post, path = "/api/v1/admin/mcp/servers", tag = "mcp", request_body = McpServerInput,
    responses((status = 201, body = McpServerView),
        (status = 400, description = "not JSON", body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 409, description = "the name is taken", body = ErrorBody),
        (status = 422, description = "a field breaks a rule; `field` names it", body = ErrorBody)))]
async fn add(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Json(input): Json<McpServerInput>,
) -> AppResult<(StatusCode, axum::Json<McpServerView>)> {
    let server = state.mcp_admin.add(&principal, input).await?;
    Ok((StatusCode::CREATED, axum::Json(McpServerView::from(&server))))
}

/// Changes the fields given (admins only): `enabled`, and the transport's fields. In
/// `headers` and `env` the keys given replace the stored set, and a key whose value is
/// `null` keeps its stored value.
#[utoipa::path(patch, path = "/api/v1/admin/mcp/servers/{name}", tag = "mcp", request_body = McpServerInput,
    responses((status = 200, body = McpServerView),
        (status = 400, description = "not JSON", body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, description = "a field breaks a rule; `field` names it", body = ErrorBody)))]
async fn edit(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(name): Path<String>,
    Json(input): Json<McpServerInput>,
) -> AppResult<axum::Json<McpServerView>> {
    let server = state.mcp_admin.edit(&principal, &name, input).await?;
    Ok(axum::Json(McpServerView::from(&server)))
}

/// Deletes an MCP server (admins only); the `MCP_CONFIG` file does not bring it back.
#[utoipa::path(delete, path = "/api/v1/admin/mcp/servers/{name}", tag = "mcp",
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn remove(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(name): Path<String>,
) -> AppResult<StatusCode> {
    state.mcp_admin.remove(&principal, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}
