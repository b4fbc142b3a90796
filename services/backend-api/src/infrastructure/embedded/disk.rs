//! The disk the embedded store's file lives on: its free space, whether the store is
//! waiting for space (a write failed for want of it), and a watch that warns in the log
//! while space runs low. `/health` reports the same.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::domain::ports::{DataDiskStatus, DiskReading, DiskState};

const WATCH_EVERY: Duration = Duration::from_secs(30);

pub struct DataDisk {
    dir: PathBuf,
    full: AtomicBool,
    /// Less free than this is low; set by [`DataDisk::watch`].
    low_bytes: AtomicU64,
}

impl DataDisk {
    pub(super) fn new(dir: PathBuf) -> Self {
        Self {
            dir,
            full: AtomicBool::new(false),
            low_bytes: AtomicU64::new(0),
        }
    }

    /// Bytes an unprivileged writer may still use there; `None` when the disk cannot be
    /// asked.
    pub(super) fn free_bytes(&self) -> Option<u64> {
        let stat = nix::sys::statvfs::statvfs(&self.dir).ok()?;
        Some(stat.blocks_available() as u64 * stat.fragment_size() as u64)
    }

    pub(super) fn set_full(&self, full: bool) {
        self.full.store(full, Ordering::Relaxed);
    }

    /// Counts less than `low_bytes` free as low from now on, and logs a warning each time
    /// the disk turns low or full, and when it recovers.
    pub fn watch(self: Arc<Self>, low_bytes: u64) {
        self.low_bytes.store(low_bytes, Ordering::Relaxed);
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            let mut last = DiskState::Ok;
            loop {
                let DiskReading { state, free_bytes } = self.reading();
                if state != last {
                    let free_mb = free_bytes.map(|free| free / (1024 * 1024));
                    let dir = self.dir.display().to_string();
                    match state {
                        DiskState::Ok => tracing::info!(%dir, ?free_mb, "the data directory's disk has space again"),
                        DiskState::Low => tracing::warn!(
                            %dir, ?free_mb, threshold_mb = low_bytes / (1024 * 1024),
                            "the data directory's disk is running out of space; free some before writes are refused"
                        ),
                        DiskState::Full => tracing::error!(
                            %dir, ?free_mb,
                            "the data directory's disk is full: writes are refused (507) until space is freed"
                        ),
                    }
                    last = state;
                }
                tokio::time::sleep(WATCH_EVERY).await;
            }
        });
    }
}

impl DataDiskStatus for DataDisk {
    fn reading(&self) -> DiskReading {
        let free_bytes = self.free_bytes();
        let low_bytes = self.low_bytes.load(Ordering::Relaxed);
        let state = if self.full.load(Ordering::Relaxed) {
            DiskState::Full
        } else if free_bytes.is_some_and(|free| free < low_bytes) {
            DiskState::Low
        } else {
            DiskState::Ok
        };
        DiskReading { state, free_bytes }
    }
}
