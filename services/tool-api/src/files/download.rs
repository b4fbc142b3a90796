//! `download`: a file as a stream of chunks, whole or from an offset, so memory stays flat
//! whatever its size.
//!
//! Each chunk is read with one positioned read (`pread`) straight into the buffer that
//! hyper then hands to `writev`: the kernel copies the page cache into it and out of it to
//! the socket, and nothing in between copies it again (`tokio::fs::File` read into its own
//! buffer and copied from there). One hop to the blocking pool per MiB, not per 64 KiB.
//! The next chunk is read while the current one is being sent, so the disk and the socket
//! overlap. At most two chunks are held per download (the one being sent, the one being
//! read), and a client that goes away drops the stream, which drops both; the read still in
//! flight finishes on the blocking pool and is thrown away.
//!
//! Not `sendfile(2)`/`splice(2)`: hyper only takes bodies as `Buf` chunks and never hands
//! out its socket (hyperium/hyper#3026, tower-rs/tower-http#381). Not a memory map either:
//! a file truncated while mapped turns the next access into `SIGBUS`, which would take the
//! whole server down.

use std::fs::File;
use std::future::Future;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use bytes::{Bytes, BytesMut};
use futures::Stream;
use tokio::task::JoinHandle;

use super::{blocking, require_file};
use crate::error::{ToolError, ToolResult};
use crate::paths::Workspace;

/// Bytes read per blocking-pool hop. Large enough that the hop is cheap next to the copy,
/// small enough that two in flight keep memory flat.
const CHUNK_BYTES: u64 = 1 << 20;

/// An open file, ready to be streamed.
pub struct Download {
    /// The file name, for the client to save it under.
    pub name: String,
    pub content_type: &'static str,
    pub size: u64,
    file: File,
}

pub async fn open_download(workspace: &Workspace, raw_path: &str) -> ToolResult<Download> {
    let path = workspace.resolve(raw_path)?;
    let (file, size, path) = blocking(move || {
        let io_error = |err| ToolError::io(err, &path);
        // Checked before opening: opening a FIFO would wait for a writer.
        require_file(&std::fs::metadata(&path).map_err(io_error)?, &path)?;
        let file = File::open(&path).map_err(io_error)?;
        let size = file.metadata().map_err(io_error)?.len();
        Ok((file, size, path))
    })
    .await?;
    Ok(Download {
        name: path
            .file_name()
            .map_or_else(|| "download".into(), |name| name.to_string_lossy().into_owned()),
        content_type: content_type(&path),
        size,
        file,
    })
}

impl Download {
    /// `len` bytes from offset `first`. Should the file shrink meanwhile, the stream ends
    /// with an `UnexpectedEof` error rather than short, so the client sees the response
    /// as incomplete.
    pub fn into_stream(self, first: u64, len: u64) -> FileChunks {
        let mut chunks = FileChunks {
            file: Arc::new(self.file),
            next: first,
            end: first.saturating_add(len),
            reading: None,
        };
        chunks.read_ahead();
        chunks
    }
}

/// The chunks of a byte range of a file; see the module documentation.
pub struct FileChunks {
    file: Arc<File>,
    /// Offset of the first byte not yet asked for.
    next: u64,
    end: u64,
    /// The read in flight, if any.
    reading: Option<JoinHandle<io::Result<Bytes>>>,
}

impl FileChunks {
    /// Starts reading the next chunk, if any is left.
    fn read_ahead(&mut self) {
        if self.next >= self.end {
            return;
        }
        let offset = self.next;
        let len = (self.end - offset).min(CHUNK_BYTES);
        self.next += len;
        let file = self.file.clone();
        self.reading = Some(tokio::task::spawn_blocking(move || {
            read_chunk(&file, offset, len)
        }));
    }
}

/// Exactly `len` bytes at `offset`.
fn read_chunk(file: &File, offset: u64, len: u64) -> io::Result<Bytes> {
    let len = usize::try_from(len).map_err(io::Error::other)?;
    let mut buf = BytesMut::zeroed(len);
    file.read_exact_at(&mut buf, offset)?;
    Ok(buf.freeze())
}

impl Stream for FileChunks {
    type Item = io::Result<Bytes>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let Some(reading) = self.reading.as_mut() else {
            return Poll::Ready(None);
        };
        let result = ready!(Pin::new(reading).poll(cx));
        self.reading = None;
        let chunk = result.unwrap_or_else(|err| Err(io::Error::other(err)));
        match chunk {
            Ok(chunk) => {
                self.read_ahead();
                Poll::Ready(Some(Ok(chunk)))
            }
            Err(err) => {
                // Nothing more after an error.
                self.next = self.end;
                Poll::Ready(Some(Err(err)))
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let in_flight = usize::from(self.reading.is_some());
        let left = (self.end - self.next).div_ceil(CHUNK_BYTES);
        let left = usize::try_from(left).unwrap_or(usize::MAX);
        (in_flight, Some(in_flight.saturating_add(left)))
    }
}

/// A MIME type from the file name's extension, for the types a browser shows or plays
/// itself; everything else is a plain download.
fn content_type(path: &Path) -> &'static str {
    let extension = path
        .extension()
        .map(|ext| ext.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "txt" | "log" | "md" | "rs" | "py" | "sh" | "toml" | "yaml" | "yml" | "ts" => {
            "text/plain; charset=utf-8"
        }
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "csv" => "text/csv; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "xml" => "application/xml",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        "gz" | "tgz" => "application/gzip",
        "wasm" => "application/wasm",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "mp3" => "audio/mpeg",
        "wav" => "audio/wav",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_come_from_the_extension() {
        assert_eq!(
            content_type(Path::new("/a/notes.TXT")),
            "text/plain; charset=utf-8"
        );
        assert_eq!(content_type(Path::new("shot.png")), "image/png");
        assert_eq!(content_type(Path::new("archive.tar.gz")), "application/gzip");
        assert_eq!(content_type(Path::new("Makefile")), "application/octet-stream");
        assert_eq!(content_type(Path::new("data.bin")), "application/octet-stream");
    }
}
