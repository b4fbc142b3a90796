//! What goes into an archive, whichever its format.
//!
//! An archive is unpacked on another machine, where a link means whatever its target
//! means there: a link to `/etc/passwd` or `../../` would lead into that machine's files.
//! So a link is kept, as a link, only when its target is relative and leads to a place
//! inside the archived folder, both counted step by step on its text and resolved on the
//! real tree (a link inside may lead elsewhere); other links are left out and logged.
//!
//! The file contents an archive may hold are capped by their apparent size, measured
//! before the first byte is sent, so an archive over the cap is a clear error instead of
//! a stream that breaks: a sparse file (`truncate -s 1T`) takes no disk in the sandbox
//! but expands in full wherever it is unpacked. Files that grow after that are cut at
//! the size they had when written, and the cap is kept while writing too.

use std::io;
use std::path::{Component, Path, PathBuf};

use tool_api_contract::ErrorCode;
use walkdir::{DirEntry, WalkDir};

use crate::error::{ToolError, ToolResult};
use crate::storage_quota::human;

/// The folder being archived and the rules its entries are taken by.
pub struct Contents {
    /// The archived folder, as the client named it.
    root: PathBuf,
    /// `root` with every link resolved, for comparing resolved targets with.
    real_root: PathBuf,
    /// The directory entries sit under in the archive (empty: at the top).
    base: PathBuf,
    /// Most bytes of file content, by apparent size.
    max_bytes: u64,
}

impl Contents {
    pub fn new(root: PathBuf, base: PathBuf, max_bytes: u64) -> io::Result<Self> {
        Ok(Self {
            real_root: std::fs::canonicalize(&root)?,
            root,
            base,
            max_bytes,
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// What goes into the archive, in name order: each entry under the root with its name
    /// in the archive (`base` joined with its path relative to the root). Entries that
    /// cannot be read are left out and logged.
    pub fn entries(&self) -> impl Iterator<Item = (DirEntry, PathBuf)> + '_ {
        let min_depth = if self.base.as_os_str().is_empty() { 1 } else { 0 };
        WalkDir::new(&self.root)
            .min_depth(min_depth)
            .sort_by_file_name()
            .into_iter()
            .filter_map(|entry| {
                entry
                    .inspect_err(|err| tracing::warn!(error = %err, "left out of the archive"))
                    .ok()
            })
            .map(move |entry| {
                let relative = entry.path().strip_prefix(&self.root).unwrap_or(entry.path());
                // Joining an empty path would add a trailing `/` to the root's own entry.
                let name = if relative.as_os_str().is_empty() {
                    self.base.clone()
                } else {
                    self.base.join(relative)
                };
                (entry, name)
            })
    }

    /// Refuses, before anything is sent, a folder whose files add up to more than the
    /// cap. Stops counting at the cap, so a huge tree costs no more than needed.
    pub fn check_size(&self) -> ToolResult<()> {
        let mut budget = self.budget();
        for (entry, _) in self.entries() {
            if entry.file_type().is_file() {
                let len = entry.metadata().map_or(0, |meta| meta.len());
                if !budget.spend(len) {
                    return Err(self.too_large());
                }
            }
        }
        Ok(())
    }

    fn too_large(&self) -> ToolError {
        ToolError::with_details(
            ErrorCode::PayloadTooLarge,
            format!(
                "{}: its files add up to more than the {} an archive may hold (counted by \
                 their full size, so a sparse file counts for all it would expand to); \
                 archive a smaller folder, or download the largest files one by one",
                self.root.display(),
                human(self.max_bytes)
            ),
            serde_json::json!({ "max_bytes": self.max_bytes }),
        )
    }

    /// The cap, to spend while writing.
    pub fn budget(&self) -> Budget {
        Budget { left: self.max_bytes }
    }

    /// The target to store for the link at `path`: `None` (logged) unless it is relative
    /// and leads inside the root, counted on its text and resolved on the real tree.
    pub fn link_target(&self, path: &Path) -> Option<PathBuf> {
        let target = std::fs::read_link(path).ok()?;
        let within_by_text = path
            .parent()
            .and_then(|parent| parent.strip_prefix(&self.root).ok())
            .is_some_and(|from| stays_within(from, &target));
        let within_resolved = std::fs::canonicalize(path).is_ok_and(|real| real.starts_with(&self.real_root));
        if within_by_text && within_resolved {
            return Some(target);
        }
        tracing::info!(
            link = %path.display(),
            target = %target.display(),
            "left out of the archive: the link leads outside the archived folder (or nowhere)"
        );
        None
    }
}

/// Whether `target`, taken from the directory `from` (relative to the root), stays at
/// or below the root on every step: it is relative and its `..` never climb above it.
fn stays_within(from: &Path, target: &Path) -> bool {
    let mut depth = from.components().count();
    for component in target.components() {
        match component {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir if depth > 0 => depth -= 1,
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return false,
        }
    }
    true
}

/// The bytes of file content an archive may still take.
pub struct Budget {
    left: u64,
}

impl Budget {
    /// Takes `len` bytes; `false` when fewer are left.
    pub fn spend(&mut self, len: u64) -> bool {
        match self.left.checked_sub(len) {
            Some(left) => {
                self.left = left;
                true
            }
            None => false,
        }
    }

    /// [`Self::spend`] while writing, where past the cap the archive must break.
    pub fn spend_or_fail(&mut self, len: u64, path: &Path) -> io::Result<()> {
        if self.spend(len) {
            Ok(())
        } else {
            Err(io::Error::other(format!(
                "{} grew past what an archive may hold while it was being written",
                path.display()
            )))
        }
    }
}

/// Opens a file to archive; `None` (logged) when it cannot be read, so one unreadable
/// file does not cost the whole archive.
pub fn open_entry(path: &Path) -> Option<std::fs::File> {
    std::fs::File::open(path)
        .inspect_err(|err| tracing::warn!(path = %path.display(), error = %err, "left out of the archive"))
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_counted_step_by_step() {
        let within = |from: &str, target: &str| stays_within(Path::new(from), Path::new(target));
        assert!(within("", "a.txt"));
        assert!(within("sub", "../a.txt"));
        assert!(within("sub", ".."));
        assert!(within("a/b", "../../c/./d"));
        assert!(!within("", ".."));
        assert!(!within("sub", "../../x"));
        // Out and back in is still out: the step outside is what the link would take.
        assert!(!within("", "../proj/a.txt"));
        assert!(!within("sub", "/etc/passwd"));
    }

    #[test]
    fn the_budget_refuses_what_is_over_it() {
        let mut budget = Budget { left: 10 };
        assert!(budget.spend(4));
        assert!(budget.spend(6));
        assert!(!budget.spend(1));
        assert!(budget.spend(0));
    }
}
