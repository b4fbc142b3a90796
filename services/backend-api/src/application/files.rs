//! A session's files: the file browser over its sandbox (relative paths start at the
//! workspace; the person may look anywhere the sandbox user may) and the attachments
//! a person uploads with a message. Every operation first checks the session is the
//! caller's; the sandbox is reached through the gateway (started with the session's
//! network if it is not running), so the browser never learns where it is or its token.
//! Uploads are capped as they stream ([`upload_at_most`], which the files sub-agents hand
//! back go through too).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use futures::stream::BoxStream;
use futures::StreamExt;

use super::error::AppResult;
use super::sessions::SessionService;
use crate::domain::agent::SandboxAccess;
use chrono::{DateTime, Utc};

use crate::domain::files::{
    ByteStream, ChangedFiles, Download, FileChange, FileEntry, FileName, Listing, UPLOADS_DIR,
};
use crate::domain::ports::{SandboxFiles, SandboxGateway};
use crate::domain::user::UserId;
use crate::domain::{DomainError, DomainResult};

pub struct FileService {
    sessions: Arc<SessionService>,
    sandboxes: Arc<dyn SandboxGateway>,
    files: Arc<dyn SandboxFiles>,
    max_upload_bytes: u64,
}

impl FileService {
    pub fn new(
        sessions: Arc<SessionService>,
        sandboxes: Arc<dyn SandboxGateway>,
        files: Arc<dyn SandboxFiles>,
        max_upload_bytes: u64,
    ) -> Self {
        Self {
            sessions,
            sandboxes,
            files,
            max_upload_bytes,
        }
    }

    async fn sandbox(&self, owner: &UserId, id: &str) -> AppResult<SandboxAccess> {
        let session = self.sessions.get(owner, id).await?;
        Ok(self
            .sandboxes
            .acquire(&session.id, owner, session.network)
            .await?)
    }

    pub async fn list(&self, owner: &UserId, id: &str, path: &str) -> AppResult<Listing> {
        let sandbox = self.sandbox(owner, id).await?;
        Ok(self.files.list(&sandbox, path).await?)
    }

    pub async fn stat(&self, owner: &UserId, id: &str, path: &str) -> AppResult<FileEntry> {
        let sandbox = self.sandbox(owner, id).await?;
        Ok(self.files.stat(&sandbox, path).await?)
    }

    pub async fn download(
        &self,
        owner: &UserId,
        id: &str,
        path: &str,
        range: Option<&str>,
    ) -> AppResult<Download> {
        let sandbox = self.sandbox(owner, id).await?;
        Ok(self.files.download(&sandbox, path, range).await?)
    }

    pub async fn archive(&self, owner: &UserId, id: &str, path: &str) -> AppResult<Download> {
        let sandbox = self.sandbox(owner, id).await?;
        Ok(self.files.archive(&sandbox, path).await?)
    }

    pub async fn delete(&self, owner: &UserId, id: &str, path: &str) -> AppResult<()> {
        let sandbox = self.sandbox(owner, id).await?;
        Ok(self.files.delete(&sandbox, path).await?)
    }

    /// At most `max` files of the workspace changed since `since` (see
    /// [`SandboxFiles::changed_since`]).
    pub async fn changed_since(
        &self,
        owner: &UserId,
        id: &str,
        since: DateTime<Utc>,
        max: u32,
    ) -> AppResult<ChangedFiles> {
        let sandbox = self.sandbox(owner, id).await?;
        Ok(self.files.changed_since(&sandbox, since, max).await?)
    }

    pub async fn watch(
        &self,
        owner: &UserId,
        id: &str,
        path: &str,
    ) -> AppResult<BoxStream<'static, FileChange>> {
        let sandbox = self.sandbox(owner, id).await?;
        Ok(self.files.watch(&sandbox, path).await?)
    }

    /// Stores `body` at `path`; `length` is the declared size, when there is one. A body
    /// over the limit is refused before (declared) or while (streamed) it is sent, and
    /// nothing is left behind.
    pub async fn upload(
        &self,
        owner: &UserId,
        id: &str,
        path: &str,
        overwrite: bool,
        length: Option<u64>,
        body: ByteStream,
    ) -> AppResult<FileEntry> {
        if length.is_some_and(|n| n > self.max_upload_bytes) {
            return Err(too_large(self.max_upload_bytes).into());
        }
        let sandbox = self.sandbox(owner, id).await?;
        Ok(upload_at_most(
            self.files.as_ref(),
            &sandbox,
            path,
            overwrite,
            body,
            self.max_upload_bytes,
        )
        .await?)
    }

    /// An attachment: stored under the workspace's `uploads/` (replacing one of the same
    /// name), to be referred to by a message.
    pub async fn attach(
        &self,
        owner: &UserId,
        id: &str,
        name: &str,
        length: Option<u64>,
        body: ByteStream,
    ) -> AppResult<FileEntry> {
        let name = FileName::parse(name)?;
        self.upload(owner, id, &name.upload_path(), true, length, body)
            .await
    }

    /// The session's attachments (none before the first upload).
    pub async fn attachments(&self, owner: &UserId, id: &str) -> AppResult<Vec<FileEntry>> {
        let sandbox = self.sandbox(owner, id).await?;
        match self.files.list(&sandbox, UPLOADS_DIR).await {
            Ok(listing) => Ok(listing.entries),
            Err(DomainError::NotFound(_)) => Ok(Vec::new()),
            Err(err) => Err(err.into()),
        }
    }
}

/// Stores `body` at `path` in `sandbox`; a body of more than `max` bytes is `TooLarge`,
/// cut off as it passes, and leaves nothing behind.
pub(crate) async fn upload_at_most(
    files: &dyn SandboxFiles,
    sandbox: &SandboxAccess,
    path: &str,
    overwrite: bool,
    body: ByteStream,
    max: u64,
) -> DomainResult<FileEntry> {
    let exceeded = Arc::new(AtomicBool::new(false));
    let limited = limit(body, max, exceeded.clone());
    match files.upload(sandbox, path, overwrite, limited).await {
        Err(_) if exceeded.load(Ordering::SeqCst) => Err(too_large(max)),
        result => result,
    }
}

pub(crate) fn too_large(max: u64) -> DomainError {
    DomainError::TooLarge(format!("a file may have at most {} MiB", max / (1024 * 1024)))
}

/// Passes `body` on until more than `max` bytes went through, then fails it (and says so
/// in `exceeded`, since the failure reaches the caller as a broken upload).
fn limit(body: ByteStream, max: u64, exceeded: Arc<AtomicBool>) -> ByteStream {
    let mut seen = 0u64;
    body.map(move |chunk| {
        let chunk = chunk?;
        seen += chunk.len() as u64;
        if seen > max {
            exceeded.store(true, Ordering::SeqCst);
            return Err(std::io::Error::other(DomainError::TooLarge(
                "upload limit".into(),
            )));
        }
        Ok(chunk)
    })
    .boxed()
}
