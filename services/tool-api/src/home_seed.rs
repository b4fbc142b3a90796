//! A fresh home's prepared files. Every sandbox starts on an empty home, so whatever a
//! program caches there on first use it would build again in each sandbox: Matplotlib's
//! font list, for one, takes seconds and says so on stderr when that runs past five of
//! them, in the middle of the first chart's output. The image builds such files once
//! under one directory (`TOOL_API_HOME_SEED`), and at start the tool-api copies into the
//! home what it lacks there, never replacing what a person's home already holds.

use std::io;
use std::path::Path;

/// Copies the files and folders under `seed` into `home` where `home` has nothing at
/// that path; returns how many files it copied. Links in the seed are left out.
pub fn seed_home(seed: &Path, home: &Path) -> io::Result<usize> {
    let mut copied = 0;
    for entry in std::fs::read_dir(seed)? {
        let entry = entry?;
        let (from, to) = (entry.path(), home.join(entry.file_name()));
        let kind = entry.file_type()?;
        if kind.is_dir() {
            match std::fs::create_dir(&to) {
                Ok(()) => {}
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists && to.is_dir() => {}
                Err(error) => return Err(error),
            }
            copied += seed_home(&from, &to)?;
        } else if kind.is_file() && std::fs::symlink_metadata(&to).is_err() {
            std::fs::copy(&from, &to)?;
            copied += 1;
        }
    }
    Ok(copied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_home_lacks_is_copied_and_what_it_has_is_kept() {
        let (seed, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let cache = seed.path().join(".cache/matplotlib");
        std::fs::create_dir_all(&cache).unwrap();
        std::fs::write(cache.join("fontlist-v390.json"), "{\"fonts\": []}").unwrap();
        std::fs::write(seed.path().join(".profile"), "seeded").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", seed.path().join("link")).unwrap();
        std::fs::write(home.path().join(".profile"), "the person's own").unwrap();

        assert_eq!(seed_home(seed.path(), home.path()).unwrap(), 1);
        let read = |path: &str| std::fs::read_to_string(home.path().join(path)).unwrap();
        assert_eq!(read(".cache/matplotlib/fontlist-v390.json"), "{\"fonts\": []}");
        assert_eq!(read(".profile"), "the person's own");
        assert!(std::fs::symlink_metadata(home.path().join("link")).is_err());

        // A second start finds everything in place and copies nothing.
        assert_eq!(seed_home(seed.path(), home.path()).unwrap(), 0);
    }
}
