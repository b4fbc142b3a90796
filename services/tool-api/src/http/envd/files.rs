//! envd's REST `/files`: `GET` downloads a file; `POST` uploads one as the body
//! (`application/octet-stream`, gzip allowed) or several as `multipart/form-data` parts
//! named `file`, each written to its part's file name unless `path` names the one file.
//! Metadata comes as `X-Metadata-<key>` headers. The answer lists what was written.

use std::collections::BTreeMap;

use axum::body::Body;
use axum::extract::{FromRequest, Multipart, Query, Request, State};
use axum::http::header::{CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;

use super::rest::rest_failure;
use super::{check_request_user, AppState, SharedEnvd};
use crate::envd::check_user;
use crate::envd::error::{EnvdError, EnvdResult};
use crate::envd::transfer::{check_metadata, gunzip, open, Destination, Written};
use crate::http::files::attachment;

/// The prefix of the headers that carry a file's metadata.
const METADATA_HEADER: &str = "x-metadata-";

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FilesQuery {
    path: Option<String>,
    username: Option<String>,
}

impl FilesQuery {
    fn check(&self, headers: &HeaderMap) -> EnvdResult<()> {
        check_request_user(headers)?;
        check_user(self.username.as_deref())
    }
}

pub async fn download(
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    Query(query): Query<FilesQuery>,
) -> Response {
    let opened = async {
        query.check(&headers)?;
        let path = query
            .path
            .as_deref()
            .ok_or_else(|| EnvdError::invalid("path is required"))?;
        open(&envd, path).await
    };
    match opened.await {
        Ok(download) => {
            let mut response_headers = attachment(&download.name, download.content_type);
            let chunks = match download.size {
                Some(size) => {
                    response_headers.insert(CONTENT_LENGTH, HeaderValue::from(size));
                    download.into_stream(0, size)
                }
                // `/proc`, `/sys` and the like: chunked, to the file's end.
                None => download.into_stream_to_end(),
            };
            (response_headers, Body::from_stream(chunks)).into_response()
        }
        Err(err) => rest_failure(err),
    }
}

pub async fn upload(
    State(state): State<AppState>,
    Extension(envd): Extension<SharedEnvd>,
    Query(query): Query<FilesQuery>,
    request: Request,
) -> Response {
    let headers = request.headers().clone();
    let written = async {
        query.check(&headers)?;
        let metadata = metadata_headers(&headers)?;
        let destination = Destination {
            envd: &envd,
            storage: &state.storage,
            max_bytes: state.settings.limits.upload_max_bytes,
            metadata: &metadata,
        };
        let content_type = headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        if content_type.starts_with("multipart/form-data") {
            let multipart = Multipart::from_request(request, &())
                .await
                .map_err(|err| EnvdError::invalid(err.body_text()))?;
            write_parts(&destination, query.path.as_deref(), multipart).await
        } else {
            let path = query
                .path
                .as_deref()
                .ok_or_else(|| EnvdError::invalid("path is required"))?;
            let body = request.into_body().into_data_stream();
            let gzipped = headers
                .get(CONTENT_ENCODING)
                .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"gzip"));
            let written = if gzipped {
                destination.write(path, None, gunzip(body)).await?
            } else {
                let declared = headers
                    .get(CONTENT_LENGTH)
                    .and_then(|v| v.to_str().ok()?.parse().ok());
                destination.write(path, declared, body).await?
            };
            Ok(vec![written])
        }
    };
    match written.await {
        Ok(written) => Json(written).into_response(),
        Err(err) => rest_failure(err),
    }
}

/// Writes each `file` part; `path`, when given, names the one file.
async fn write_parts(
    destination: &Destination<'_>,
    path: Option<&str>,
    mut multipart: Multipart,
) -> EnvdResult<Vec<Written>> {
    let broken = |err: axum::extract::multipart::MultipartError| EnvdError::invalid(err.body_text());
    let mut written = Vec::new();
    while let Some(field) = multipart.next_field().await.map_err(broken)? {
        if field.name() != Some("file") {
            continue;
        }
        let target = match (path, field.file_name()) {
            (Some(_), _) if !written.is_empty() => {
                return Err(EnvdError::invalid(
                    "the path parameter names one file; name several by their parts' file names",
                ))
            }
            (Some(path), _) => path.to_owned(),
            (None, Some(name)) if !name.is_empty() => name.to_owned(),
            _ => {
                return Err(EnvdError::invalid(
                    "a file part has no file name and no path is given",
                ))
            }
        };
        written.push(destination.write(&target, None, field).await?);
    }
    if written.is_empty() {
        return Err(EnvdError::invalid("the upload has no part named file"));
    }
    Ok(written)
}

/// The `X-Metadata-*` headers, keys lowercased.
fn metadata_headers(headers: &HeaderMap) -> EnvdResult<BTreeMap<String, String>> {
    let mut metadata = BTreeMap::new();
    for (name, value) in headers {
        let Some(key) = name.as_str().strip_prefix(METADATA_HEADER) else {
            continue;
        };
        let value = value
            .to_str()
            .map_err(|_| EnvdError::invalid(format!("invalid metadata value for key {key:?}")))?;
        check_metadata(key, value)?;
        metadata.insert(key.to_owned(), value.to_owned());
    }
    Ok(metadata)
}
