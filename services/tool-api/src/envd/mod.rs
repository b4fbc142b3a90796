//! E2B's in-sandbox daemon, envd, as tool-api speaks it: processes started, watched and fed
//! on a client's behalf, the filesystem calls of E2B's SDK, and file transfer. E2B's SDKs
//! reach it through backend-api's `/e2b/sandbox` proxy; nothing here knows about HTTP or
//! the Connect protocol (see `crate::http::envd` for that).
//!
//! # Layout
//!
//! - [`error`]: the surface's one error type, a Connect code per variant.
//! - [`process`]: the process table (start, list, re-attach, input, signals, PTY size);
//!   [`process::spawn`] starts a program on pipes or on a PTY, each leading its own
//!   process group.
//! - [`entry`]: `EntryInfo`, what E2B reports about a file; [`fs`] the filesystem calls.
//! - [`watch`]: directory watches, streamed or polled through a watcher id.
//! - [`transfer`]: the REST `/files` download and uploads.
//!
//! Paths and users: relative paths resolve against the home directory, the default working
//! directory of processes. The sandbox has one user; E2B's `user` names it, and `root`
//! is refused because the sandbox runs hardened, with nothing setuid.

pub mod entry;
pub mod error;
pub mod fs;
pub mod process;
pub mod transfer;
pub mod watch;

use std::path::{Path, PathBuf};

use std::sync::Arc;

use error::{EnvdError, EnvdResult};

use crate::paths::Workspace;

/// The envd surface's state: where home is, the processes it started, its watchers.
pub struct Envd {
    home: Workspace,
    pub processes: Arc<process::ProcessTable>,
    pub watchers: watch::Watchers,
}

impl Envd {
    pub fn new(home: PathBuf) -> Self {
        Self {
            home: Workspace::new(home),
            processes: Arc::new(process::ProcessTable::default()),
            watchers: watch::Watchers::default(),
        }
    }

    /// The home directory, `$HOME` of the sandbox user.
    pub fn home(&self) -> &Path {
        self.home.root()
    }

    /// Home as the file operations shared with the rest of the tool-api take it.
    pub fn workspace(&self) -> &Workspace {
        &self.home
    }

    /// A client's path, absolute, relative ones taken from home.
    pub fn resolve(&self, raw: &str) -> EnvdResult<PathBuf> {
        Ok(self.home.resolve(raw)?)
    }
}

/// Checks the user a request runs as (E2B's user selector): none, `user` (E2B's name for
/// the default user) or the sandbox user's own name are the sandbox user.
pub fn check_user(user: Option<&str>) -> EnvdResult<()> {
    match user {
        None | Some("" | "user" | "sandbox") => Ok(()),
        Some("root") => Err(EnvdError::PermissionDenied(
            "this sandbox has no root user: it runs hardened, with nothing setuid; \
             run as the default user `user`"
                .to_owned(),
        )),
        Some(other) => Err(EnvdError::invalid(format!(
            "no user {other:?} in this sandbox; its one user is `user`"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_user_passes_and_root_is_refused() {
        assert!(check_user(None).is_ok());
        assert!(check_user(Some("user")).is_ok());
        assert!(matches!(
            check_user(Some("root")),
            Err(EnvdError::PermissionDenied(_))
        ));
        assert!(matches!(
            check_user(Some("bob")),
            Err(EnvdError::InvalidArgument(_))
        ));
    }
}
