//! `archive`: a directory streamed as one zip or tar.gz.
//!
//! A blocking task writes the archive into a bounded channel whose other end is the
//! response body. Nothing is built in memory or on disk, a slow client slows the writer
//! down, and a client that goes away closes the channel, which ends the writer at its next
//! write. A failure halfway is sent down the channel as an error, so the transfer breaks
//! visibly instead of ending in a short archive that looks complete.

mod channel;
mod tarball;
mod zipped;

use std::io;
use std::path::{Path, PathBuf};

use bytes::Bytes;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tool_api_contract::files::ArchiveFormat;
use walkdir::{DirEntry, WalkDir};

use self::channel::ChannelWriter;
use super::{display, require_dir};
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

pub async fn archive(workspace: &Workspace, raw_path: &str, format: ArchiveFormat) -> ToolResult<Archive> {
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
    let (sender, receiver) = mpsc::channel(CHANNEL_CHUNKS);
    let (name, content_type) = match format {
        ArchiveFormat::Zip => (format!("{stem}.zip"), "application/zip"),
        ArchiveFormat::TarGz => (format!("{stem}.tar.gz"), "application/gzip"),
    };
    tokio::task::spawn_blocking(move || {
        let writer = ChannelWriter::new(sender.clone());
        let written = match format {
            ArchiveFormat::Zip => zipped::write(&root, &base, writer),
            ArchiveFormat::TarGz => tarball::write(&root, &base, writer),
        };
        if let Err(err) = written {
            if sender.is_closed() {
                tracing::debug!(root = %root.display(), "archive abandoned by the client");
            } else {
                tracing::warn!(root = %root.display(), error = %err, "archive failed halfway");
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

/// What goes into the archive, in name order: each entry under `root` with its name in
/// the archive (`base` joined with its path relative to `root`). Entries that cannot be
/// read are left out and logged.
fn entries<'a>(root: &'a Path, base: &'a Path) -> impl Iterator<Item = (DirEntry, PathBuf)> + 'a {
    let min_depth = if base.as_os_str().is_empty() { 1 } else { 0 };
    WalkDir::new(root)
        .min_depth(min_depth)
        .sort_by_file_name()
        .into_iter()
        .filter_map(|entry| {
            entry
                .inspect_err(|err| tracing::warn!(error = %err, "left out of the archive"))
                .ok()
        })
        .map(move |entry| {
            let relative = entry.path().strip_prefix(root).unwrap_or(entry.path());
            // Joining an empty path would add a trailing `/` to the root's own entry.
            let name = if relative.as_os_str().is_empty() {
                base.to_path_buf()
            } else {
                base.join(relative)
            };
            (entry, name)
        })
}

/// Opens a file to archive; `None` (logged) when it cannot be read, so one unreadable
/// file does not cost the whole archive.
fn open_entry(path: &Path) -> Option<std::fs::File> {
    std::fs::File::open(path)
        .inspect_err(|err| tracing::warn!(path = %path.display(), error = %err, "left out of the archive"))
        .ok()
}
