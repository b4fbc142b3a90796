//! The glob of `find` and of the `search` filter.
//!
//! A glob with a `/` is matched against the path relative to the searched directory, and
//! `*` stays within one component (`src/*.rs` is the direct children of `src`, `**/*.rs`
//! is every `.rs` file). A glob without a `/` is matched against file names at any depth,
//! like `find -name`: `*.rs` finds every `.rs` file, which is what people mean by it.

use std::path::Path;

use globset::{GlobBuilder, GlobMatcher};

use crate::error::{ToolError, ToolResult};

pub struct PathGlob {
    matcher: GlobMatcher,
    names_only: bool,
}

impl PathGlob {
    pub fn new(glob: &str) -> ToolResult<Self> {
        let matcher = GlobBuilder::new(glob)
            .literal_separator(true)
            .empty_alternates(true)
            .build()
            .map_err(|err| ToolError::invalid(format!("invalid glob: {err}")))?
            .compile_matcher();
        Ok(Self {
            matcher,
            names_only: !glob.contains('/'),
        })
    }

    /// Whether the entry at `relative` (to the searched directory) matches.
    pub fn matches(&self, relative: &Path) -> bool {
        if self.names_only {
            relative
                .file_name()
                .is_some_and(|name| self.matcher.is_match(name))
        } else {
            self.matcher.is_match(relative)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(glob: &str, path: &str) -> bool {
        PathGlob::new(glob).unwrap().matches(Path::new(path))
    }

    #[test]
    fn globs_with_a_slash_match_the_relative_path() {
        assert!(matches("**/*.rs", "main.rs"));
        assert!(matches("**/*.rs", "src/http/mod.rs"));
        assert!(matches("src/*.rs", "src/lib.rs"));
        assert!(!matches("src/*.rs", "src/http/mod.rs"));
    }

    #[test]
    fn globs_without_a_slash_match_names_at_any_depth() {
        assert!(matches("*.rs", "src/http/mod.rs"));
        assert!(matches("Cargo.{toml,lock}", "crates/a/Cargo.lock"));
        assert!(!matches("*.rs", "src/notes.md"));
    }

    #[test]
    fn invalid_globs_are_rejected() {
        assert!(PathGlob::new("a[").is_err());
        assert!(PathGlob::new("{a,b").is_err());
    }
}
