//! `download`: a file as a stream of chunks, whole or from an offset, so memory stays flat
//! whatever its size.

use std::io::SeekFrom;
use std::path::{Path, PathBuf};

use tokio::fs::File;
use tokio::io::{AsyncReadExt, AsyncSeekExt, Take};
use tokio_util::io::ReaderStream;

use super::require_file;
use crate::error::{ToolError, ToolResult};
use crate::paths::Workspace;

const CHUNK_BYTES: usize = 64 << 10;

/// An open file, ready to be streamed.
pub struct Download {
    /// The file name, for the client to save it under.
    pub name: String,
    pub content_type: &'static str,
    pub size: u64,
    file: File,
    path: PathBuf,
}

pub async fn open_download(workspace: &Workspace, raw_path: &str) -> ToolResult<Download> {
    let path = workspace.resolve(raw_path)?;
    let io_error = |err| ToolError::io(err, &path);
    // Checked before opening: opening a FIFO would wait for a writer.
    require_file(&tokio::fs::metadata(&path).await.map_err(io_error)?, &path)?;
    let file = File::open(&path).await.map_err(io_error)?;
    let size = file.metadata().await.map_err(io_error)?.len();
    Ok(Download {
        name: path
            .file_name()
            .map_or_else(|| "download".into(), |name| name.to_string_lossy().into_owned()),
        content_type: content_type(&path),
        size,
        file,
        path,
    })
}

impl Download {
    /// `len` bytes from offset `first`.
    pub async fn into_stream(mut self, first: u64, len: u64) -> ToolResult<ReaderStream<Take<File>>> {
        self.file
            .seek(SeekFrom::Start(first))
            .await
            .map_err(|err| ToolError::io(err, &self.path))?;
        Ok(ReaderStream::with_capacity(self.file.take(len), CHUNK_BYTES))
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
