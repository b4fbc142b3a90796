//! `/api/v1/memory`: a person's memory across chats, for their Memory page — read it,
//! turn it on or off, approve, edit or delete a note, wipe it. Another person's note is not
//! found (404); a bad value is 422 with the field it names.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::extract::{CurrentUser, Json, Path};
use super::views::{MemoryNoteView, MemoryView};
use super::AppState;
use crate::application::{AppError, AppResult};
use crate::domain::ids::NoteId;
use crate::domain::memory::NoteText;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_memory, set_memory, wipe_memory))
        .routes(routes!(edit_note, delete_note))
        .routes(routes!(approve_note))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MemorySettings {
    /// On: the agent may keep notes, and each new chat starts with them. Off: neither
    /// (the notes stay until deleted or wiped).
    pub enabled: bool,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MemoryNoteEdit {
    /// The note's new text: 1 to 500 characters, nothing that looks like a key, token or
    /// password.
    pub text: String,
}

/// Your memory across chats: whether it is on, and your notes, oldest first.
#[utoipa::path(get, path = "/api/v1/memory", tag = "memory", operation_id = "get_memory",
    responses((status = 200, body = MemoryView)))]
async fn get_memory(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
) -> AppResult<axum::Json<MemoryView>> {
    let memory = state.memory.get(&principal.user_id).await?;
    Ok(axum::Json(MemoryView::from(&memory)))
}

/// Turns your memory on or off. A chat already begun keeps what it started with.
#[utoipa::path(patch, path = "/api/v1/memory", tag = "memory", operation_id = "set_memory",
    request_body = MemorySettings, responses((status = 200, body = MemoryView),
        (status = 422, body = ErrorBody, description = "`enabled` is missing or not a boolean")))]
async fn set_memory(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Json(body): Json<MemorySettings>,
) -> AppResult<axum::Json<MemoryView>> {
    let memory = state.memory.set_enabled(&principal.user_id, body.enabled).await?;
    Ok(axum::Json(MemoryView::from(&memory)))
}

/// Deletes every note, and what your chats were given of them. Memory stays on or off.
#[utoipa::path(delete, path = "/api/v1/memory", tag = "memory", operation_id = "wipe_memory",
    responses((status = 204)))]
async fn wipe_memory(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
) -> AppResult<StatusCode> {
    state.memory.wipe(&principal.user_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Gives one of your notes a new text; chats already begun keep the old one.
#[utoipa::path(patch, path = "/api/v1/memory/notes/{id}", tag = "memory", operation_id = "edit_memory_note",
    request_body = MemoryNoteEdit, responses((status = 200, body = MemoryNoteView),
        (status = 404, body = ErrorBody, description = "none of your notes has this id"),
        (status = 422, body = ErrorBody, description = "the text is empty, too long, looks like a secret, or would overfill memory")))]
async fn edit_note(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Json(body): Json<MemoryNoteEdit>,
) -> AppResult<axum::Json<MemoryNoteView>> {
    let id = NoteId::parse(&id)?;
    let text = NoteText::parse(&body.text)?;
    let memory = state.memory.edit_note(&principal.user_id, &id, text).await?;
    let note = memory.notes.iter().find(|note| note.id == id);
    let note = note.ok_or_else(|| AppError::Internal(anyhow::anyhow!("an edited note is gone")))?;
    Ok(axum::Json(MemoryNoteView::from(note)))
}

/// Approves a note the agent wrote after its chat read content from outside: your chats
/// get it from their next run (in place of the note it replaces). Deleting it is how to
/// refuse it.
#[utoipa::path(post, path = "/api/v1/memory/notes/{id}/approve", tag = "memory", operation_id = "approve_memory_note",
    responses((status = 200, body = MemoryView),
        (status = 404, body = ErrorBody, description = "none of your notes has this id")))]
async fn approve_note(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<axum::Json<MemoryView>> {
    let memory = state
        .memory
        .approve_note(&principal.user_id, &NoteId::parse(&id)?)
        .await?;
    Ok(axum::Json(MemoryView::from(&memory)))
}

/// Deletes one of your notes.
#[utoipa::path(delete, path = "/api/v1/memory/notes/{id}", tag = "memory", operation_id = "delete_memory_note",
    responses((status = 204), (status = 404, body = ErrorBody, description = "none of your notes has this id")))]
async fn delete_note(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    state
        .memory
        .delete_note(&principal.user_id, &NoteId::parse(&id)?)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
