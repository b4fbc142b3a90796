//! The open database behind the embedded store. redb refuses every write once one failed
//! on I/O ("Previous I/O error occurred") until the database is opened again, so a full
//! disk stopped the store until the process restarted. Here a write that fails on I/O
//! marks the database failed: reads go on with it while the disk has no room, writes are
//! refused as [`DomainError::StorageFull`], and the first call once there is room opens
//! it again (redb repairs what the failed commit left). Nothing a commit acknowledged is
//! lost: redb's commits are durable before they return.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use redb::{CommitError, Database, DatabaseError, StorageError, TableError, TransactionError};

use super::disk::DataDisk;
use super::open_database;
use crate::domain::DomainError;

/// Free space below which a failed database is not opened again yet (a write would fail
/// once more at once).
const ROOM_BYTES: u64 = 16 * 1024 * 1024;

/// How a store call failed on the disk.
enum Failure {
    /// No space (or quota) left.
    DiskFull,
    /// Another I/O error, or redb's refusal after one.
    Io,
}

struct Open {
    db: Arc<Database>,
    /// A write failed on I/O: redb refuses writes until the database is opened again.
    failed: bool,
}

pub(super) struct Handle {
    path: PathBuf,
    /// `None` once a failed database was closed and opening it again failed.
    db: RwLock<Option<Open>>,
    pub disk: Arc<DataDisk>,
}

impl Handle {
    pub fn open(dir: &Path) -> anyhow::Result<Self> {
        let path = dir.join("sandpiper.redb");
        let db = Arc::new(open_database(&path)?);
        Ok(Self {
            db: RwLock::new(Some(Open { db, failed: false })),
            disk: Arc::new(DataDisk::new(dir.to_owned())),
            path,
        })
    }

    /// Runs `work` on the database (opening it again first when a failure left it
    /// unable to write and the disk has room). Blocks on disk: call it from the blocking
    /// pool.
    pub fn run<T>(&self, work: impl FnOnce(&Database) -> anyhow::Result<T>) -> Result<T, DomainError> {
        let db = self.current()?;
        work(&db).map_err(|err| self.failed(err))
    }

    fn current(&self) -> Result<Arc<Database>, DomainError> {
        let usable = |open: &Open| !open.failed || !self.has_room();
        if let Some(open) = self.db.read().unwrap_or_else(|p| p.into_inner()).as_ref() {
            if usable(open) {
                return Ok(open.db.clone());
            }
        }
        let mut slot = self.db.write().unwrap_or_else(|p| p.into_inner());
        match slot.take() {
            Some(open) if usable(&open) => {
                let db = open.db.clone();
                *slot = Some(open);
                return Ok(db);
            }
            // The file stays locked while a call that began before holds the database:
            // that call's caller goes on with it, and a later one opens it again.
            Some(open) => match Arc::try_unwrap(open.db) {
                Ok(db) => drop(db),
                Err(db) => {
                    *slot = Some(Open {
                        db: db.clone(),
                        failed: true,
                    });
                    return Ok(db);
                }
            },
            None => {}
        }
        let db = Arc::new(open_database(&self.path).map_err(|err| self.refused(&err))?);
        tracing::info!(path = %self.path.display(), "the embedded store is open again");
        self.disk.set_full(false);
        *slot = Some(Open {
            db: db.clone(),
            failed: false,
        });
        Ok(db)
    }

    fn has_room(&self) -> bool {
        self.disk.free_bytes().is_none_or(|free| free >= ROOM_BYTES)
    }

    /// Marks the database failed after an I/O failure, so that it is opened again.
    fn failed(&self, err: anyhow::Error) -> DomainError {
        if failure(&err).is_none() {
            return DomainError::Internal(err);
        }
        if let Some(open) = self.db.write().unwrap_or_else(|p| p.into_inner()).as_mut() {
            if !open.failed {
                tracing::warn!(%err, "the embedded store failed on its disk; it is opened again once the disk has room");
            }
            open.failed = true;
        }
        self.refused(&err)
    }

    /// What a caller is told while the store cannot write.
    fn refused(&self, err: &anyhow::Error) -> DomainError {
        if matches!(failure(err), Some(Failure::DiskFull)) || !self.has_room() {
            self.disk.set_full(true);
            DomainError::StorageFull(
                "the server's disk is full, so nothing was stored; an administrator must free \
                 space on the data directory's disk, after which the server resumes by itself"
                    .into(),
            )
        } else {
            DomainError::Unavailable {
                what: "the embedded store",
                detail: format!("it is being opened again after a disk error ({err}); retry shortly"),
            }
        }
    }
}

/// The storage error under one of redb's error types, when `err` is one.
fn failure(err: &anyhow::Error) -> Option<Failure> {
    err.chain().find_map(|cause| {
        let storage = cause
            .downcast_ref::<StorageError>()
            .or_else(|| match cause.downcast_ref::<CommitError>()? {
                CommitError::Storage(s) => Some(s),
                _ => None,
            })
            .or_else(|| match cause.downcast_ref::<TransactionError>()? {
                TransactionError::Storage(s) => Some(s),
                _ => None,
            })
            .or_else(|| match cause.downcast_ref::<TableError>()? {
                TableError::Storage(s) => Some(s),
                _ => None,
            })
            .or_else(|| match cause.downcast_ref::<DatabaseError>()? {
                DatabaseError::Storage(s) => Some(s),
                _ => None,
            });
        match storage {
            Some(StorageError::Io(io)) if is_disk_full(io) => Some(Failure::DiskFull),
            Some(StorageError::Io(_) | StorageError::PreviousIo) => Some(Failure::Io),
            _ => cause
                .downcast_ref::<std::io::Error>()
                .filter(|io| is_disk_full(io))
                .map(|_| Failure::DiskFull),
        }
    })
}

fn is_disk_full(io: &std::io::Error) -> bool {
    matches!(io.kind(), ErrorKind::StorageFull | ErrorKind::QuotaExceeded)
}
