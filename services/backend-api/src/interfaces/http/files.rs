//! `/api/v1/sessions/{id}/files` — the file browser over the session's sandbox (list,
//! stat, download with `Range`, a folder as zip, upload, delete, live changes as SSE) —
//! and `/api/v1/sessions/{id}/attachments`, the files a person sends with a message.
//! Bodies stream through in both directions; paths are the sandbox's (relative ones start
//! at its workspace).

use std::convert::Infallible;

use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use futures::{Stream, StreamExt, TryStreamExt};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::events::sse;
use super::extract::{CurrentUser, Path, Query};
use super::AppState;
use crate::application::holds::Held;
use crate::application::AppResult;
use crate::domain::files::{ByteStream, Download, FileEntry, Listing};
use crate::domain::user::UserId;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, delete))
        .routes(routes!(stat))
        .routes(routes!(download))
        .routes(routes!(archive))
        .routes(routes!(upload))
        .routes(routes!(watch))
        .routes(routes!(attach, attachments))
}

#[derive(Deserialize, IntoParams)]
pub struct PathQuery {
    /// A path in the sandbox; relative ones start at the workspace (default: the workspace).
    #[serde(default = "workspace")]
    pub path: String,
}

fn workspace() -> String {
    ".".into()
}

/// A path that must be given (deleting "the workspace" by omission is not a thing).
#[derive(Deserialize, IntoParams)]
pub struct RequiredPath {
    /// A path in the sandbox; relative ones start at the workspace.
    pub path: String,
}

#[derive(Deserialize, IntoParams)]
pub struct UploadQuery {
    /// Where to store the body.
    pub path: String,
    /// Replace an existing file (default false: 409 when it exists).
    #[serde(default)]
    pub overwrite: bool,
}

#[derive(Deserialize, IntoParams)]
pub struct AttachQuery {
    /// The file's name; it is stored as `uploads/<name>` in the workspace.
    pub name: String,
}

/// A folder's entries.
#[utoipa::path(get, path = "/api/v1/sessions/{id}/files", tag = "files", params(PathQuery),
    responses((status = 200, body = Listing), (status = 404, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn list(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Query(query): Query<PathQuery>,
) -> AppResult<axum::Json<Listing>> {
    Ok(axum::Json(
        state.files.list(&principal.user_id, &id, &query.path).await?,
    ))
}

/// One file's or folder's details.
#[utoipa::path(get, path = "/api/v1/sessions/{id}/files/stat", tag = "files", params(PathQuery),
    responses((status = 200, body = FileEntry), (status = 404, body = ErrorBody)))]
async fn stat(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Query(query): Query<PathQuery>,
) -> AppResult<axum::Json<FileEntry>> {
    Ok(axum::Json(
        state.files.stat(&principal.user_id, &id, &query.path).await?,
    ))
}

/// A file's content; a `Range` header gets a 206 with that part.
#[utoipa::path(get, path = "/api/v1/sessions/{id}/files/download", tag = "files", params(PathQuery),
    responses((status = 200, description = "the file", content_type = "application/octet-stream", body = Vec<u8>),
        (status = 206, description = "the requested range"), (status = 404, body = ErrorBody), (status = 416, body = ErrorBody)))]
async fn download(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Query(query): Query<PathQuery>,
    headers: HeaderMap,
) -> AppResult<Response> {
    let range = headers.get(header::RANGE).and_then(|v| v.to_str().ok());
    let file = state
        .files
        .download(&principal.user_id, &id, &query.path, range)
        .await?;
    Ok(streamed(file, file_name(&query.path)))
}

/// A folder and everything in it as one zip, streamed as it is made.
#[utoipa::path(get, path = "/api/v1/sessions/{id}/files/archive", tag = "files", params(PathQuery),
    responses((status = 200, description = "a zip archive", content_type = "application/zip", body = Vec<u8>),
        (status = 404, body = ErrorBody)))]
async fn archive(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Query(query): Query<PathQuery>,
) -> AppResult<Response> {
    archive_of(&state, &principal.user_id, &id, &query.path).await
}

/// The zip of `path` in the session's sandbox as a download (also a job's result).
pub(super) async fn archive_of(
    state: &AppState,
    owner: &UserId,
    session: &str,
    path: &str,
) -> AppResult<Response> {
    let zip = state.files.archive(owner, session, path).await?;
    Ok(streamed(zip, format!("{}.zip", file_name(path))))
}

/// Stores the request body (streamed) as a file.
#[utoipa::path(put, path = "/api/v1/sessions/{id}/files/upload", tag = "files", params(UploadQuery),
    request_body(content = Vec<u8>, content_type = "application/octet-stream"),
    responses((status = 201, body = FileEntry), (status = 409, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 507, body = ErrorBody, description = "the session's workspace is over its storage quota")))]
async fn upload(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Query(query): Query<UploadQuery>,
    headers: HeaderMap,
    body: Body,
) -> AppResult<(StatusCode, axum::Json<FileEntry>)> {
    let entry = state
        .files
        .upload(
            &principal.user_id,
            &id,
            &query.path,
            query.overwrite,
            declared_length(&headers),
            byte_stream(body),
        )
        .await?;
    Ok((StatusCode::CREATED, axum::Json(entry)))
}

/// Deletes a file, or a folder with everything in it.
#[utoipa::path(delete, path = "/api/v1/sessions/{id}/files", tag = "files", params(RequiredPath),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Query(query): Query<RequiredPath>,
) -> AppResult<StatusCode> {
    state.files.delete(&principal.user_id, &id, &query.path).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Live changes under a folder: SSE events named `file` with `{kind, path}`.
#[utoipa::path(get, path = "/api/v1/sessions/{id}/files/watch", tag = "files", params(PathQuery),
    responses((status = 200, description = "`text/event-stream` of `file` events", content_type = "text/event-stream", body = String),
        (status = 404, body = ErrorBody), (status = 429, description = "too many open file watches", body = ErrorBody)))]
async fn watch(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Query(query): Query<PathQuery>,
) -> AppResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let hold = state.holds.acquire(&principal.user_id, Held::Watch)?;
    let changes = state
        .files
        .watch(&principal.user_id, &id, &query.path)
        .await?
        .filter_map(|change| async move {
            let data = serde_json::to_string(&change).ok()?;
            Some(Event::default().event("file").data(data))
        });
    Ok(sse(&state, "files", hold, changes))
}

/// Uploads an attachment (the body, streamed) to `uploads/<name>` in the workspace; send
/// its `path` in the message's `attachments`.
#[utoipa::path(post, path = "/api/v1/sessions/{id}/attachments", tag = "files", params(AttachQuery),
    request_body(content = Vec<u8>, content_type = "application/octet-stream"),
    responses((status = 201, body = FileEntry), (status = 413, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 507, body = ErrorBody, description = "the session's workspace is over its storage quota")))]
async fn attach(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Query(query): Query<AttachQuery>,
    headers: HeaderMap,
    body: Body,
) -> AppResult<(StatusCode, axum::Json<FileEntry>)> {
    let entry = state
        .files
        .attach(
            &principal.user_id,
            &id,
            &query.name,
            declared_length(&headers),
            byte_stream(body),
        )
        .await?;
    Ok((StatusCode::CREATED, axum::Json(entry)))
}

/// The session's attachments.
#[utoipa::path(get, path = "/api/v1/sessions/{id}/attachments", tag = "files",
    responses((status = 200, body = Vec<FileEntry>), (status = 404, body = ErrorBody)))]
async fn attachments(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<axum::Json<Vec<FileEntry>>> {
    Ok(axum::Json(
        state.files.attachments(&principal.user_id, &id).await?,
    ))
}

fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
}

fn byte_stream(body: Body) -> ByteStream {
    body.into_data_stream().map_err(std::io::Error::other).boxed()
}

/// The last component of a path, for `Content-Disposition`.
fn file_name(path: &str) -> String {
    let name = path.trim_end_matches('/').rsplit('/').next().unwrap_or_default();
    match name {
        "" | "." | ".." => "workspace".into(),
        name => name.into(),
    }
}

fn streamed(file: Download, name: String) -> Response {
    let status = if file.content_range.is_some() {
        StatusCode::PARTIAL_CONTENT
    } else {
        StatusCode::OK
    };
    let mut response = (status, Body::from_stream(file.body)).into_response();
    let headers = response.headers_mut();
    let mut set = |name, value: &str| {
        if let Ok(value) = HeaderValue::from_str(value) {
            headers.insert(name, value);
        }
    };
    set(header::CONTENT_TYPE, &file.content_type);
    set(header::ACCEPT_RANGES, "bytes");
    if let Some(length) = file.length {
        set(header::CONTENT_LENGTH, &length.to_string());
    }
    if let Some(range) = &file.content_range {
        set(header::CONTENT_RANGE, range);
    }
    // RFC 6266: a plain ASCII fallback plus the exact name, percent-encoded.
    let ascii: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let encoded: String = name
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    set(
        header::CONTENT_DISPOSITION,
        &format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}"),
    );
    response
}
