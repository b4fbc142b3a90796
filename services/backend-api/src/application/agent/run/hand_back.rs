//! The files a sub-agent with a sandbox of its own hands back, copied into the delegating
//! agent's sandbox at the same paths when it ends. They stay inside that workspace: paths
//! relative to it ([`WorkspacePath`]) whose folders there are no links (a link could lead
//! out of it, to `~/.bashrc`), regular files of at most [`RETURN_FILE_MAX_BYTES`] each,
//! at most [`MAX_RETURN_FILES`] of them. A path that breaks a rule is an error the
//! delegating model reads; a file that cannot be copied is named in the answer.

use super::Run;
use crate::application::files::{too_large, upload_at_most};
use crate::domain::agent::SandboxAccess;
use crate::domain::files::{FileKind, WorkspacePath};
use crate::domain::DomainError;

/// The largest file a sub-agent may hand back.
const RETURN_FILE_MAX_BYTES: u64 = 100 * 1024 * 1024;

/// The most files one sub-agent may hand back.
const MAX_RETURN_FILES: usize = 20;

/// The `return_files` of a `delegate` call, checked; the error is the model's to fix.
pub(super) fn paths(raw: &[String]) -> Result<Vec<WorkspacePath>, String> {
    if raw.len() > MAX_RETURN_FILES {
        return Err(format!(
            "at most {MAX_RETURN_FILES} return_files; hand back a folder as one archive"
        ));
    }
    raw.iter()
        .map(|path| WorkspacePath::parse(path))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|err| format!("return_files: {err}"))
}

impl Run {
    /// Copies the files asked for from this sub-agent's sandbox into the delegating
    /// agent's, at the same paths in the workspace.
    pub(super) async fn hand_back(
        &mut self,
        paths: &[WorkspacePath],
        home: Option<&SandboxAccess>,
    ) -> (Vec<String>, Vec<String>) {
        let (mut files, mut not_copied) = (Vec::new(), Vec::new());
        let Some(home) = home else {
            return (files, not_copied);
        };
        for path in paths {
            match self.copy_home(home, path).await {
                Ok(()) => files.push(path.as_str().to_owned()),
                Err(problem) => not_copied.push(format!("{} ({problem})", path.as_str())),
            }
        }
        (files, not_copied)
    }

    /// One file: a regular one here, to a path whose folders in `home` are no links.
    async fn copy_home(&mut self, home: &SandboxAccess, path: &WorkspacePath) -> Result<(), String> {
        let here = self.sandbox().await?;
        let files = self.deps.files.clone();
        let made = files
            .stat(&here, path.as_str())
            .await
            .map_err(|err| err.to_string())?;
        if made.kind != FileKind::File {
            return Err("not a regular file".into());
        }
        if made.size > RETURN_FILE_MAX_BYTES {
            return Err(too_large(RETURN_FILE_MAX_BYTES).to_string());
        }
        for step in path.steps() {
            match files.stat(home, step).await {
                Ok(found) if found.kind == FileKind::Symlink => {
                    return Err(format!(
                        "`{step}` is a link in your sandbox, which could lead out of the workspace"
                    ))
                }
                Ok(_) => {}
                Err(DomainError::NotFound(_)) => break,
                Err(err) => return Err(err.to_string()),
            }
        }
        let download = files
            .download(&here, path.as_str(), None)
            .await
            .map_err(|err| err.to_string())?;
        upload_at_most(
            files.as_ref(),
            home,
            path.as_str(),
            true,
            download.body,
            RETURN_FILE_MAX_BYTES,
        )
        .await
        .map(drop)
        .map_err(|err| err.to_string())
    }
}
