//! `/api/v1/toolbox`: a person's tool box, for its Settings page — keep a tool the agent
//! registered in one of your chats (its files copied from that chat's sandbox), list,
//! read (with the code), enable or disable, delete — and publishing one for everyone's
//! chats (admins only, having read its code) — and the servers registered in one of
//! your chats, for its Tools tab. Another person's id is not found (404) on every
//! route, but for an admin reading or publishing it.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::extract::{CurrentUser, Json, Path, Query};
use super::AppState;
use crate::application::AppResult;
use crate::domain::agent_server::AgentTool;
use crate::domain::mcp::{qualified_name, McpServerName};
use crate::domain::toolbox::{script_candidates, KeptTool};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, keep))
        .routes(routes!(get_one, set_enabled, delete_one))
        .routes(routes!(publish, unpublish))
        .routes(routes!(registered))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct KeepTool {
    /// The chat the agent registered the tool in.
    pub session_id: String,
    /// The name it was registered under (`tool_register`'s `name`).
    pub name: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct KeptToolSettings {
    /// Whether your later chats get it.
    pub enabled: bool,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PublishTool {
    /// The `kept_at` of the kept tool whose code you read (from `GET
    /// /api/v1/toolbox/{id}`): publishing is refused (409) when its owner kept it anew
    /// since, so what is published is what you read.
    pub kept_at: DateTime<Utc>,
}

#[derive(Deserialize, IntoParams)]
pub struct ToolboxQuery {
    /// Every person's kept tools (admins only), to read and publish.
    #[serde(default)]
    pub everyone: bool,
}

/// A kept tool: what starts it, the tools it offers, its files.
#[derive(Serialize, ToSchema)]
pub struct KeptToolView {
    pub id: String,
    /// The user who kept it.
    pub owner: String,
    /// The server's name: its tools are `mcp__<name>__<tool>`.
    pub name: String,
    pub command: String,
    pub args: Vec<String>,
    pub tools: Vec<KeptToolToolView>,
    /// Its files, where they were in the sandbox (and are written again in each chat
    /// that gets it); with their text when one kept tool is asked for.
    pub files: Vec<KeptFileView>,
    /// Whether the owner's later chats get it.
    pub enabled: bool,
    /// Whether an admin published it: every person's chats get it.
    pub published: bool,
    /// The chat it was kept from.
    pub from_session: String,
    pub kept_at: DateTime<Utc>,
}

/// One tool a kept server offers.
#[derive(Serialize, ToSchema)]
pub struct KeptToolToolView {
    /// As the model is offered it: `mcp__<server>__<tool>`.
    pub name: String,
    pub description: String,
}

/// One file of a kept tool.
#[derive(Serialize, ToSchema)]
pub struct KeptFileView {
    /// Absolute, inside the sandbox's home.
    pub path: String,
    pub size: u64,
    /// The file's text (only when one kept tool is asked for).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

/// A server the agent registered in a chat, for its Tools tab.
#[derive(Serialize, ToSchema)]
pub struct RegisteredServerView {
    pub name: String,
    pub command: String,
    pub args: Vec<String>,
    pub tools: Vec<KeptToolToolView>,
    /// The words of the command that may name its source files, as written (relative
    /// ones start at the workspace).
    pub sources: Vec<String>,
    /// Your kept tool of this name, if you keep one.
    pub kept_id: Option<String>,
    pub registered_at: DateTime<Utc>,
}

fn offered(server: &McpServerName, tools: &[AgentTool]) -> Vec<KeptToolToolView> {
    tools
        .iter()
        .map(|tool| KeptToolToolView {
            name: qualified_name(server.as_str(), &tool.name).unwrap_or_default(),
            description: tool.description.clone(),
        })
        .collect()
}

impl KeptToolView {
    fn of(tool: &KeptTool, with_code: bool) -> Self {
        Self {
            id: tool.id.as_str().to_owned(),
            owner: tool.owner.as_str().to_owned(),
            name: tool.name.as_str().to_owned(),
            command: tool.command.clone(),
            args: tool.args.clone(),
            tools: offered(&tool.name, &tool.tools),
            files: tool
                .files
                .iter()
                .map(|file| KeptFileView {
                    path: file.path.clone(),
                    size: file.content.len() as u64,
                    content: with_code.then(|| file.content.clone()),
                })
                .collect(),
            enabled: tool.enabled,
            published: tool.published,
            from_session: tool.from_session.as_str().to_owned(),
            kept_at: tool.kept_at,
        }
    }
}

/// Keeps a tool the agent registered in one of your chats: its command, its tools and
/// its files (the folder holding the script the command names, inside the sandbox's
/// home; the script alone when that is the home or the workspace). Keeping one of a
/// name you keep already replaces it (and withdraws its publication).
#[utoipa::path(post, path = "/api/v1/toolbox", tag = "toolbox", operation_id = "keep_tool",
    request_body = KeepTool, responses((status = 201, body = KeptToolView),
        (status = 404, body = ErrorBody, description = "no such chat of yours, or no tool of that name registered in it"),
        (status = 409, body = ErrorBody, description = "a tool of that name was kept at the same time (keep it again to replace it)"),
        (status = 413, body = ErrorBody, description = "its files are more than a kept tool may hold"),
        (status = 422, body = ErrorBody, description = "a bad name, a command naming no file in the sandbox's home, a file that is not text, or a full tool box")))]
async fn keep(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Json(body): Json<KeepTool>,
) -> AppResult<(StatusCode, axum::Json<KeptToolView>)> {
    let tool = state
        .toolbox
        .keep(&principal.user_id, &body.session_id, &body.name)
        .await?;
    Ok((StatusCode::CREATED, axum::Json(KeptToolView::of(&tool, true))))
}

/// Your kept tools, by name (file names and sizes, not their text); with
/// `everyone=true`, every person's (admins only).
#[utoipa::path(get, path = "/api/v1/toolbox", tag = "toolbox", operation_id = "list_toolbox",
    params(ToolboxQuery), responses((status = 200, body = Vec<KeptToolView>),
        (status = 403, body = ErrorBody, description = "`everyone` asked for by someone not an admin")))]
async fn list(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Query(query): Query<ToolboxQuery>,
) -> AppResult<axum::Json<Vec<KeptToolView>>> {
    let tools = state.toolbox.list(&principal, query.everyone).await?;
    Ok(axum::Json(
        tools.iter().map(|tool| KeptToolView::of(tool, false)).collect(),
    ))
}

/// One of your kept tools, with the text of its files (an admin may read anyone's).
#[utoipa::path(get, path = "/api/v1/toolbox/{id}", tag = "toolbox", operation_id = "get_kept_tool",
    responses((status = 200, body = KeptToolView),
        (status = 404, body = ErrorBody, description = "none of your kept tools has this id")))]
async fn get_one(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<axum::Json<KeptToolView>> {
    let tool = state.toolbox.get(&principal, &id).await?;
    Ok(axum::Json(KeptToolView::of(&tool, true)))
}

/// Enables or disables one of your kept tools for your chats (disabled, chats it was
/// registered in drop it from their next turn).
#[utoipa::path(patch, path = "/api/v1/toolbox/{id}", tag = "toolbox", operation_id = "set_kept_tool",
    request_body = KeptToolSettings, responses((status = 200, body = KeptToolView),
        (status = 404, body = ErrorBody, description = "none of your kept tools has this id"),
        (status = 422, body = ErrorBody, description = "`enabled` is missing or not a boolean")))]
async fn set_enabled(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Json(body): Json<KeptToolSettings>,
) -> AppResult<axum::Json<KeptToolView>> {
    let tool = state
        .toolbox
        .set_enabled(&principal.user_id, &id, body.enabled)
        .await?;
    Ok(axum::Json(KeptToolView::of(&tool, false)))
}

/// Deletes one of your kept tools (chats it was registered in drop it from their next
/// turn).
#[utoipa::path(delete, path = "/api/v1/toolbox/{id}", tag = "toolbox", operation_id = "delete_kept_tool",
    responses((status = 204),
        (status = 404, body = ErrorBody, description = "none of your kept tools has this id")))]
async fn delete_one(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    state.toolbox.delete(&principal.user_id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Publishes a kept tool (admins only, having read its code with `GET`, whose
/// `kept_at` the body carries): every person's chats get it from their next turn, but
/// for a person keeping one of that name.
#[utoipa::path(post, path = "/api/v1/toolbox/{id}/publish", tag = "toolbox", operation_id = "publish_kept_tool",
    request_body = PublishTool, responses((status = 200, body = KeptToolView),
        (status = 403, body = ErrorBody, description = "not an admin"),
        (status = 404, body = ErrorBody, description = "no kept tool has this id"),
        (status = 409, body = ErrorBody, description = "its owner kept it anew after the code you read: read it again"),
        (status = 422, body = ErrorBody, description = "`kept_at` is missing or not a time")))]
async fn publish(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Json(body): Json<PublishTool>,
) -> AppResult<axum::Json<KeptToolView>> {
    let tool = state.toolbox.publish(&principal, &id, body.kept_at).await?;
    Ok(axum::Json(KeptToolView::of(&tool, false)))
}

/// Withdraws a publication (admins only); other persons' chats it was registered in
/// drop it from their next turn.
#[utoipa::path(delete, path = "/api/v1/toolbox/{id}/publish", tag = "toolbox", operation_id = "unpublish_kept_tool",
    responses((status = 200, body = KeptToolView),
        (status = 403, body = ErrorBody, description = "not an admin"),
        (status = 404, body = ErrorBody, description = "no kept tool has this id")))]
async fn unpublish(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<axum::Json<KeptToolView>> {
    let tool = state.toolbox.unpublish(&principal, &id).await?;
    Ok(axum::Json(KeptToolView::of(&tool, false)))
}

/// The servers the agent registered in one of your chats, by name, with the id of your
/// kept tool of each name.
#[utoipa::path(get, path = "/api/v1/sessions/{id}/registered-tools", tag = "toolbox", operation_id = "registered_tools",
    responses((status = 200, body = Vec<RegisteredServerView>),
        (status = 404, body = ErrorBody, description = "no such chat of yours")))]
async fn registered(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<axum::Json<Vec<RegisteredServerView>>> {
    let servers = state.toolbox.registered(&principal.user_id, &id).await?;
    let views = servers
        .into_iter()
        .map(|(server, kept)| RegisteredServerView {
            tools: offered(&server.name, &server.tools),
            sources: script_candidates(&server.command, &server.args),
            kept_id: kept.map(|id| id.as_str().to_owned()),
            name: server.name.as_str().to_owned(),
            command: server.command,
            args: server.args,
            registered_at: server.registered_at,
        })
        .collect();
    Ok(axum::Json(views))
}
