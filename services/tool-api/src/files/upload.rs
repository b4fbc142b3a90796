//! `upload`: a request body streamed into a file. The bytes go to a staging file beside the
//! target (see [`super::staging`]) that is renamed into place once the body is complete, so
//! a body over the size limit, or one that breaks off because the client went away, leaves
//! neither a partial target nor a stray temporary file.
//!
//! A refused upload is not simply abandoned mid-body: the server would close a connection
//! with unread data, the kernel would answer the still-sending client with a reset, and a
//! reset discards the 413 the client has not read yet. So the rest of the body is read and
//! thrown away, within bounds, before the refusal is sent.

use std::fmt::Display;
use std::time::Duration;

use bytes::Bytes;
use futures::{Stream, StreamExt};
use tokio::io::{AsyncWriteExt, BufWriter};
use tool_api_contract::files::{UploadQuery, UploadResponse};
use tool_api_contract::ErrorCode;

use super::staging::Staged;
use super::{already_exists, blocking, display};
use crate::error::{ToolError, ToolResult};
use crate::paths::Workspace;

/// Bytes gathered before each write to the file, to keep the writes few and large.
const WRITE_BUFFER_BYTES: usize = 256 << 10;

/// How much of a refused body is read and discarded at most, and for how long.
const DRAIN_MAX_BYTES: u64 = 8 << 20;
const DRAIN_MAX_TIME: Duration = Duration::from_secs(2);

/// Streams `body` into the file named by `query`. `declared_len` (the `Content-Length`)
/// lets an upload that is too large be refused before any of it is read.
pub async fn upload<S, E>(
    workspace: &Workspace,
    max_bytes: u64,
    query: UploadQuery,
    declared_len: Option<u64>,
    mut body: S,
) -> ToolResult<UploadResponse>
where
    S: Stream<Item = Result<Bytes, E>> + Unpin,
    E: Display,
{
    let path = workspace.resolve(&query.path)?;
    let too_large = || {
        ToolError::new(
            ErrorCode::PayloadTooLarge,
            format!("the upload is larger than the limit of {max_bytes} bytes"),
        )
    };
    if declared_len.is_some_and(|len| len > max_bytes) {
        drain(&mut body).await;
        return Err(too_large());
    }
    let overwrite = query.overwrite;
    let staged = blocking({
        let path = path.clone();
        move || {
            // Checked again, atomically, when the file is moved into place; this check
            // only spares the client sending a body in vain.
            if !overwrite && std::fs::symlink_metadata(&path).is_ok() {
                return Err(already_exists(&path));
            }
            Staged::create(&path)
        }
    })
    .await?;
    let io_error = |err| ToolError::io(err, &path);
    let file = staged.file().try_clone().map_err(io_error)?;
    let mut writer = BufWriter::with_capacity(WRITE_BUFFER_BYTES, tokio::fs::File::from_std(file));
    let mut size = 0u64;
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|err| {
            ToolError::new(
                ErrorCode::MalformedRequest,
                format!("the upload body broke off: {err}"),
            )
        })?;
        size += chunk.len() as u64;
        if size > max_bytes {
            drop(staged); // removes the staging file now, not after the drain
            drain(&mut body).await;
            return Err(too_large());
        }
        writer.write_all(&chunk).await.map_err(io_error)?;
    }
    // Flushing also waits for the file's last background write.
    writer.flush().await.map_err(io_error)?;
    blocking(move || staged.commit(overwrite)).await?;
    Ok(UploadResponse {
        path: display(&path),
        size,
    })
}

/// Reads and discards what is left of a refused body, within [`DRAIN_MAX_BYTES`] and
/// [`DRAIN_MAX_TIME`].
async fn drain<S, E>(body: &mut S)
where
    S: Stream<Item = Result<Bytes, E>> + Unpin,
{
    let discard = async {
        let mut drained = 0u64;
        while let Some(Ok(chunk)) = body.next().await {
            drained += chunk.len() as u64;
            if drained > DRAIN_MAX_BYTES {
                break;
            }
        }
    };
    // Past the time limit the connection is closed with the body unread, as it would be
    // without draining.
    let _ = tokio::time::timeout(DRAIN_MAX_TIME, discard).await;
}
