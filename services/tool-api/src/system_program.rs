//! The programs tool-api starts on its own account — the code kernel's Python, the
//! desktop's programs, an MCP stdio server — are the deployment's, not the sandbox
//! user's, so nothing that user wrote may run in their place (a `python3` in
//! `~/.local/bin`, first on the user's `PATH`, would otherwise be the kernel): a command
//! name is looked up in the system's directories only ([`SYSTEM_PATH`], never the home
//! directory, the workspace or the `PATH` the user's shells have), and the file it names,
//! with every directory above it, must be one only root can change. An MCP server's own
//! `PATH` is [`SYSTEM_PATH`] too, so what it starts by name (`#!/usr/bin/env node`) is
//! found the same way.

use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Where a command name is looked for, in order; also an MCP server's `PATH`.
pub const SYSTEM_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// The file to execute for `command` (a name, or an absolute path), with symbolic links
/// resolved, so that what was checked is what runs. The error is a message for the
/// person who configured it.
pub fn resolve(command: &str) -> Result<PathBuf, String> {
    let named = if command.contains('/') {
        if !command.starts_with('/') {
            return Err(format!(
                "{command}: a relative path; give a program name or an absolute path"
            ));
        }
        PathBuf::from(command)
    } else {
        SYSTEM_PATH
            .split(':')
            .map(|dir| Path::new(dir).join(command))
            .find(|candidate| candidate.is_file())
            .ok_or_else(|| {
                format!(
                    "{command}: command not found in the sandbox's system directories ({SYSTEM_PATH}); \
                     the home directory is not searched"
                )
            })?
    };
    let real = named.canonicalize().map_err(|err| match err.kind() {
        io::ErrorKind::NotFound => format!("{command}: no such file"),
        _ => format!("{command}: {err}"),
    })?;
    let metadata = std::fs::metadata(&real).map_err(|err| format!("{command}: {err}"))?;
    if !metadata.is_file() || metadata.mode() & 0o111 == 0 {
        return Err(format!("{command}: not an executable file"));
    }
    if let Some(open) = real.ancestors().find(|path| !root_only(path)) {
        return Err(format!(
            "{command}: {} can be changed by a user other than root, so it is not started by \
             tool-api",
            open.display()
        ));
    }
    Ok(real)
}

/// Whether only root can change `path`: owned by root, and writable by no other user
/// (nor by a group other than root's).
fn root_only(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|found| {
        let mode = found.mode();
        found.uid() == 0 && mode & 0o002 == 0 && (mode & 0o020 == 0 || found.gid() == 0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_in_the_system_directories_and_links_resolved() {
        let sh = resolve("sh").unwrap();
        assert_eq!(sh, Path::new("/bin/sh").canonicalize().unwrap());
        assert_eq!(resolve("/bin/sh").unwrap(), sh);
    }

    #[test]
    fn what_is_not_there_or_not_a_program_is_named() {
        for (command, says) in [
            (
                "no-such-program-here",
                "command not found in the sandbox's system directories",
            ),
            ("./server", "a relative path"),
            ("bin/server", "a relative path"),
            ("/nowhere/server", "no such file"),
            ("/etc/passwd", "not an executable file"),
            ("/usr/bin", "not an executable file"),
        ] {
            let err = resolve(command).unwrap_err();
            assert!(err.starts_with(command) && err.contains(says), "{command}: {err}");
        }
    }

    #[test]
    fn a_program_in_a_directory_others_may_write_is_refused() {
        use std::os::unix::fs::PermissionsExt;

        // Under /tmp, which everyone may write (and owned by whoever runs the test).
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().join("server");
        std::fs::write(&program, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        let err = resolve(program.to_str().unwrap()).unwrap_err();
        assert!(err.contains("can be changed by a user other than root"), "{err}");
    }
}
