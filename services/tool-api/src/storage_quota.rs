//! The storage quota of the sandbox's files. A session's Docker volume (the whole home,
//! `/home/sandbox`) is a plain directory on the host's filesystem, which the engine cannot
//! limit on ext4 (only XFS with project quotas can), so the tool-api keeps the storage
//! root (`TOOL_API_STORAGE_ROOT`, the home by default, which holds the workspace) within
//! `storage_quota_bytes` itself: it measures what the root takes on disk every
//! `storage_check_secs` (its files, and deleted files that a process still holds open),
//! refuses writes through its API (`507 storage_full`) while there is no room, and each
//! time it finds the root over the quota and still growing it ends the running shell
//! commands and interrupts the running code cell, with a note saying why, then ends
//! every other process that writes there ([`crate::storage_writers`]), which is how a
//! runaway `dd` stops, detached or not. A soft quota: between two measurements a command
//! can write past it by its write rate times the interval. Deleting files (through the
//! API or `rm` in a shell) always works.

use std::collections::HashSet;
use std::future::Future;
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use tool_api_contract::info::StorageUsage;
use tool_api_contract::ErrorCode;

use crate::error::{ToolError, ToolResult};
use crate::open_files;
use crate::storage_writers;

/// How long the writer hunt looks at who writes before it ends anyone.
const WRITER_WINDOW: Duration = Duration::from_millis(500);

pub struct StorageQuota {
    root: PathBuf,
    quota: Option<u64>,
    used: AtomicU64,
}

impl StorageQuota {
    pub fn new(root: PathBuf, quota: Option<u64>) -> Arc<Self> {
        Arc::new(Self {
            root,
            quota,
            used: AtomicU64::new(0),
        })
    }

    /// The last measurement, plus what the API wrote since; none without a quota.
    pub fn usage(&self) -> Option<StorageUsage> {
        self.quota.map(|quota_bytes| StorageUsage {
            used_bytes: self.used.load(Ordering::Relaxed),
            quota_bytes,
        })
    }

    /// Bytes that may still be written.
    pub fn room(&self) -> u64 {
        self.usage().map_or(u64::MAX, |usage| {
            usage.quota_bytes.saturating_sub(usage.used_bytes)
        })
    }

    /// Refuses a write of `adding` bytes that the quota has no room for.
    pub fn check_room(&self, adding: u64) -> ToolResult<()> {
        match self.usage() {
            Some(usage) if usage.used_bytes.saturating_add(adding) > usage.quota_bytes => {
                Err(full(usage, adding))
            }
            _ => Ok(()),
        }
    }

    /// Counts bytes the API wrote, until the next measurement sees them.
    pub fn wrote(&self, bytes: u64) {
        if self.quota.is_some() {
            self.used.fetch_add(bytes, Ordering::Relaxed);
        }
    }

    /// Measures the storage root now.
    pub async fn measure(&self) -> u64 {
        let root = self.root.clone();
        let used = tokio::task::spawn_blocking(move || disk_usage(&root))
            .await
            .unwrap_or(0);
        self.used.store(used, Ordering::Relaxed);
        used
    }

    /// Measures every `interval` until `stopping`; each time the root is found over its
    /// quota and larger than at the last measurement, `enforce` is given the note to show
    /// where tracked work was ended, and then what else writes under the root is ended.
    pub fn watch<F, Fut>(self: Arc<Self>, interval: Duration, stopping: CancellationToken, enforce: F)
    where
        F: Fn(String) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send,
    {
        let Some(quota) = self.quota else { return };
        tokio::spawn(async move {
            let mut before = 0;
            loop {
                let used = self.measure().await;
                // Only while the root grows past the quota: what is deleting files
                // to make room (an `rm` that started before this measurement) goes on.
                let growing = used > before;
                before = used;
                if used > quota && growing {
                    let usage = StorageUsage {
                        used_bytes: used,
                        quota_bytes: quota,
                    };
                    tracing::warn!(used, quota, "the storage root is over its quota");
                    enforce(format!("[ended: {}]", describe(usage))).await;
                    storage_writers::end_writers(self.root.clone(), WRITER_WINDOW).await;
                }
                tokio::select! {
                    _ = tokio::time::sleep(interval) => {}
                    _ = stopping.cancelled() => return,
                }
            }
        });
    }
}

fn full(usage: StorageUsage, adding: u64) -> ToolError {
    let adding = if adding > 0 {
        format!(" (this write adds {})", human(adding))
    } else {
        String::new()
    };
    ToolError::new(ErrorCode::StorageFull, format!("{}{adding}", describe(usage)))
}

fn describe(usage: StorageUsage) -> String {
    format!(
        "the home directory holds {} of its {} storage quota; delete files to write more",
        human(usage.used_bytes),
        human(usage.quota_bytes)
    )
}

/// Bytes for a person: `512 B`, `3.4 MiB`, `2.0 GiB`.
pub(crate) fn human(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// What the files under `root` take on disk (allocated blocks, so sparse files count
/// for what they hold), staying on its filesystem and not following links, plus the
/// deleted files under it that processes still hold open (their blocks are not free).
fn disk_usage(root: &std::path::Path) -> u64 {
    let linked: u64 = walkdir::WalkDir::new(root)
        .same_file_system(true)
        .into_iter()
        .filter_map(Result::ok)
        .filter_map(|entry| entry.metadata().ok())
        .map(|metadata| metadata.blocks() * 512)
        .sum();
    let mut counted = HashSet::new();
    let held: u64 = open_files::under(root)
        .into_iter()
        .filter(|open| open.deleted && counted.insert(open.file))
        .map(|open| open.extent.allocated)
        .sum();
    linked + held
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_like_a_person_would_say_them() {
        assert_eq!(human(512), "512 B");
        assert_eq!(human(1536), "1.5 KiB");
        assert_eq!(human(2 << 30), "2.0 GiB");
    }

    #[tokio::test]
    async fn room_follows_measurements_and_writes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a"), vec![1u8; 64 << 10]).unwrap();
        let quota = StorageQuota::new(dir.path().into(), Some(100 << 10));
        let used = quota.measure().await;
        assert!((64 << 10..80 << 10).contains(&used), "{used}");
        assert!(quota.check_room(10 << 10).is_ok());
        quota.wrote(30 << 10);
        let err = quota.check_room(10 << 10).unwrap_err();
        assert!(
            err.to_string().contains("of its 100.0 KiB storage quota"),
            "{err}"
        );

        // A deleted file that a process still holds keeps its blocks, and counts.
        let held = std::fs::File::open(dir.path().join("a")).unwrap();
        std::fs::remove_file(dir.path().join("a")).unwrap();
        assert!(quota.measure().await >= 64 << 10);
        drop(held);
        // A process another test starts at this moment holds a copy of every descriptor
        // of this one until its program runs: the blocks count until no copy is left.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while quota.measure().await >= 64 << 10 {
            assert!(
                std::time::Instant::now() < deadline,
                "a deleted file nobody holds still counts"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }

        let unlimited = StorageQuota::new(dir.path().into(), None);
        unlimited.wrote(u64::MAX);
        assert!(unlimited.check_room(u64::MAX).is_ok());
        assert_eq!(unlimited.usage(), None);
    }
}
