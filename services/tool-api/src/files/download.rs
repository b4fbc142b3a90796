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
//!
//! A file that does not tell its size is read to its end instead, one plain `read` at a
//! time: those of the kernel's pseudo filesystems (`/proc`, `/sys`, cgroups) report 0 or a
//! page whatever they hold, and a size of 0 elsewhere may be a virtual file too (an empty
//! one simply ends at once). Such a download has no length to announce, and is cut off
//! with an error past [`UNSIZED_MAX_BYTES`], should the file never end.

use std::fs::File;
use std::future::Future;
use std::io::{self, Read};
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
/// Bytes asked for per `read` of a file that does not tell its size; such files are small.
const UNSIZED_CHUNK_BYTES: usize = 64 << 10;
/// Most bytes sent of a file that does not tell its size.
pub const UNSIZED_MAX_BYTES: u64 = 64 << 20;

/// An open file, ready to be streamed.
pub struct Download {
    /// The file name, for the client to save it under.
    pub name: String,
    pub content_type: &'static str,
    /// Its size, unless it does not tell (see the module documentation).
    pub size: Option<u64>,
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
        let size = (size > 0 && !on_pseudo_filesystem(&file)).then_some(size);
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
    /// `len` bytes from offset `first` of a file that tells its size. Should the file
    /// shrink meanwhile, the stream ends with an `UnexpectedEof` error rather than short,
    /// so the client sees the response as incomplete.
    pub fn into_stream(self, first: u64, len: u64) -> FileChunks {
        self.chunks(first, Some(first.saturating_add(len)))
    }

    /// The file up to its end, for one that does not tell its size; past
    /// [`UNSIZED_MAX_BYTES`] the stream ends with an error.
    pub fn into_stream_to_end(self) -> FileChunks {
        self.chunks(0, None)
    }

    fn chunks(self, first: u64, end: Option<u64>) -> FileChunks {
        let mut chunks = FileChunks {
            file: Arc::new(self.file),
            next: first,
            end,
            done: false,
            reading: None,
        };
        chunks.read_ahead();
        chunks
    }
}

/// Whether `file` lies on one of the kernel's pseudo filesystems, whose files report a
/// size (0, or a page) unrelated to what reading them gives.
fn on_pseudo_filesystem(file: &File) -> bool {
    use nix::sys::statfs::{
        fstatfs, CGROUP2_SUPER_MAGIC, CGROUP_SUPER_MAGIC, DEBUGFS_MAGIC, PROC_SUPER_MAGIC, SECURITYFS_MAGIC,
        SYSFS_MAGIC, TRACEFS_MAGIC,
    };
    let pseudo = [
        PROC_SUPER_MAGIC,
        SYSFS_MAGIC,
        CGROUP_SUPER_MAGIC,
        CGROUP2_SUPER_MAGIC,
        DEBUGFS_MAGIC,
        TRACEFS_MAGIC,
        SECURITYFS_MAGIC,
    ];
    fstatfs(file).is_ok_and(|fs| pseudo.contains(&fs.filesystem_type()))
}

/// The chunks of a byte range of a file, or of all of it up to its end; see the module
/// documentation.
pub struct FileChunks {
    file: Arc<File>,
    /// Offset of the first byte not yet asked for; read to the end, the bytes read so far.
    next: u64,
    /// Where the range ends; `None` to read to the end of the file.
    end: Option<u64>,
    /// The end was reached, or an error sent: nothing more to read.
    done: bool,
    /// The read in flight, if any.
    reading: Option<JoinHandle<io::Result<Bytes>>>,
}

impl FileChunks {
    /// Starts reading the next chunk, if any is left.
    fn read_ahead(&mut self) {
        if self.done {
            return;
        }
        let file = self.file.clone();
        let read = match self.end {
            Some(end) if self.next >= end => return,
            Some(end) => {
                let offset = self.next;
                let len = (end - offset).min(CHUNK_BYTES);
                self.next += len;
                tokio::task::spawn_blocking(move || read_chunk(&file, offset, len))
            }
            None => tokio::task::spawn_blocking(move || read_some(&file)),
        };
        self.reading = Some(read);
    }

    /// A chunk read to the end of the file counted: `None` at the end, an error past
    /// [`UNSIZED_MAX_BYTES`]. A chunk of a range passes as it is.
    fn count(&mut self, chunk: Bytes) -> io::Result<Option<Bytes>> {
        if self.end.is_some() {
            return Ok(Some(chunk));
        }
        if chunk.is_empty() {
            self.done = true;
            return Ok(None);
        }
        self.next += chunk.len() as u64;
        if self.next > UNSIZED_MAX_BYTES {
            return Err(io::Error::new(
                io::ErrorKind::FileTooLarge,
                format!(
                    "the file goes on past {} MiB, the most sent of a file that does not tell its size",
                    UNSIZED_MAX_BYTES >> 20
                ),
            ));
        }
        Ok(Some(chunk))
    }
}

/// Exactly `len` bytes at `offset`.
fn read_chunk(file: &File, offset: u64, len: u64) -> io::Result<Bytes> {
    let len = usize::try_from(len).map_err(io::Error::other)?;
    let mut buf = BytesMut::zeroed(len);
    file.read_exact_at(&mut buf, offset)?;
    Ok(buf.freeze())
}

/// What one `read` gives from where the file stands; empty at its end.
fn read_some(mut file: &File) -> io::Result<Bytes> {
    let mut buf = BytesMut::zeroed(UNSIZED_CHUNK_BYTES);
    let read = loop {
        match file.read(&mut buf) {
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            result => break result?,
        }
    };
    buf.truncate(read);
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
        match chunk.and_then(|chunk| self.count(chunk)) {
            Ok(Some(chunk)) => {
                self.read_ahead();
                Poll::Ready(Some(Ok(chunk)))
            }
            Ok(None) => Poll::Ready(None),
            Err(err) => {
                // Nothing more after an error.
                self.done = true;
                Poll::Ready(Some(Err(err)))
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let in_flight = usize::from(self.reading.is_some());
        let Some(end) = self.end else {
            return (in_flight, None);
        };
        let left = (end - self.next).div_ceil(CHUNK_BYTES);
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
    use futures::StreamExt;

    use super::*;

    /// Every chunk of a stream, and the error it ended with, if any.
    async fn drain(mut chunks: FileChunks) -> (Vec<u8>, Option<io::Error>) {
        let mut body = Vec::new();
        while let Some(chunk) = chunks.next().await {
            match chunk {
                Ok(chunk) => body.extend_from_slice(&chunk),
                Err(err) => return (body, Some(err)),
            }
        }
        (body, None)
    }

    #[tokio::test]
    async fn files_that_do_not_tell_their_size_are_read_to_their_end() {
        let workspace = Workspace::new("/".into());
        let status = open_download(&workspace, "/proc/self/status").await.unwrap();
        assert_eq!(status.size, None, "procfs reports 0 bytes");
        let (body, err) = drain(status.into_stream_to_end()).await;
        assert!(err.is_none(), "{err:?}");
        assert!(String::from_utf8_lossy(&body).contains("\nPid:"));

        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("empty"), "").unwrap();
        std::fs::write(dir.path().join("full"), "hello").unwrap();
        let open = |name: &str| {
            let path = dir.path().join(name).display().to_string();
            let workspace = &workspace;
            async move { open_download(workspace, &path).await.unwrap() }
        };
        let empty = open("empty").await;
        assert_eq!(empty.size, None);
        assert_eq!(drain(empty.into_stream_to_end()).await.0, b"");
        assert_eq!(open("full").await.size, Some(5));
    }

    #[tokio::test]
    async fn a_file_that_does_not_end_is_cut_off_with_an_error() {
        let workspace = Workspace::new("/".into());
        let status = open_download(&workspace, "/proc/self/status").await.unwrap();
        let mut chunks = status.into_stream_to_end();
        // As if all but one byte allowed had been sent already.
        chunks.next = UNSIZED_MAX_BYTES - 1;
        let (_, err) = drain(chunks).await;
        assert_eq!(err.map(|err| err.kind()), Some(io::ErrorKind::FileTooLarge));
    }

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
