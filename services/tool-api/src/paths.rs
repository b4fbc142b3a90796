//! Turning a client's path string into an absolute, normalised path.
//!
//! Relative paths are taken from the workspace directory. `.` and `..` are resolved
//! lexically, so `a/../../..` ends at `/` instead of failing halfway. This is not a jail:
//! the agent owns the whole sandbox (it has a shell), and the container is the boundary.
//! What it does guarantee is that odd input — NUL bytes, empty strings, absurd lengths —
//! becomes a clear 422 instead of an OS error deep inside an operation.

use std::path::{Component, Path, PathBuf};

use crate::error::{ToolError, ToolResult};

/// Longest path accepted, as Linux's `PATH_MAX`.
const PATH_MAX: usize = 4096;

#[derive(Debug, Clone)]
pub struct Workspace {
    root: PathBuf,
}

impl Workspace {
    pub fn new(root: PathBuf) -> Self {
        Self { root }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Parses `raw` into an absolute path without `.` or `..` components.
    pub fn resolve(&self, raw: &str) -> ToolResult<PathBuf> {
        if raw.is_empty() {
            return Err(ToolError::invalid("path is empty"));
        }
        if raw.contains('\0') {
            return Err(ToolError::invalid("path contains a NUL byte"));
        }
        if raw.len() > PATH_MAX {
            return Err(ToolError::invalid(format!(
                "path is longer than {PATH_MAX} bytes"
            )));
        }
        let joined = self.root.join(raw);
        let mut normal = PathBuf::from("/");
        for component in joined.components() {
            match component {
                Component::Normal(part) => normal.push(part),
                Component::ParentDir => {
                    normal.pop();
                }
                Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
            }
        }
        Ok(normal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws() -> Workspace {
        Workspace::new(PathBuf::from("/home/user/work"))
    }

    #[test]
    fn relative_paths_join_the_workspace() {
        assert_eq!(
            ws().resolve("a/b.txt").unwrap(),
            PathBuf::from("/home/user/work/a/b.txt")
        );
        assert_eq!(
            ws().resolve("./a/./b").unwrap(),
            PathBuf::from("/home/user/work/a/b")
        );
    }

    #[test]
    fn parent_components_resolve_lexically_and_stop_at_root() {
        assert_eq!(ws().resolve("../x").unwrap(), PathBuf::from("/home/user/x"));
        assert_eq!(
            ws().resolve("../../../../../../etc").unwrap(),
            PathBuf::from("/etc")
        );
        assert_eq!(ws().resolve("/tmp/../..").unwrap(), PathBuf::from("/"));
    }

    #[test]
    fn bad_input_is_rejected() {
        assert!(ws().resolve("").is_err());
        assert!(ws().resolve("a\0b").is_err());
        assert!(ws().resolve(&"a/".repeat(3000)).is_err());
    }
}
