//! The tree walk under `find` and `search`: sorted by name, symlinks not followed (so no
//! loops), unreadable directories skipped, hidden names left out on request, and a cap on
//! how many entries are visited.

use std::path::Path;

use walkdir::{DirEntry, WalkDir};

pub struct Walk {
    entries: walkdir::IntoIter,
    visited: u64,
    limit: u64,
    limit_hit: bool,
    skip_hidden: bool,
}

impl Walk {
    /// Entries under `root` from `min_depth` on (0 includes `root` itself), at most `limit`.
    pub fn new(root: &Path, min_depth: usize, limit: u64) -> Self {
        Self {
            entries: WalkDir::new(root)
                .min_depth(min_depth)
                .sort_by_file_name()
                .into_iter(),
            visited: 0,
            limit,
            limit_hit: false,
            skip_hidden: false,
        }
    }

    /// Leaves out entries whose name starts with `.`, and everything inside such folders.
    pub fn skip_hidden(mut self, skip: bool) -> Self {
        self.skip_hidden = skip;
        self
    }

    /// Whether the walk stopped at its limit with entries left.
    pub fn limit_hit(&self) -> bool {
        self.limit_hit
    }
}

impl Iterator for Walk {
    type Item = DirEntry;

    fn next(&mut self) -> Option<DirEntry> {
        loop {
            let entry = self.entries.next()?;
            if self.visited == self.limit {
                self.limit_hit = true;
                return None;
            }
            let Ok(entry) = entry else { continue };
            // Not counted: a skipped cache folder must not use up the scan limit.
            if self.skip_hidden && entry.depth() > 0 && entry.file_name().as_encoded_bytes().starts_with(b".")
            {
                if entry.file_type().is_dir() {
                    self.entries.skip_current_dir();
                }
                continue;
            }
            self.visited += 1;
            return Some(entry);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_at_the_limit_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a", "b", "c"] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        let mut walk = Walk::new(dir.path(), 1, 2);
        let names: Vec<_> = walk.by_ref().map(|e| e.file_name().to_owned()).collect();
        assert_eq!(names, ["a", "b"]);
        assert!(walk.limit_hit());

        let mut walk = Walk::new(dir.path(), 1, 3);
        assert_eq!(walk.by_ref().count(), 3);
        assert!(!walk.limit_hit(), "nothing was left out");
    }

    #[test]
    fn skips_hidden_names_and_what_is_inside_them() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".cache/deep")).unwrap();
        std::fs::write(dir.path().join(".cache/deep/blob"), "").unwrap();
        std::fs::write(dir.path().join(".history"), "").unwrap();
        std::fs::write(dir.path().join("seen"), "").unwrap();
        let names = |walk: Walk| -> Vec<_> { walk.map(|e| e.file_name().to_owned()).collect() };
        assert_eq!(names(Walk::new(dir.path(), 1, 2).skip_hidden(true)), ["seen"]);
        assert_eq!(names(Walk::new(dir.path(), 1, 10)).len(), 5);
    }
}
