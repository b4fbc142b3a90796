//! The disk a store on this machine writes to, as `/health` reports it.

/// How the disk stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiskState {
    Ok,
    /// Less free than the warning threshold.
    Low,
    /// A write failed for want of space; writes are refused until space is freed.
    Full,
}

/// One look at the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiskReading {
    pub state: DiskState,
    /// Bytes still free for the store; `None` when the disk cannot be asked.
    pub free_bytes: Option<u64>,
}

pub trait DataDiskStatus: Send + Sync {
    fn reading(&self) -> DiskReading;
}
