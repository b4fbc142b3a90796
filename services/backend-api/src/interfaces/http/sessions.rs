//! `/api/v1/sessions`: the caller's chat sessions — create, list, get, edit (title and
//! model), delete, stop, mark read, post a message, download the code cells as a
//! notebook. Replay links are `sharing`'s.

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::extract::{CurrentUser, Json, Path, Query};
use super::views::{SessionPage, SessionView};
use super::AppState;
use crate::application::sessions::SessionEdit;
use crate::application::{AppError, AppResult};
use crate::domain::event::StoredEvent;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create, list))
        .routes(routes!(get, edit, delete))
        .routes(routes!(stop))
        .routes(routes!(notebook))
        .routes(routes!(mark_read))
        .routes(routes!(post_message))
}

#[derive(Deserialize, ToSchema, Default)]
pub struct NewSession {
    /// Defaults to "New chat"; the agent sets one later.
    pub title: Option<String>,
    /// One of `GET /api/v1/models`' names; the default model when left out.
    pub model: Option<String>,
}

/// What to change; parts left out stay as they are.
#[derive(Deserialize, ToSchema)]
pub struct EditSession {
    pub title: Option<String>,
    /// One of `GET /api/v1/models`' names. Takes effect from the next turn: a turn in
    /// progress finishes with the model it started with.
    pub model: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct NewMessage {
    pub content: String,
    /// Paths of uploaded attachments (as `POST /sessions/{id}/attachments` answered).
    #[serde(default)]
    pub attachments: Vec<String>,
}

#[derive(Deserialize, IntoParams)]
pub struct ListQuery {
    /// The `next_before` of the previous page.
    pub before: Option<String>,
    /// 1–100, default 30.
    pub limit: Option<usize>,
}

/// Starts a new, empty session.
#[utoipa::path(post, path = "/api/v1/sessions", tag = "sessions", request_body = NewSession,
    responses((status = 201, body = SessionView), (status = 401, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "a bad title, or a model not offered (`field`: `model`)")))]
async fn create(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    body: axum::body::Bytes,
) -> AppResult<(StatusCode, axum::Json<SessionView>)> {
    // The body is optional: an empty one means "all defaults".
    let body: NewSession = if body.is_empty() {
        NewSession::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|err| AppError::Malformed(format!("the body is not a valid session: {err}")))?
    };
    let session = state
        .sessions
        .create(
            &principal.user_id,
            body.title.as_deref(),
            body.model.as_deref(),
            None,
        )
        .await?;
    Ok((StatusCode::CREATED, axum::Json(SessionView::from(&session))))
}

/// The caller's sessions, newest first, a page at a time.
#[utoipa::path(get, path = "/api/v1/sessions", tag = "sessions", params(ListQuery),
    responses((status = 200, body = SessionPage), (status = 401, body = ErrorBody)))]
async fn list(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Query(query): Query<ListQuery>,
) -> AppResult<axum::Json<SessionPage>> {
    let limit = query.limit.unwrap_or(30).clamp(1, 100);
    let sessions = state
        .sessions
        .list(&principal.user_id, query.before.as_deref(), limit)
        .await?;
    let next_before = (sessions.len() == limit)
        .then(|| sessions.last().map(|s| s.id.as_str().to_owned()))
        .flatten();
    Ok(axum::Json(SessionPage {
        sessions: sessions.iter().map(SessionView::from).collect(),
        next_before,
    }))
}

/// One of the caller's sessions (others' are 404).
#[utoipa::path(get, path = "/api/v1/sessions/{id}", tag = "sessions",
    responses((status = 200, body = SessionView), (status = 404, body = ErrorBody)))]
async fn get(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<axum::Json<SessionView>> {
    let session = state.sessions.get(&principal.user_id, &id).await?;
    Ok(axum::Json(SessionView::from(&session)))
}

/// Renames a session or changes its model (from its next turn).
#[utoipa::path(patch, path = "/api/v1/sessions/{id}", tag = "sessions", request_body = EditSession,
    responses((status = 200, body = SessionView), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "a bad title, or a model not offered (`field`: `model`)")))]
async fn edit(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Json(body): Json<EditSession>,
) -> AppResult<axum::Json<SessionView>> {
    let edit = SessionEdit {
        title: body.title.as_deref(),
        model: body.model.as_deref(),
    };
    let session = state.sessions.edit(&principal.user_id, &id, edit).await?;
    Ok(axum::Json(SessionView::from(&session)))
}

/// Deletes a session, its events and its sandbox.
#[utoipa::path(delete, path = "/api/v1/sessions/{id}", tag = "sessions",
    responses((status = 204), (status = 404, body = ErrorBody)))]
async fn delete(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    state.sessions.delete(&principal.user_id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The session's code cells as a Jupyter notebook (`.ipynb`, nbformat 4) with their
/// outputs, charts included.
#[utoipa::path(get, path = "/api/v1/sessions/{id}/notebook", tag = "sessions",
    responses((status = 200, description = "the notebook", content_type = "application/x-ipynb+json", body = Object),
        (status = 404, body = ErrorBody)))]
async fn notebook(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<impl IntoResponse> {
    let notebook = state.sessions.notebook(&principal.user_id, &id).await?;
    let disposition = format!("attachment; filename=\"session-{id}.ipynb\"");
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-ipynb+json".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        notebook.to_string(),
    ))
}

/// Stops the agent's work on the session: the run is cancelled (its command killed)
/// before this answers.
#[utoipa::path(post, path = "/api/v1/sessions/{id}/stop", tag = "sessions",
    responses((status = 200, body = SessionView), (status = 404, body = ErrorBody)))]
async fn stop(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<axum::Json<SessionView>> {
    let session = state.agent.stop(&principal.user_id, &id).await?;
    Ok(axum::Json(SessionView::from(&session)))
}

/// Marks everything in the session as read.
#[utoipa::path(post, path = "/api/v1/sessions/{id}/read", tag = "sessions",
    responses((status = 200, body = SessionView), (status = 404, body = ErrorBody)))]
async fn mark_read(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<axum::Json<SessionView>> {
    let session = state.sessions.mark_read(&principal.user_id, &id).await?;
    Ok(axum::Json(SessionView::from(&session)))
}

/// Adds the person's message to the session's log; the agent takes it up.
#[utoipa::path(post, path = "/api/v1/sessions/{id}/messages", tag = "sessions", request_body = NewMessage,
    responses((status = 201, body = StoredEvent), (status = 404, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "an empty message, or a bad attachment path")))]
async fn post_message(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Json(body): Json<NewMessage>,
) -> AppResult<(StatusCode, axum::Json<StoredEvent>)> {
    let event = state
        .agent
        .post_message(&principal.user_id, &id, &body.content, &body.attachments)
        .await?;
    Ok((StatusCode::CREATED, axum::Json(event)))
}
