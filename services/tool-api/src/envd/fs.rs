//! The calls of `filesystem.Filesystem` that act at once: Stat, MakeDir, Move, ListDir and
//! Remove, on absolute paths (see [`super::Envd::resolve`]). They run on tokio's blocking
//! pool.

use std::path::{Path, PathBuf};

use super::entry::{describe, describe_with, EntryInfo};
use super::error::{EnvdError, EnvdResult};

async fn blocking<T: Send + 'static>(work: impl FnOnce() -> EnvdResult<T> + Send + 'static) -> EnvdResult<T> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|err| EnvdError::Internal(anyhow::Error::new(err).context("a filesystem task failed")))?
}

pub async fn stat(path: PathBuf) -> EnvdResult<EntryInfo> {
    blocking(move || describe(&path)).await
}

/// Creates a directory and its parents; one that exists is `already_exists`.
pub async fn make_dir(path: PathBuf) -> EnvdResult<EntryInfo> {
    blocking(move || {
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => {
                return Err(EnvdError::AlreadyExists(format!(
                    "directory {} already exists",
                    path.display()
                )))
            }
            Ok(_) => {
                return Err(EnvdError::invalid(format!(
                    "{} exists and is not a directory",
                    path.display()
                )))
            }
            Err(_) => {}
        }
        std::fs::create_dir_all(&path).map_err(|err| EnvdError::io(err, &path))?;
        describe(&path)
    })
    .await
}

/// Renames `source` to `destination`, creating the destination's parents.
pub async fn move_path(source: PathBuf, destination: PathBuf) -> EnvdResult<EntryInfo> {
    blocking(move || {
        std::fs::symlink_metadata(&source).map_err(|err| EnvdError::io(err, &source))?;
        if let Some(parent) = destination.parent() {
            std::fs::create_dir_all(parent).map_err(|err| EnvdError::io(err, parent))?;
        }
        std::fs::rename(&source, &destination).map_err(|err| EnvdError::io(err, &destination))?;
        describe(&destination)
    })
    .await
}

/// The entries under the directory `path`, `depth` levels down (at least one).
pub async fn list_dir(path: PathBuf, depth: u32) -> EnvdResult<Vec<EntryInfo>> {
    blocking(move || {
        let meta = std::fs::metadata(&path).map_err(|err| EnvdError::io(err, &path))?;
        if !meta.is_dir() {
            return Err(EnvdError::invalid(format!(
                "{} is not a directory",
                path.display()
            )));
        }
        let walk = walkdir::WalkDir::new(&path)
            .min_depth(1)
            .max_depth(depth.max(1) as usize)
            .sort_by_file_name();
        let mut entries = Vec::new();
        for found in walk {
            // A directory that vanished or cannot be read while walking is left out.
            let Ok(found) = found else { continue };
            let Ok(meta) = found.metadata() else { continue };
            entries.push(describe_with(found.path(), &meta));
        }
        Ok(entries)
    })
    .await
}

/// Removes a file, a symlink, or a directory with everything in it.
pub async fn remove(path: PathBuf) -> EnvdResult<()> {
    blocking(move || {
        // Nothing there is removed already, as E2B's own daemon answers.
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(err) => return Err(EnvdError::io(err, &path)),
        };
        let removed = if meta.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        removed.map_err(|err| EnvdError::io(err, &path))
    })
    .await
}

/// Checks that `path` is a directory one can watch.
pub fn require_dir(path: &Path) -> EnvdResult<()> {
    let meta = std::fs::metadata(path).map_err(|err| EnvdError::io(err, path))?;
    if meta.is_dir() {
        Ok(())
    } else {
        Err(EnvdError::invalid(format!(
            "{} is not a directory",
            path.display()
        )))
    }
}
