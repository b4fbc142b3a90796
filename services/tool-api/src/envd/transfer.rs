//! File transfer for envd's REST `/files`: downloads, and uploads streamed into place
//! through [`crate::files::upload`] (atomically, within the upload limit and the storage
//! quota), optionally gzip-compressed, with E2B's metadata stored as `user.e2b.*`
//! extended attributes.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::io::Write;

use bytes::Bytes;
use futures::{Stream, StreamExt};
use serde::Serialize;
use tool_api_contract::files::UploadQuery;
use tool_api_contract::ErrorCode;

use super::entry::{metadata, METADATA_PREFIX};
use super::error::{EnvdError, EnvdResult};
use super::Envd;
use crate::error::ToolError;
use crate::storage_quota::StorageQuota;

/// What an upload answers for each file written.
#[derive(Debug, Serialize)]
pub struct Written {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub path: String,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub metadata: BTreeMap<String, String>,
}

/// Where an upload may write, and how much.
pub struct Destination<'a> {
    pub envd: &'a Envd,
    pub storage: &'a StorageQuota,
    /// The largest upload, whatever the quota says.
    pub max_bytes: u64,
    /// `user.e2b.*` attributes to set on the file, keys without the prefix.
    pub metadata: &'a BTreeMap<String, String>,
}

impl Destination<'_> {
    /// Streams `body` into the file at `raw_path`, replacing it. `declared_len`, when the
    /// client said, lets a body that cannot fit be refused before it is read.
    pub async fn write<S, E>(&self, raw_path: &str, declared_len: Option<u64>, body: S) -> EnvdResult<Written>
    where
        S: Stream<Item = Result<Bytes, E>> + Unpin,
        E: Display,
    {
        let path = self.envd.resolve(raw_path)?;
        self.storage.check_room(declared_len.unwrap_or(0))?;
        let room = self.storage.room();
        let query = UploadQuery {
            path: path.display().to_string(),
            overwrite: true,
        };
        let uploaded = crate::files::upload(
            self.envd.workspace(),
            self.max_bytes.min(room),
            query,
            declared_len,
            body,
        )
        .await
        .map_err(|err| match err {
            ToolError::Api {
                code: ErrorCode::PayloadTooLarge,
                ..
            } if room < self.max_bytes => {
                // The quota, not the upload limit, is what the body ran into.
                match self.storage.check_room(room.saturating_add(1)) {
                    Err(full) => EnvdError::from(full),
                    Ok(()) => EnvdError::from(err),
                }
            }
            other => EnvdError::from(other),
        })?;
        self.storage.wrote(uploaded.size);
        for (key, value) in self.metadata {
            xattr::set(&path, format!("{METADATA_PREFIX}{key}"), value.as_bytes()).map_err(|err| {
                EnvdError::FailedPrecondition(format!(
                    "{}: the file was written, but its metadata could not be kept: {err}",
                    path.display()
                ))
            })?;
        }
        Ok(Written {
            name: path
                .file_name()
                .map_or_else(String::new, |name| name.to_string_lossy().into_owned()),
            kind: "file",
            metadata: metadata(&path),
            path: path.display().to_string(),
        })
    }
}

/// A gzip-compressed body, decompressed as it streams.
pub fn gunzip<S, E>(body: S) -> impl Stream<Item = Result<Bytes, String>> + Unpin
where
    S: Stream<Item = Result<Bytes, E>> + Unpin + Send + 'static,
    E: Display,
{
    Box::pin(async_stream::stream! {
        let mut body = body;
        let mut decoder = flate2::write::GzDecoder::new(Vec::new());
        while let Some(chunk) = body.next().await {
            match chunk.map_err(|err| err.to_string()).and_then(|chunk| {
                decoder.write_all(&chunk).map_err(|err| format!("the gzip body is corrupt: {err}"))
            }) {
                Ok(()) => yield Ok(Bytes::from(std::mem::take(decoder.get_mut()))),
                Err(err) => {
                    yield Err(err);
                    return;
                }
            }
        }
        match decoder.finish() {
            Ok(rest) => yield Ok(Bytes::from(rest)),
            Err(err) => yield Err(format!("the gzip body is cut short: {err}")),
        }
    })
}

/// Checks a metadata key and value as E2B's SDK does before sending them.
pub fn check_metadata(key: &str, value: &str) -> EnvdResult<()> {
    let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if key.is_empty() || !key.chars().all(token) {
        return Err(EnvdError::invalid(format!("invalid metadata key {key:?}")));
    }
    if !value.chars().all(|c| (' '..='~').contains(&c)) {
        return Err(EnvdError::invalid(format!(
            "invalid metadata value for key {key:?}"
        )));
    }
    Ok(())
}

/// The file a download reads: it must be a regular file.
pub async fn open(envd: &Envd, raw_path: &str) -> EnvdResult<crate::files::Download> {
    let path = envd.resolve(raw_path)?;
    Ok(crate::files::open_download(envd.workspace(), &path.display().to_string()).await?)
}
