//! Directory watches as E2B has them: a stream of events while a `WatchDir` call lasts, or
//! a watcher with an id whose events a client collects with `GetWatcherEvents` until it
//! removes it. Events come from inotify through `notify`; names are relative to the
//! watched directory. A file tool-api writes atomically (a staging file renamed over it)
//! shows as created, its mode set, and written: the events E2B's envd gives for a file it
//! writes, which it creates, hands to the user (a `chown`, seen as CHMOD) and fills.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use notify::event::{ModifyKind, RenameMode};
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use serde::Serialize;
use tokio::sync::mpsc;

use super::entry::{describe, EntryInfo};
use super::error::{EnvdError, EnvdResult};
use crate::files::is_staging_name;

/// Events held for a slow stream before the watch waits for it.
const STREAM_BUFFER: usize = 1024;
/// Events a watcher keeps between two collections; older ones are dropped past it.
const WATCHER_KEEPS: usize = 10_000;
/// Watchers open at once, at most.
const MAX_WATCHERS: usize = 256;

/// One change, as `FilesystemEvent`.
#[derive(Debug, Clone, Serialize)]
pub struct FsEvent {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry: Option<EntryInfo>,
}

/// A running watch; dropping it ends the watch.
pub struct Watch {
    events: mpsc::Receiver<FsEvent>,
    _watcher: RecommendedWatcher,
}

impl Watch {
    /// The next change; a method, so that whoever waits holds the whole watch.
    pub async fn next(&mut self) -> Option<FsEvent> {
        self.events.recv().await
    }
}

/// Starts watching the directory `dir` (its whole tree with `recursive`); with
/// `include_entry` each event carries the entry it is about, when it still exists.
pub fn watch(dir: PathBuf, recursive: bool, include_entry: bool) -> EnvdResult<Watch> {
    super::fs::require_dir(&dir)?;
    let (sender, events) = mpsc::channel(STREAM_BUFFER);
    let root = dir.clone();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        for (path, kind) in translate(event) {
            let name = path.strip_prefix(&root).unwrap_or(&path).display().to_string();
            let entry = include_entry.then(|| describe(&path).ok()).flatten();
            // The watcher's own thread: blocking until the stream takes it is fine.
            if sender.blocking_send(FsEvent { name, kind, entry }).is_err() {
                return;
            }
        }
    })
    .map_err(|err| watch_error(err, &dir))?;
    let mode = if recursive {
        RecursiveMode::Recursive
    } else {
        RecursiveMode::NonRecursive
    };
    watcher.watch(&dir, mode).map_err(|err| watch_error(err, &dir))?;
    Ok(Watch {
        events,
        _watcher: watcher,
    })
}

/// E2B's event types for one notify event.
fn translate(event: notify::Event) -> Vec<(PathBuf, &'static str)> {
    let staging = |path: &PathBuf| path.file_name().is_some_and(is_staging_name);
    let kinds: &[&'static str] = match event.kind {
        EventKind::Create(_) | EventKind::Modify(ModifyKind::Name(RenameMode::To)) => &["EVENT_TYPE_CREATE"],
        EventKind::Modify(ModifyKind::Name(RenameMode::From)) => &["EVENT_TYPE_RENAME"],
        // A staging file moved into place (after its CREATE): its mode, set as it was made,
        // and its content are what was written.
        EventKind::Modify(ModifyKind::Name(RenameMode::Both)) => {
            return match event.paths.as_slice() {
                [from, to] if staging(from) && !staging(to) => ["EVENT_TYPE_CHMOD", "EVENT_TYPE_WRITE"]
                    .map(|kind| (to.clone(), kind))
                    .to_vec(),
                _ => Vec::new(),
            };
        }
        EventKind::Modify(ModifyKind::Metadata(_)) => &["EVENT_TYPE_CHMOD"],
        EventKind::Modify(_) => &["EVENT_TYPE_WRITE"],
        EventKind::Remove(_) => &["EVENT_TYPE_REMOVE"],
        EventKind::Access(_) | EventKind::Any | EventKind::Other => &[],
    };
    event
        .paths
        .into_iter()
        .filter(|path| !staging(path))
        .flat_map(|path| kinds.iter().map(move |kind| (path.clone(), *kind)))
        .collect()
}

fn watch_error(err: notify::Error, path: &Path) -> EnvdError {
    match err.kind {
        notify::ErrorKind::Io(err) => EnvdError::io(err, path),
        notify::ErrorKind::PathNotFound => {
            EnvdError::not_found(format!("{}: no such directory", path.display()))
        }
        notify::ErrorKind::MaxFilesWatch => EnvdError::ResourceExhausted(format!(
            "{}: the system's limit on watched directories is reached",
            path.display()
        )),
        _ => EnvdError::Internal(anyhow::Error::new(err).context(format!("watching {}", path.display()))),
    }
}

/// A watcher's events, gathered until collected.
struct Collected {
    events: Arc<Mutex<Vec<FsEvent>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Collected {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The watchers made with `CreateWatcher`, by id.
#[derive(Default)]
pub struct Watchers {
    open: Mutex<HashMap<String, Collected>>,
}

impl Watchers {
    /// Keeps `watch`'s events under a new id.
    pub fn add(&self, mut watch: Watch) -> EnvdResult<String> {
        let mut open = lock(&self.open);
        if open.len() >= MAX_WATCHERS {
            return Err(EnvdError::ResourceExhausted(format!(
                "{MAX_WATCHERS} watchers are open; remove some first"
            )));
        }
        let events = Arc::new(Mutex::new(Vec::new()));
        let gathered = events.clone();
        let task = tokio::spawn(async move {
            while let Some(event) = watch.next().await {
                let mut gathered = lock(&gathered);
                if gathered.len() >= WATCHER_KEEPS {
                    gathered.remove(0);
                }
                gathered.push(event);
            }
        });
        let id = new_id()?;
        open.insert(id.clone(), Collected { events, task });
        Ok(id)
    }

    /// The events since the last collection.
    pub fn take(&self, id: &str) -> EnvdResult<Vec<FsEvent>> {
        let open = lock(&self.open);
        let collected = open.get(id).ok_or_else(|| unknown(id))?;
        let events = std::mem::take(&mut *lock(&collected.events));
        Ok(events)
    }

    pub fn remove(&self, id: &str) -> EnvdResult<()> {
        lock(&self.open).remove(id).map(drop).ok_or_else(|| unknown(id))
    }
}

fn unknown(id: &str) -> EnvdError {
    EnvdError::not_found(format!("watcher {id:?} not found"))
}

/// An id no one guesses: 128 bits from the kernel's randomness.
fn new_id() -> EnvdResult<String> {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut random| random.read_exact(&mut bytes))
        .map_err(|err| EnvdError::Internal(anyhow::Error::new(err).context("reading /dev/urandom")))?;
    Ok(service_kit::hex(&bytes))
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
