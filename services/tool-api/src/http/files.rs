//! Routes of file operations: JSON routes for reading, editing and shaping the tree, and
//! streaming routes for upload, download, archive and watch.

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::header::{
    ACCEPT_RANGES, CONTENT_DISPOSITION, CONTENT_LENGTH, CONTENT_RANGE, CONTENT_TYPE, RANGE,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::Event;
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use service_kit::{Json, Query};
use tool_api_contract::files::{
    ArchiveQuery, DeleteRequest, FileEntry, FindRequest, FindResponse, ListResponse, MkdirRequest,
    MoveRequest, PathRequest, ReadFileRequest, ReadFileResponse, ReplaceRequest, ReplaceResponse,
    SearchRequest, SearchResponse, UploadQuery, UploadResponse, WatchQuery, WriteFileRequest,
    WriteFileResponse,
};
use tool_api_contract::{ErrorBody, ErrorCode};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::sse::sse;
use super::AppState;
use crate::error::{ToolError, ToolResult};
use crate::files::{self, ByteRange};

pub fn router() -> OpenApiRouter<AppState> {
    let upload = OpenApiRouter::new()
        .routes(routes!(upload))
        // The upload streams its body and enforces its own, larger limit.
        .layer(DefaultBodyLimit::disable());
    OpenApiRouter::new()
        .routes(routes!(read))
        .routes(routes!(write))
        .routes(routes!(replace))
        .routes(routes!(find))
        .routes(routes!(search))
        .routes(routes!(list))
        .routes(routes!(stat))
        .routes(routes!(mkdir))
        .routes(routes!(move_path))
        .routes(routes!(delete))
        .routes(routes!(download))
        .routes(routes!(archive))
        .routes(routes!(watch))
        .merge(upload)
}

/// Reads a text file, whole or a 1-based inclusive line range, up to a byte limit. A range
/// starting past the end answers empty content with `start_line`/`end_line` 0 and the
/// file's `total_lines`. Binary files answer `binary: true` and no content.
#[utoipa::path(post, path = "/v1/files/read", tag = "files", request_body = ReadFileRequest,
    responses((status = 200, body = ReadFileResponse), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "bad path or line range, or a directory")))]
async fn read(
    State(state): State<AppState>,
    Json(request): Json<ReadFileRequest>,
) -> ToolResult<Json<ReadFileResponse>> {
    Ok(Json(
        files::read(&state.workspace, &state.settings.limits, request).await?,
    ))
}

/// Writes a file, creating its parents: replaced atomically, or appended to.
#[utoipa::path(post, path = "/v1/files/write", tag = "files", request_body = WriteFileRequest,
    responses((status = 200, body = WriteFileResponse), (status = 400, body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 422, body = ErrorBody, description = "bad path, or a directory"),
        (status = 507, body = ErrorBody, description = "the workspace is over its storage quota")))]
async fn write(
    State(state): State<AppState>,
    Json(request): Json<WriteFileRequest>,
) -> ToolResult<Json<WriteFileResponse>> {
    state.storage.check_room(request.content.len() as u64)?;
    let written = files::write(&state.workspace, request).await?;
    state.storage.wrote(written.bytes_written);
    Ok(Json(written))
}

/// Replaces exactly one occurrence of `old` with `new`.
#[utoipa::path(post, path = "/v1/files/replace", tag = "files", request_body = ReplaceRequest,
    responses((status = 200, body = ReplaceResponse), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "`old` occurs more than once; `details.count` says how often"),
        (status = 413, body = ErrorBody, description = "the file is too large to edit"),
        (status = 422, body = ErrorBody, description = "`old` is empty or does not occur"),
        (status = 507, body = ErrorBody, description = "the workspace is over its storage quota")))]
async fn replace(
    State(state): State<AppState>,
    Json(request): Json<ReplaceRequest>,
) -> ToolResult<Json<ReplaceResponse>> {
    let growth = request.new.len().saturating_sub(request.old.len()) as u64;
    state.storage.check_room(growth)?;
    let replaced = files::replace(&state.workspace, request).await?;
    state.storage.wrote(growth);
    Ok(Json(replaced))
}

/// Paths under a directory matching a glob: with a `/`, against the relative path
/// (`src/**/*.rs`); without, against names at any depth (`*.rs`).
#[utoipa::path(post, path = "/v1/files/find", tag = "files", request_body = FindRequest,
    responses((status = 200, body = FindResponse), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "invalid glob, or not a directory")))]
async fn find(
    State(state): State<AppState>,
    Json(request): Json<FindRequest>,
) -> ToolResult<Json<FindResponse>> {
    Ok(Json(
        files::find(&state.workspace, &state.settings.limits, request).await?,
    ))
}

/// Lines matching a regular expression in the text files under a path.
#[utoipa::path(post, path = "/v1/files/search", tag = "files", request_body = SearchRequest,
    responses((status = 200, body = SearchResponse), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "invalid regex or glob")))]
async fn search(
    State(state): State<AppState>,
    Json(request): Json<SearchRequest>,
) -> ToolResult<Json<SearchResponse>> {
    Ok(Json(
        files::search(&state.workspace, &state.settings.limits, request).await?,
    ))
}

/// A directory's entries, directories first, then by name.
#[utoipa::path(post, path = "/v1/files/list", tag = "files", request_body = PathRequest,
    responses((status = 200, body = ListResponse), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "not a directory")))]
async fn list(
    State(state): State<AppState>,
    Json(request): Json<PathRequest>,
) -> ToolResult<Json<ListResponse>> {
    Ok(Json(files::list(&state.workspace, request).await?))
}

/// What is at a path; a symlink is described, not followed.
#[utoipa::path(post, path = "/v1/files/stat", tag = "files", request_body = PathRequest,
    responses((status = 200, body = FileEntry), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn stat(
    State(state): State<AppState>,
    Json(request): Json<PathRequest>,
) -> ToolResult<Json<FileEntry>> {
    Ok(Json(files::stat(&state.workspace, request).await?))
}

/// Creates a directory (with its parents unless `parents` is false); an existing one is fine.
#[utoipa::path(post, path = "/v1/files/mkdir", tag = "files", request_body = MkdirRequest,
    responses((status = 200, body = FileEntry), (status = 404, body = ErrorBody, description = "a parent is missing"),
        (status = 409, body = ErrorBody, description = "a file is in the way"), (status = 422, body = ErrorBody),
        (status = 507, body = ErrorBody, description = "the workspace is over its storage quota")))]
async fn mkdir(
    State(state): State<AppState>,
    Json(request): Json<MkdirRequest>,
) -> ToolResult<Json<FileEntry>> {
    state.storage.check_room(0)?;
    Ok(Json(files::make_dir(&state.workspace, request).await?))
}

/// Moves or renames a file or directory; answers the entry at its new place.
#[utoipa::path(post, path = "/v1/files/move", tag = "files", request_body = MoveRequest,
    responses((status = 200, body = FileEntry), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "the target exists and overwrite is false"),
        (status = 422, body = ErrorBody)))]
async fn move_path(
    State(state): State<AppState>,
    Json(request): Json<MoveRequest>,
) -> ToolResult<Json<FileEntry>> {
    Ok(Json(files::move_path(&state.workspace, request).await?))
}

/// Deletes a file, symlink or directory (a non-empty one only with `recursive`).
#[utoipa::path(post, path = "/v1/files/delete", tag = "files", request_body = DeleteRequest,
    responses((status = 204), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "not empty without recursive, or the workspace itself")))]
async fn delete(State(state): State<AppState>, Json(request): Json<DeleteRequest>) -> ToolResult<StatusCode> {
    files::delete(&state.workspace, request).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Stores the raw request body as a file, streamed; it appears only once complete.
#[utoipa::path(put, path = "/v1/files/upload", tag = "files", params(UploadQuery),
    request_body(content(("application/octet-stream")), description = "the file's bytes"),
    responses((status = 200, body = UploadResponse),
        (status = 409, body = ErrorBody, description = "the target exists and overwrite is false"),
        (status = 413, body = ErrorBody, description = "larger than the upload limit, or than the room left in the storage quota"),
        (status = 422, body = ErrorBody), (status = 507, body = ErrorBody, description = "the workspace is over its storage quota")))]
async fn upload(
    State(state): State<AppState>,
    Query(query): Query<UploadQuery>,
    headers: HeaderMap,
    body: Body,
) -> ToolResult<Json<UploadResponse>> {
    let declared_len = headers
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse().ok());
    state.storage.check_room(declared_len.unwrap_or(0))?;
    let limit = state.settings.limits.upload_max_bytes.min(state.storage.room());
    let body = body.into_data_stream();
    let uploaded = files::upload(&state.workspace, limit, query, declared_len, body).await?;
    state.storage.wrote(uploaded.size);
    Ok(Json(uploaded))
}

/// A file as a byte stream. A single `Range` (`bytes=a-b`, `a-`, `-n`) answers 206 with
/// that part; several ranges answer the whole file. A file that does not tell its size
/// (`/proc`, `/sys`, an empty one) is sent whole, chunked, to its end.
#[utoipa::path(get, path = "/v1/files/download", tag = "files", params(PathRequest),
    responses((status = 200, content_type = "application/octet-stream", description = "the file"),
        (status = 206, content_type = "application/octet-stream", description = "the requested range"),
        (status = 404, body = ErrorBody), (status = 416, body = ErrorBody, description = "the range lies outside the file"),
        (status = 422, body = ErrorBody, description = "not a regular file")))]
async fn download(
    State(state): State<AppState>,
    Query(query): Query<PathRequest>,
    headers: HeaderMap,
) -> ToolResult<Response> {
    let download = files::open_download(&state.workspace, &query.path).await?;
    let mut response_headers = attachment(&download.name, download.content_type);
    let Some(size) = download.size else {
        // A file that does not tell its size (`/proc`, `/sys`): whole, chunked, no ranges.
        let body = Body::from_stream(download.into_stream_to_end());
        return Ok((response_headers, body).into_response());
    };
    let range = headers.get(RANGE).and_then(|value| value.to_str().ok());
    let (status, first, len) = match files::byte_range(range, size) {
        ByteRange::Whole => (StatusCode::OK, 0, size),
        ByteRange::Part { first, last } => (StatusCode::PARTIAL_CONTENT, first, last - first + 1),
        ByteRange::Unsatisfiable => {
            let error = ToolError::new(
                ErrorCode::RangeNotSatisfiable,
                format!("the requested range lies outside the file ({size} bytes)"),
            );
            return Ok(([(CONTENT_RANGE, format!("bytes */{size}"))], error).into_response());
        }
    };
    response_headers.insert(CONTENT_LENGTH, HeaderValue::from(len));
    response_headers.insert(ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    if status == StatusCode::PARTIAL_CONTENT {
        let content_range = format!("bytes {first}-{}/{size}", first + len - 1);
        if let Ok(value) = HeaderValue::from_str(&content_range) {
            response_headers.insert(CONTENT_RANGE, value);
        }
    }
    let body = Body::from_stream(download.into_stream(first, len));
    Ok((status, response_headers, body).into_response())
}

/// A directory as one zip or tar.gz, streamed while it is written. Links are kept only
/// when they lead inside the directory; the others are left out.
#[utoipa::path(get, path = "/v1/files/archive", tag = "files", params(ArchiveQuery),
    responses((status = 200, content_type = "application/zip", description = "the archive (application/gzip for tar.gz)"),
        (status = 404, body = ErrorBody),
        (status = 413, body = ErrorBody, description = "its files hold more than an archive may (`archive_max_bytes`)"),
        (status = 422, body = ErrorBody, description = "not a directory")))]
async fn archive(State(state): State<AppState>, Query(query): Query<ArchiveQuery>) -> ToolResult<Response> {
    let limits = &state.settings.limits;
    let archive = files::archive(&state.workspace, limits, &query.path, query.format).await?;
    let headers = attachment(&archive.name, archive.content_type);
    Ok((headers, Body::from_stream(archive.stream)).into_response())
}

/// Changes under a path as server-sent events named `file`, data a `FileEvent`
/// (`created`, `modified` or `removed`, and the path).
#[utoipa::path(get, path = "/v1/files/watch", tag = "files", params(WatchQuery),
    responses((status = 200, content_type = "text/event-stream", body = tool_api_contract::files::FileEvent,
            description = "`file` events"),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn watch(
    State(state): State<AppState>,
    Query(query): Query<WatchQuery>,
) -> ToolResult<impl IntoResponse> {
    let events = files::watch(&state.workspace, &query.path, query.recursive).await?;
    let events = events
        .map(|event| Event::default().event("file").json_data(event))
        // Serialising a FileEvent cannot fail; drop the impossible error.
        .filter_map(|event| async move { event.ok() });
    Ok(sse(events, &state.stopping))
}

/// `Content-Type` and `Content-Disposition: attachment` for a file the client saves.
pub(super) fn attachment(name: &str, content_type: &'static str) -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(value) = HeaderValue::from_str(&content_disposition(name)) {
        headers.insert(CONTENT_DISPOSITION, value);
    }
    headers
}

/// `attachment` with the name twice (RFC 6266): an ASCII stand-in for old clients, and the
/// exact name percent-encoded as UTF-8.
fn content_disposition(name: &str) -> String {
    let ascii: String = name
        .chars()
        .map(|c| match c {
            ' '..='~' if c != '"' && c != '\\' => c,
            _ => '_',
        })
        .collect();
    let mut encoded = String::new();
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&byte) {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_disposition_carries_any_name_safely() {
        assert_eq!(
            content_disposition("report.pdf"),
            "attachment; filename=\"report.pdf\"; filename*=UTF-8''report.pdf"
        );
        assert_eq!(
            content_disposition("naïve \"x\".txt"),
            "attachment; filename=\"na_ve _x_.txt\"; filename*=UTF-8''na%C3%AFve%20%22x%22.txt"
        );
    }
}
