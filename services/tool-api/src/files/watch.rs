//! `watch`: changes under a path as a stream of [`FileEvent`]s, from inotify (through the
//! `notify` crate). The watch lives as long as the stream: when the client goes away and the
//! stream is dropped, the watch ends.

use std::path::Path;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures::Stream;
use notify::event::{ModifyKind, RenameMode};
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use tokio::sync::mpsc;
use tool_api_contract::files::{FileEvent, FileEventKind};
use tool_api_contract::ErrorCode;

use super::staging::is_staging_name;
use super::{blocking, display};
use crate::error::{ToolError, ToolResult};
use crate::paths::Workspace;

/// Events held for a slow client before the watcher waits for it.
const EVENT_BUFFER: usize = 1024;

/// The events of one watch.
pub struct FileEvents {
    // Declared first so it is dropped first: a watcher thread blocked on a full channel
    // is released before the watcher is shut down.
    events: mpsc::Receiver<FileEvent>,
    _watcher: RecommendedWatcher,
}

impl Stream for FileEvents {
    type Item = FileEvent;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<FileEvent>> {
        self.events.poll_recv(cx)
    }
}

/// Starts watching `raw_path` (its whole tree with `recursive`). A missing path is an error
/// here, before any event is streamed.
pub async fn watch(workspace: &Workspace, raw_path: &str, recursive: bool) -> ToolResult<FileEvents> {
    let path = workspace.resolve(raw_path)?;
    let (sender, events) = mpsc::channel(EVENT_BUFFER);
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else {
            return; // e.g. an overflowed kernel queue; there is nothing to report per file
        };
        for file_event in translate(event) {
            // The watcher's own thread, outside the runtime: blocking here is fine.
            if sender.blocking_send(file_event).is_err() {
                return;
            }
        }
    })
    .map_err(|err| watch_error(err, &path))?;
    let mode = if recursive {
        RecursiveMode::Recursive
    } else {
        RecursiveMode::NonRecursive
    };
    // A recursive watch walks the tree to add a watch per directory.
    let watcher = blocking(move || {
        watcher
            .watch(&path, mode)
            .map_err(|err| watch_error(err, &path))?;
        Ok(watcher)
    })
    .await?;
    Ok(FileEvents {
        events,
        _watcher: watcher,
    })
}

/// The contract's events for one notify event. A rename is reported as its source removed
/// and its target created; our own staging files are left out, so a write shows as its
/// target being created.
fn translate(event: notify::Event) -> Vec<FileEvent> {
    let kind = match event.kind {
        EventKind::Create(_) | EventKind::Modify(ModifyKind::Name(RenameMode::To)) => {
            Some(FileEventKind::Created)
        }
        EventKind::Remove(_) | EventKind::Modify(ModifyKind::Name(RenameMode::From)) => {
            Some(FileEventKind::Removed)
        }
        // Repeats a `From` and a `To` that were reported on their own.
        EventKind::Modify(ModifyKind::Name(RenameMode::Both)) => None,
        EventKind::Modify(_) => Some(FileEventKind::Modified),
        EventKind::Access(_) | EventKind::Any | EventKind::Other => None,
    };
    let Some(kind) = kind else {
        return Vec::new();
    };
    event
        .paths
        .into_iter()
        .filter(|path| !path.file_name().is_some_and(is_staging_name))
        .map(|path| FileEvent {
            kind,
            path: display(&path),
        })
        .collect()
}

fn watch_error(err: notify::Error, path: &Path) -> ToolError {
    match err.kind {
        notify::ErrorKind::Io(err) => ToolError::io(err, path),
        notify::ErrorKind::PathNotFound => ToolError::io(std::io::ErrorKind::NotFound.into(), path),
        notify::ErrorKind::MaxFilesWatch => ToolError::new(
            ErrorCode::LimitReached,
            format!(
                "{}: the system's limit on watched directories is reached; watch a smaller tree",
                display(path)
            ),
        ),
        _ => ToolError::Internal(anyhow::Error::new(err).context(format!("watching {}", display(path)))),
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use notify::event::{CreateKind, DataChange, RemoveKind};

    use super::*;

    fn kinds(kind: EventKind, paths: &[&str]) -> Vec<(FileEventKind, String)> {
        let mut event = notify::Event::new(kind);
        event.paths = paths.iter().map(PathBuf::from).collect();
        translate(event).into_iter().map(|e| (e.kind, e.path)).collect()
    }

    #[test]
    fn notify_events_map_to_created_modified_removed() {
        use FileEventKind::*;
        assert_eq!(
            kinds(EventKind::Create(CreateKind::File), &["/w/a"]),
            [(Created, "/w/a".into())]
        );
        assert_eq!(
            kinds(EventKind::Modify(ModifyKind::Data(DataChange::Any)), &["/w/a"]),
            [(Modified, "/w/a".into())]
        );
        assert_eq!(
            kinds(EventKind::Remove(RemoveKind::File), &["/w/a"]),
            [(Removed, "/w/a".into())]
        );
        let rename = |mode| EventKind::Modify(ModifyKind::Name(mode));
        assert_eq!(
            kinds(rename(RenameMode::From), &["/w/a"]),
            [(Removed, "/w/a".into())]
        );
        assert_eq!(
            kinds(rename(RenameMode::To), &["/w/b"]),
            [(Created, "/w/b".into())]
        );
        assert!(kinds(rename(RenameMode::Both), &["/w/a", "/w/b"]).is_empty());
        assert!(kinds(EventKind::Access(notify::event::AccessKind::Any), &["/w/a"]).is_empty());
    }

    #[test]
    fn staging_files_are_left_out() {
        let event = EventKind::Create(CreateKind::File);
        assert!(kinds(event, &["/w/.sandpiper-x1y2.part"]).is_empty());
    }
}
