//! The tree walk under `find` and `search`: sorted by name, symlinks not followed (so no
//! loops), unreadable directories skipped, and a cap on how many entries are visited.

use std::path::Path;

use walkdir::{DirEntry, WalkDir};

pub struct Walk {
    entries: walkdir::IntoIter,
    visited: u64,
    limit: u64,
    limit_hit: bool,
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
        }
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
            if let Ok(entry) = entry {
                self.visited += 1;
                return Some(entry);
            }
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
}
