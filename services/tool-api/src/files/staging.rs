//! New file content is put together in a temporary file beside its destination and renamed
//! over it at the end. The rename is atomic (same directory, same filesystem), so readers
//! and concurrent writers see the old file or a whole new one, never a torn mix; and a
//! write that fails or is abandoned halfway leaves the destination as it was.
//!
//! There is no fsync: the sandbox is disposable, and atomicity here is about concurrent
//! access, not power loss.

use std::ffi::OsStr;
use std::fs::{File, Permissions};
use std::os::fd::AsRawFd;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use super::{already_exists, display, require_file};
use crate::error::{ToolError, ToolResult};

/// Temporary files are hidden and recognisable, so a watch can leave them out.
const PREFIX: &str = ".sandpiper-";
const SUFFIX: &str = ".part";

/// The permission bits of a new file before the umask, as `open(2)` callers usually ask.
const NEW_FILE_MODE: u32 = 0o666;

/// Whether a file name is one of ours, mid-write.
pub fn is_staging_name(name: &OsStr) -> bool {
    let name = name.as_encoded_bytes();
    name.starts_with(PREFIX.as_bytes()) && name.ends_with(SUFFIX.as_bytes())
}

/// Creates the parent directories of `path`.
pub fn create_parents(path: &Path) -> ToolResult<()> {
    let parent = path
        .parent()
        .ok_or_else(|| ToolError::invalid(format!("{}: not a file path", display(path))))?;
    std::fs::create_dir_all(parent).map_err(|err| ToolError::io(err, parent))
}

/// A file being written beside its destination. Dropping it before [`Staged::commit`]
/// removes it.
pub struct Staged {
    temp: NamedTempFile,
    destination: PathBuf,
    shown: PathBuf,
}

impl Staged {
    /// Starts a new version of `path`, creating its parent directories. The new file gets
    /// the permission bits of the one it replaces. When `path` is a symlink, the file it
    /// points to is replaced and the link stays.
    pub fn create(path: &Path) -> ToolResult<Self> {
        // One `lstat` answers the common cases: a regular file (replaced where it is) or
        // nothing yet. Only a symlink needs resolving, to replace the file it points to.
        let (destination, found) = match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let destination = match std::fs::canonicalize(path) {
                    Ok(real) => real,
                    Err(_) => path.to_path_buf(),
                };
                (destination.clone(), std::fs::metadata(&destination))
            }
            found => (path.to_path_buf(), found),
        };
        let existing_mode = match found {
            Ok(meta) => {
                require_file(&meta, path)?;
                Some(meta.permissions().mode() & 0o7777)
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
            Err(err) => return Err(ToolError::io(err, path)),
        };
        if existing_mode.is_none() {
            // An existing file's directory exists.
            create_parents(&destination)?;
        }
        let dir = destination.parent().unwrap_or(Path::new("/"));
        let temp = tempfile::Builder::new()
            .prefix(PREFIX)
            .suffix(SUFFIX)
            .permissions(Permissions::from_mode(existing_mode.unwrap_or(NEW_FILE_MODE)))
            .tempfile_in(dir)
            .map_err(|err| ToolError::io(err, dir))?;
        if let Some(mode) = existing_mode {
            // Creation applied the umask; the old file's bits are wanted exactly.
            temp.as_file()
                .set_permissions(Permissions::from_mode(mode))
                .map_err(|err| ToolError::io(err, path))?;
        }
        Ok(Self {
            temp,
            destination,
            shown: path.to_path_buf(),
        })
    }

    pub fn file(&self) -> &File {
        self.temp.as_file()
    }

    /// Allocates room for `len` bytes of content before it is written, when the filesystem
    /// can. Besides the usual benefit (the file is laid out in one piece), this keeps ext4
    /// from writing the data out to disk during [`Staged::commit`]: renaming a file whose
    /// blocks are not yet allocated over another makes it start that write at once (its
    /// `auto_da_alloc` safeguard for programs that replace files without fsync), and that
    /// was the largest part of a small write's CPU time. Durability stays as described in
    /// the module documentation; the content is the same either way.
    pub fn preallocate(&self, len: u64) {
        let Ok(len) = i64::try_from(len) else { return };
        if len > 0 {
            // Best effort: a filesystem without fallocate(2) simply allocates on write.
            let _ = nix::fcntl::fallocate(
                self.temp.as_file().as_raw_fd(),
                nix::fcntl::FallocateFlags::empty(),
                0,
                len,
            );
        }
    }

    /// Moves the new content into place. Without `overwrite`, an existing destination is an
    /// `AlreadyExists` error, checked atomically with the move.
    pub fn commit(self, overwrite: bool) -> ToolResult<()> {
        let result = if overwrite {
            self.temp.persist(&self.destination).map(drop)
        } else {
            self.temp.persist_noclobber(&self.destination).map(drop)
        };
        result.map_err(|err| match err.error.kind() {
            std::io::ErrorKind::AlreadyExists => already_exists(&self.shown),
            _ => ToolError::io(err.error, &self.shown),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staging_names_are_recognised() {
        assert!(is_staging_name(OsStr::new(".sandpiper-a1B2c3.part")));
        assert!(!is_staging_name(OsStr::new("notes.part")));
        assert!(!is_staging_name(OsStr::new(".sandpiper-notes.txt")));
    }
}
