//! Jobs in the embedded store by id, with an index by owner (their list, newest first).
//! A status change is a read-compare-write in one write transaction, which redb
//! serialises, so only one writer moves a job on from a given status.

use redb::{ReadableDatabase, ReadableTable};
use serde::Deserialize;

use super::{decode, EmbeddedStore, ID_MAX, JOBS, OWNER_JOBS};
use crate::domain::job::{Job, JobId, JobStatus};
use crate::domain::ports::JobRepository;
use crate::domain::user::UserId;
use crate::domain::DomainResult;

#[async_trait::async_trait]
impl JobRepository for EmbeddedStore {
    async fn insert(&self, job: &Job) -> DomainResult<()> {
        let job = job.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(JOBS)?
                .insert(job.id.as_str(), serde_json::to_vec(&job)?.as_slice())?;
            txn.open_table(OWNER_JOBS)?
                .insert((job.owner.as_str(), job.id.as_str()), ())?;
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn get(&self, id: &JobId) -> DomainResult<Option<Job>> {
        let id = id.clone();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let jobs = txn.open_table(JOBS)?;
            jobs.get(id.as_str())?
                .map(|value| decode(value.value()))
                .transpose()
        })
        .await
    }

    async fn update_from(&self, job: &Job, from: JobStatus) -> DomainResult<bool> {
        let job = job.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let updated = {
                let mut jobs = txn.open_table(JOBS)?;
                let stored: Option<Job> = jobs
                    .get(job.id.as_str())?
                    .map(|value| decode(value.value()))
                    .transpose()?;
                let current = stored.is_some_and(|stored| stored.status == from);
                if current {
                    jobs.insert(job.id.as_str(), serde_json::to_vec(&job)?.as_slice())?;
                }
                current
            };
            txn.commit()?;
            Ok(updated)
        })
        .await
    }

    async fn list_for(
        &self,
        owner: &UserId,
        status: Option<JobStatus>,
        before: Option<&JobId>,
        limit: usize,
    ) -> DomainResult<Vec<Job>> {
        let owner = owner.clone();
        let before = before.cloned();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let index = txn.open_table(OWNER_JOBS)?;
            let jobs = txn.open_table(JOBS)?;
            let end = before.as_ref().map_or(ID_MAX, |b| b.as_str());
            let mut page = Vec::new();
            // Newest first: ids are time-ordered, walk the owner's range backwards.
            for entry in index.range((owner.as_str(), "")..(owner.as_str(), end))?.rev() {
                if page.len() == limit {
                    break;
                }
                let (key, _) = entry?;
                let Some(value) = jobs.get(key.value().1)? else {
                    continue;
                };
                let job: Job = decode(value.value())?;
                if status.is_none_or(|status| job.status == status) {
                    page.push(job);
                }
            }
            Ok(page)
        })
        .await
    }

    async fn count_for(&self, owner: &UserId, status: JobStatus, at_most: usize) -> DomainResult<usize> {
        let owner = owner.clone();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let index = txn.open_table(OWNER_JOBS)?;
            let jobs = txn.open_table(JOBS)?;
            let mut counted = 0;
            for entry in index.range((owner.as_str(), "")..(owner.as_str(), ID_MAX))? {
                if counted == at_most {
                    break;
                }
                let (key, _) = entry?;
                let Some(value) = jobs.get(key.value().1)? else {
                    continue;
                };
                // The status alone: the rest of the record is passed over.
                let stored: StatusOnly = decode(value.value())?;
                counted += usize::from(stored.status == status);
            }
            Ok(counted)
        })
        .await
    }

    async fn with_status(&self, status: JobStatus) -> DomainResult<Vec<Job>> {
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let mut found = Vec::new();
            // Key order is id order, which is creation order.
            for entry in txn.open_table(JOBS)?.iter()? {
                let job: Job = decode(entry?.1.value())?;
                if job.status == status {
                    found.push(job);
                }
            }
            Ok(found)
        })
        .await
    }
}

/// A stored job read for its status only.
#[derive(Deserialize)]
struct StatusOnly {
    status: JobStatus,
}
