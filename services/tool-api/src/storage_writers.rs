//! Ending whatever writes past the storage quota. A measurement tells that the storage
//! root grows, not who grows it, and the writer need not be a command the tool-api
//! tracks: `setsid dd …` leaves every process group the tool-api knows. So, while the
//! root is over its quota and growing, [`end_writers`] looks for the processes that hold
//! files under it open for writing, looks again and again over a short window (a loop of
//! `head … >> file` holds its file only while each write lasts), and ends each one that
//! held a file which grew meanwhile: its whole process group with SIGKILL, or only the
//! process when its group is the tool-api's own. Never the tool-api itself, and nothing
//! that holds no file under the root open for writing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::sys::signal::Signal;

use crate::open_files::{self, Extent, FileId};
use crate::process_group;

/// A process that was ended for writing past the quota.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    pub pid: u32,
    /// The group that was killed, or none when only the process was.
    pub group: Option<u32>,
    pub command: String,
}

/// How often the window looks at the open files.
const LOOK_EVERY: Duration = Duration::from_millis(20);

/// Looks at who writes under `root` for `window`, ends those whose files grew, and logs
/// each as a warning.
pub async fn end_writers(root: PathBuf, window: Duration) -> Vec<Ended> {
    let ended = tokio::task::spawn_blocking(move || {
        let seen = watch(&root, window);
        end(seen.writers_of_grown_files())
    })
    .await
    .unwrap_or_default();
    for process in &ended {
        tracing::warn!(
            pid = process.pid,
            group = process.group,
            command = %process.command,
            "ended a process that wrote past the storage quota"
        );
    }
    ended
}

/// A process seen holding a file open for writing.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Writer {
    pid: u32,
    group: u32,
    command: String,
}

/// What the window saw: each file's first extent and where it is, and who held it.
#[derive(Debug, Default)]
struct Seen {
    files: HashMap<FileId, (Extent, PathBuf)>,
    latest: HashMap<FileId, Extent>,
    holders: Vec<(Writer, FileId)>,
}

impl Seen {
    fn add(&mut self, writer: Writer, file: FileId, extent: Extent, path: PathBuf) {
        self.files.entry(file).or_insert((extent, path));
        self.latest.insert(file, extent);
        if !self
            .holders
            .iter()
            .any(|(w, f)| w.pid == writer.pid && *f == file)
        {
            self.holders.push((writer, file));
        }
    }

    /// The processes that held a file that takes more now than when first seen (looked
    /// up again by its path, or as last seen through a descriptor when it has moved).
    fn writers_of_grown_files(&self) -> Vec<Writer> {
        let grown: Vec<FileId> = self
            .files
            .iter()
            .filter(|(file, (first, path))| {
                let now = std::fs::metadata(path)
                    .ok()
                    .filter(|metadata| {
                        use std::os::unix::fs::MetadataExt;
                        metadata.dev() == file.device && metadata.ino() == file.inode
                    })
                    .map(|metadata| Extent::of(&metadata))
                    .or_else(|| self.latest.get(file).copied());
                now.is_some_and(|now| now.grew_since(*first))
            })
            .map(|(file, _)| *file)
            .collect();
        let mut writers: Vec<Writer> = Vec::new();
        for (writer, _) in self.holders.iter().filter(|(_, file)| grown.contains(file)) {
            if !writers.iter().any(|w| w.pid == writer.pid) {
                writers.push(writer.clone());
            }
        }
        writers
    }
}

fn watch(root: &Path, window: Duration) -> Seen {
    let own = std::process::id();
    let started = Instant::now();
    let mut seen = Seen::default();
    loop {
        for open in open_files::under(root) {
            if !open.writable || open.pid == own {
                continue;
            }
            if let Some(writer) = describe(open.pid) {
                seen.add(writer, open.file, open.extent, open.path);
            }
        }
        if started.elapsed() >= window {
            return seen;
        }
        std::thread::sleep(LOOK_EVERY);
    }
}

/// The process's group (from `/proc/<pid>/stat`) and command line.
fn describe(pid: u32) -> Option<Writer> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    Some(Writer {
        pid,
        group: group_of(&stat)?,
        command: command_line(&cmdline),
    })
}

/// The process group in a `stat` line: after the name in parentheses come the state,
/// the parent and then the group.
fn group_of(stat: &str) -> Option<u32> {
    stat.rsplit_once(')')?.1.split_whitespace().nth(2)?.parse().ok()
}

/// `cmdline`'s NUL-separated arguments as one line.
fn command_line(cmdline: &[u8]) -> String {
    String::from_utf8_lossy(cmdline)
        .split('\0')
        .filter(|arg| !arg.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Kills each writer's group once (named by the first writer seen in it), or only the
/// writer when the group is the tool-api's own (or the init's).
fn end(writers: Vec<Writer>) -> Vec<Ended> {
    let own = std::process::id();
    let own_group = nix::unistd::getpgrp().as_raw().unsigned_abs();
    let mut ended: Vec<Ended> = Vec::new();
    for writer in writers.into_iter().filter(|w| w.pid != own && w.pid > 1) {
        let group = (writer.group != own_group && writer.group > 1).then_some(writer.group);
        match group {
            Some(group) if ended.iter().any(|e| e.group == Some(group)) => continue,
            Some(group) => process_group::signal(group, Signal::SIGKILL),
            None => process_group::signal_leader(writer.pid, Signal::SIGKILL),
        }
        ended.push(Ended {
            pid: writer.pid,
            group,
            command: writer.command,
        });
    }
    ended
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn stat_and_cmdline_read_as_group_and_command() {
        assert_eq!(group_of("42 (sh (odd) name) S 1 4242 4242 0 -1"), Some(4242));
        assert_eq!(group_of("garbage"), None);
        assert_eq!(
            command_line(b"sh\0-c\0while true; do :; done\0"),
            "sh -c while true; do :; done"
        );
    }

    #[test]
    fn only_writers_of_files_that_grew_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let mut grows = std::fs::File::create(dir.path().join("grows")).unwrap();
        let still = std::fs::File::create(dir.path().join("still")).unwrap();
        let mut seen = Seen::default();
        let writer = |pid| Writer {
            pid,
            group: pid,
            command: format!("w{pid}"),
        };
        for (pid, name) in [(10, "grows"), (11, "still")] {
            let metadata = std::fs::metadata(dir.path().join(name)).unwrap();
            let file = FileId {
                device: std::os::unix::fs::MetadataExt::dev(&metadata),
                inode: std::os::unix::fs::MetadataExt::ino(&metadata),
            };
            seen.add(writer(pid), file, Extent::of(&metadata), dir.path().join(name));
        }
        assert_eq!(seen.writers_of_grown_files(), vec![]);
        grows.write_all(&[0; 4096]).unwrap();
        assert_eq!(seen.writers_of_grown_files(), vec![writer(10)]);
        drop(still);
    }

    /// Kills the group it leads when dropped, so that a failing test leaves no writer.
    struct Group(std::process::Child);

    impl Group {
        fn spawn(script: &str) -> Self {
            use std::os::unix::process::CommandExt;
            let child = std::process::Command::new("sh")
                .args(["-c", script])
                .process_group(0)
                .spawn()
                .unwrap();
            Self(child)
        }
    }

    impl Drop for Group {
        fn drop(&mut self) {
            process_group::signal(self.0.id(), Signal::SIGKILL);
            let _ = self.0.wait();
        }
    }

    #[test]
    fn the_tool_api_is_never_ended_nor_its_group() {
        let own_group = nix::unistd::getpgrp().as_raw().unsigned_abs();
        let mut child = std::process::Command::new("sleep").arg("60").spawn().unwrap();
        let writer = |pid| Writer {
            pid,
            group: own_group,
            command: "w".into(),
        };
        assert_eq!(end(vec![writer(std::process::id())]), vec![]);
        let ended = end(vec![writer(child.id())]);
        assert_eq!(ended.len(), 1);
        assert_eq!(ended[0].group, None, "only the process");
        assert!(child.wait().unwrap().code().is_none(), "killed by a signal");
    }

    #[tokio::test]
    async fn a_detached_writer_is_ended_and_a_reader_is_not() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("read"), "x").unwrap();
        let mut writer = Group::spawn(&format!(
            "while true; do head -c 65536 /dev/zero >> '{}/fill'; sleep 0.01; done",
            dir.path().display()
        ));
        let mut reader = Group::spawn(&format!("exec 3<'{}/read'; sleep 60", dir.path().display()));
        let mut ended = Vec::new();
        for _ in 0..50 {
            ended = end_writers(dir.path().into(), Duration::from_millis(300)).await;
            if !ended.is_empty() {
                break;
            }
        }
        assert!(!ended.is_empty(), "the writer was never seen");
        assert!(ended.iter().all(|e| e.group == Some(writer.0.id())), "{ended:?}");
        assert!(writer.0.wait().unwrap().code().is_none(), "killed by a signal");
        assert!(reader.0.try_wait().unwrap().is_none(), "the reader runs on");
    }
}
