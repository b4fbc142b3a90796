//! The ports of a session's sandbox: getting one from the sandbox-manager, and its files.

use chrono::{DateTime, Utc};
use futures::stream::BoxStream;

use crate::domain::agent::SandboxAccess;
use crate::domain::error::DomainResult;
use crate::domain::files::{ByteStream, ChangedFiles, Download, FileChange, FileEntry, Listing};
use crate::domain::session::{Network, SessionId};
use crate::domain::user::UserId;

/// The sandbox-manager, as far as sessions need it.
#[async_trait::async_trait]
pub trait SandboxGateway: Send + Sync {
    /// The sandbox of `session` (a session's id, or a sub-agent's own key), claimed or
    /// created, once it answers. One that does not run yet is made with `network` (the
    /// network of the session it works for; `None`: the manager's default); one that runs
    /// keeps its own.
    async fn acquire(
        &self,
        session: &SessionId,
        owner: &UserId,
        network: Option<Network>,
    ) -> DomainResult<SandboxAccess>;
    /// The session's sandbox when one runs and answers; never creates one.
    async fn find(&self, session: &SessionId) -> DomainResult<Option<SandboxAccess>>;
    /// Removes the session's sandbox, if it has one.
    async fn release(&self, session: &SessionId) -> DomainResult<()>;
}

/// The sandbox's file system. Errors: `NotFound` for a missing path, `Invalid` for a
/// path the sandbox refuses, `RangeNotSatisfiable` for a range outside the file,
/// `Conflict` when the target exists, `TooLarge`, `Unavailable` when the sandbox does
/// not answer.
#[async_trait::async_trait]
pub trait SandboxFiles: Send + Sync {
    async fn list(&self, sandbox: &SandboxAccess, path: &str) -> DomainResult<Listing>;
    async fn stat(&self, sandbox: &SandboxAccess, path: &str) -> DomainResult<FileEntry>;
    /// `range` is an HTTP `Range` value such as `bytes=0-99`.
    async fn download(
        &self,
        sandbox: &SandboxAccess,
        path: &str,
        range: Option<&str>,
    ) -> DomainResult<Download>;
    /// A folder as a zip archive.
    async fn archive(&self, sandbox: &SandboxAccess, path: &str) -> DomainResult<Download>;
    async fn upload(
        &self,
        sandbox: &SandboxAccess,
        path: &str,
        overwrite: bool,
        body: ByteStream,
    ) -> DomainResult<FileEntry>;
    /// Folders with all they hold.
    async fn delete(&self, sandbox: &SandboxAccess, path: &str) -> DomainResult<()>;
    /// At most `max` files of the workspace (not in hidden folders) modified at or after
    /// `since`.
    async fn changed_since(
        &self,
        sandbox: &SandboxAccess,
        since: DateTime<Utc>,
        max: u32,
    ) -> DomainResult<ChangedFiles>;
    /// Changes under `path` (recursively) until the stream is dropped or the sandbox goes.
    async fn watch(
        &self,
        sandbox: &SandboxAccess,
        path: &str,
    ) -> DomainResult<BoxStream<'static, FileChange>>;
}
