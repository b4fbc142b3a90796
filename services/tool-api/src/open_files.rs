//! The files under a directory that processes hold open, read from `/proc`: for each
//! descriptor whose target lies under the directory, which process holds it, whether it
//! was opened for writing (the access mode in `/proc/<pid>/fdinfo/<fd>`), whether the file
//! was deleted since, and what the file takes now. The storage quota counts deleted files
//! that are still held (their blocks stay taken until the last descriptor closes) and
//! looks here for the processes that write past it. Processes the tool-api may not
//! inspect (another user's, without privileges) are skipped.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// One file, wherever it is linked (or not linked any more).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileId {
    pub device: u64,
    pub inode: u64,
}

/// What a file takes: its length and the blocks allocated for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extent {
    pub len: u64,
    pub allocated: u64,
}

impl Extent {
    pub fn of(metadata: &std::fs::Metadata) -> Self {
        Self {
            len: metadata.len(),
            allocated: metadata.blocks() * 512,
        }
    }

    /// Whether the file takes more than it did at `before`.
    pub fn grew_since(self, before: Extent) -> bool {
        self.len > before.len || self.allocated > before.allocated
    }
}

/// One open descriptor of a regular file under the directory.
#[derive(Debug, Clone)]
pub struct OpenFile {
    pub pid: u32,
    /// Where the file is (or was, when `deleted`).
    pub path: PathBuf,
    pub deleted: bool,
    /// Opened write-only or read-write.
    pub writable: bool,
    pub file: FileId,
    pub extent: Extent,
}

/// The regular files under `root` that some process holds open now.
pub fn under(root: &Path) -> Vec<OpenFile> {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let Ok(processes) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    processes
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .flat_map(|pid| held_by(pid, &root))
        .collect()
}

fn held_by(pid: u32, root: &Path) -> Vec<OpenFile> {
    let fds = PathBuf::from(format!("/proc/{pid}/fd"));
    let Ok(entries) = std::fs::read_dir(&fds) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let link = std::fs::read_link(entry.path()).ok()?;
            let (path, deleted) = target(link);
            if !path.starts_with(root) {
                return None;
            }
            // Through the descriptor's link: the file itself, even when deleted.
            let metadata = std::fs::metadata(entry.path()).ok()?;
            if !metadata.is_file() {
                return None;
            }
            let fd = entry.file_name();
            let fdinfo =
                std::fs::read_to_string(format!("/proc/{pid}/fdinfo/{}", fd.to_string_lossy())).ok()?;
            Some(OpenFile {
                pid,
                path,
                deleted,
                writable: flags(&fdinfo).is_some_and(opened_for_writing),
                file: FileId {
                    device: metadata.dev(),
                    inode: metadata.ino(),
                },
                extent: Extent::of(&metadata),
            })
        })
        .collect()
}

/// A descriptor's link target, without the ` (deleted)` the kernel adds to a file that
/// no longer has a name.
fn target(link: PathBuf) -> (PathBuf, bool) {
    match link.to_str().and_then(|text| text.strip_suffix(" (deleted)")) {
        Some(path) => (PathBuf::from(path), true),
        None => (link, false),
    }
}

/// The open flags of an `fdinfo` (an octal `flags:` line).
fn flags(fdinfo: &str) -> Option<u32> {
    fdinfo
        .lines()
        .find_map(|line| line.strip_prefix("flags:"))
        .and_then(|value| u32::from_str_radix(value.trim(), 8).ok())
}

/// Whether the access mode (the low two bits, as Linux numbers them) is `O_WRONLY` (1)
/// or `O_RDWR` (2).
fn opened_for_writing(flags: u32) -> bool {
    matches!(flags & 0o3, 1 | 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn fdinfo_flags_tell_writers_from_readers() {
        let fdinfo = "pos:\t0\nflags:\t0102001\nmnt_id:\t31\nino:\t12\n";
        assert_eq!(flags(fdinfo), Some(0o102001));
        assert!(opened_for_writing(0o102001));
        assert!(opened_for_writing(0o100002));
        assert!(!opened_for_writing(0o100000));
        assert_eq!(flags("pos:\t0\n"), None);
    }

    #[test]
    fn a_deleted_files_target_loses_its_mark() {
        assert_eq!(
            target("/home/x/a.bin (deleted)".into()),
            ("/home/x/a.bin".into(), true)
        );
        assert_eq!(target("/home/x/a.bin".into()), ("/home/x/a.bin".into(), false));
    }

    #[test]
    fn finds_what_this_process_holds_under_a_directory_only() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::NamedTempFile::new().unwrap();
        let mut written = std::fs::File::create(dir.path().join("w.bin")).unwrap();
        written.write_all(&[1; 8192]).unwrap();
        std::fs::write(dir.path().join("r.txt"), "x").unwrap();
        let _read = std::fs::File::open(dir.path().join("r.txt")).unwrap();
        let gone = std::fs::File::create(dir.path().join("gone.bin")).unwrap();
        std::fs::remove_file(dir.path().join("gone.bin")).unwrap();

        let own: Vec<_> = under(dir.path())
            .into_iter()
            .filter(|open| open.pid == std::process::id())
            .collect();
        let find = |name: &str| {
            own.iter()
                .find(|open| open.path.ends_with(name))
                .unwrap_or_else(|| panic!("{name} not among {own:?}"))
        };
        let w = find("w.bin");
        assert!(w.writable && !w.deleted && w.extent.len == 8192, "{w:?}");
        assert!(!find("r.txt").writable);
        assert!(find("gone.bin").deleted);
        assert!(own.iter().all(|open| !open.path.starts_with(outside.path())));
        drop((written, gone, outside));
    }
}
