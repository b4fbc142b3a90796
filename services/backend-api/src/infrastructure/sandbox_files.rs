//! The file browser's adapter: each operation is one tool-api files route of the
//! session's sandbox, with bodies streamed through in both directions (nothing is held
//! in memory whole). The tool-api's error codes become domain errors the person can act
//! on; only an unreachable sandbox is `Unavailable`.

use chrono::{DateTime, Utc};
use eventsource_stream::Eventsource;
use futures::stream::BoxStream;
use futures::{StreamExt, TryStreamExt};
use reqwest::header::{CONTENT_LENGTH, CONTENT_RANGE, CONTENT_TYPE};
use reqwest::Body;
use tool_api_client::contract::files::{self as wire, ArchiveFormat, DeleteRequest, FindRequest};
use tool_api_client::contract::ErrorCode;
use tool_api_client::ClientError;

use super::sandbox_tools::{entry, listing, tool_api, unreachable_sandbox};
use crate::domain::agent::SandboxAccess;
use crate::domain::files::{
    ByteStream, ChangedFiles, Download, FileChange, FileChangeKind, FileEntry, Listing,
};
use crate::domain::ports::SandboxFiles;
use crate::domain::{DomainError, DomainResult};

#[derive(Default)]
pub struct ToolApiFiles {
    http: reqwest::Client,
}

fn failure(err: ClientError) -> DomainError {
    let ClientError::Api { body, .. } = &err else {
        return unreachable_sandbox(err);
    };
    let message = body.error.message.clone();
    match body.error.code {
        ErrorCode::NotFound => DomainError::NotFound("file"),
        ErrorCode::AlreadyExists | ErrorCode::FileBusy => DomainError::Conflict(message),
        ErrorCode::PayloadTooLarge => DomainError::TooLarge(message),
        ErrorCode::StorageFull => DomainError::StorageFull(message),
        ErrorCode::RangeNotSatisfiable => DomainError::RangeNotSatisfiable(message),
        ErrorCode::MalformedRequest | ErrorCode::InvalidInput | ErrorCode::PermissionDenied => {
            DomainError::Invalid(message)
        }
        _ => unreachable_sandbox(err),
    }
}

fn streamed(response: reqwest::Response) -> Download {
    let header = |name| {
        response
            .headers()
            .get(name)
            .and_then(|v: &reqwest::header::HeaderValue| v.to_str().ok())
            .map(str::to_owned)
    };
    let length = header(CONTENT_LENGTH).and_then(|v| v.parse().ok());
    let content_range = header(CONTENT_RANGE);
    let content_type = header(CONTENT_TYPE).unwrap_or_else(|| "application/octet-stream".into());
    Download {
        body: response.bytes_stream().map_err(std::io::Error::other).boxed(),
        length,
        content_range,
        content_type,
    }
}

#[async_trait::async_trait]
impl SandboxFiles for ToolApiFiles {
    async fn list(&self, sandbox: &SandboxAccess, path: &str) -> DomainResult<Listing> {
        let answer = tool_api(&self.http, sandbox).list(path).await.map_err(failure)?;
        Ok(listing(answer))
    }

    async fn stat(&self, sandbox: &SandboxAccess, path: &str) -> DomainResult<FileEntry> {
        let stat = tool_api(&self.http, sandbox).stat(path).await.map_err(failure)?;
        Ok(entry(stat))
    }

    async fn changed_since(
        &self,
        sandbox: &SandboxAccess,
        since: DateTime<Utc>,
        max: u32,
    ) -> DomainResult<ChangedFiles> {
        let client = tool_api(&self.http, sandbox);
        let root = client.stat(".").await.map_err(failure)?.path;
        let found = client
            .find(&FindRequest {
                path: root.clone(),
                glob: "**".into(),
                max_results: Some(max),
                modified_since_ms: Some(since.timestamp_millis()),
                skip_hidden: true,
            })
            .await
            .map_err(failure)?;
        let prefix = format!("{}/", root.trim_end_matches('/'));
        let paths = found
            .matches
            .into_iter()
            .map(|path| path.strip_prefix(&prefix).map(str::to_owned).unwrap_or(path))
            .collect();
        Ok(ChangedFiles {
            root,
            paths,
            truncated: found.truncated,
        })
    }

    async fn download(
        &self,
        sandbox: &SandboxAccess,
        path: &str,
        range: Option<&str>,
    ) -> DomainResult<Download> {
        let client = tool_api(&self.http, sandbox);
        Ok(streamed(client.download(path, range).await.map_err(failure)?))
    }

    async fn archive(&self, sandbox: &SandboxAccess, path: &str) -> DomainResult<Download> {
        let client = tool_api(&self.http, sandbox);
        Ok(streamed(
            client.archive(path, ArchiveFormat::Zip).await.map_err(failure)?,
        ))
    }

    async fn upload(
        &self,
        sandbox: &SandboxAccess,
        path: &str,
        overwrite: bool,
        body: ByteStream,
    ) -> DomainResult<FileEntry> {
        let client = tool_api(&self.http, sandbox);
        let uploaded = client
            .upload(path, overwrite, Body::wrap_stream(body))
            .await
            .map_err(failure)?;
        Ok(entry(client.stat(&uploaded.path).await.map_err(failure)?))
    }

    async fn delete(&self, sandbox: &SandboxAccess, path: &str) -> DomainResult<()> {
        let request = DeleteRequest {
            path: path.to_owned(),
            recursive: true,
        };
        tool_api(&self.http, sandbox)
            .delete(&request)
            .await
            .map_err(failure)
    }

    async fn watch(
        &self,
        sandbox: &SandboxAccess,
        path: &str,
    ) -> DomainResult<BoxStream<'static, FileChange>> {
        let response = tool_api(&self.http, sandbox)
            .watch(path, true)
            .await
            .map_err(failure)?;
        let changes = response
            .bytes_stream()
            .eventsource()
            .take_while(|event| std::future::ready(event.is_ok()))
            .filter_map(|event| {
                let change = event
                    .ok()
                    .filter(|e| e.event == "file")
                    .and_then(|e| serde_json::from_str::<wire::FileEvent>(&e.data).ok())
                    .map(|e| FileChange {
                        kind: match e.kind {
                            wire::FileEventKind::Created => FileChangeKind::Created,
                            wire::FileEventKind::Modified => FileChangeKind::Modified,
                            wire::FileEventKind::Removed => FileChangeKind::Removed,
                        },
                        path: e.path,
                    });
                std::future::ready(change)
            });
        Ok(changes.boxed())
    }
}
