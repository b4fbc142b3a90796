//! `archive`: a directory streamed as one zip or tar.gz.
//!
//! A blocking task writes the archive into a bounded channel whose other end is the
//! response body. Nothing is built in memory or on disk, a slow client slows the writer
//! down, and a client that goes away closes the channel, which ends the writer at its next
//! write. A failure halfway is sent down the channel as an error, so the transfer breaks
//! visibly instead of ending in a short archive that looks complete. What may go in
//! (links that stay inside, file contents up to a cap checked before anything is sent)
//! is [`contents`]'s to say.

mod channel;
mod contents;
mod tarball;
mod zipped;

use std::io;
use std::path::PathBuf;

use bytes::Bytes;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tool_api_contract::files::ArchiveFormat;

use self::channel::ChannelWriter;
use self::contents::Contents;
use super::{blocking, display, require_dir};
use crate::config::Limits;
use crate::error::{ToolError, ToolResult};
use crate::paths::Workspace;

/// Chunks in flight between the writer and the response (of up to 64 KiB each).
const CHANNEL_CHUNKS: usize = 8;

/// An archive being written.
pub struct Archive {
    /// The file name, for the client to save it under.
    pub name: String,
    pub content_type: &'static str,
    pub stream: ReceiverStream<io::Result<Bytes>>,
}

/// The archive of the folder at `raw_path`; refused (`payload_too_large`) before
/// anything is sent when its files hold more than [`max_bytes`] allows.
pub async fn archive(
    workspace: &Workspace,
    limits: &Limits,
    raw_path: &str,
    format: ArchiveFormat,
) -> ToolResult<Archive> {
    let root = workspace.resolve(raw_path)?;
    let meta = tokio::fs::metadata(&root)
        .await
        .map_err(|err| ToolError::io(err, &root))?;
    require_dir(&meta, &root)?;
    // Entries sit under a directory named like the archived one, as `zip -r` and `tar`
    // make them; the filesystem root has no name, so its entries sit at the top.
    let base = root.file_name().map(PathBuf::from).unwrap_or_default();
    let stem = if base.as_os_str().is_empty() {
        "root".to_owned()
    } else {
        display(&base)
    };
    let max_bytes = max_bytes(limits);
    let contents = blocking(move || {
        let contents =
            Contents::new(root.clone(), base, max_bytes).map_err(|err| ToolError::io(err, &root))?;
        contents.check_size()?;
        Ok(contents)
    })
    .await?;
    let (sender, receiver) = mpsc::channel(CHANNEL_CHUNKS);
    let (name, content_type) = match format {
        ArchiveFormat::Zip => (format!("{stem}.zip"), "application/zip"),
        ArchiveFormat::TarGz => (format!("{stem}.tar.gz"), "application/gzip"),
    };
    tokio::task::spawn_blocking(move || {
        let writer = ChannelWriter::new(sender.clone());
        let written = match format {
            ArchiveFormat::Zip => zipped::write(&contents, writer),
            ArchiveFormat::TarGz => tarball::write(&contents, writer),
        };
        if let Err(err) = written {
            if sender.is_closed() {
                tracing::debug!(root = %contents.root().display(), "archive abandoned by the client");
            } else {
                tracing::warn!(root = %contents.root().display(), error = %err, "archive failed halfway");
                let _ = sender.blocking_send(Err(err));
            }
        }
    });
    Ok(Archive {
        name,
        content_type,
        stream: ReceiverStream::new(receiver),
    })
}

/// Most bytes of file content one archive may hold: `archive_max_bytes`, or the storage
/// quota when that is smaller (a workspace within its quota holds no more, unless in
/// sparse files or hard links).
fn max_bytes(limits: &Limits) -> u64 {
    limits
        .archive_max_bytes
        .min(limits.storage_quota_bytes.unwrap_or(u64::MAX))
}
