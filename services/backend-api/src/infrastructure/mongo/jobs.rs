//! Jobs in MongoDB, one document per job, with a unique index on `id` and one for the
//! owner's list. A status change is a single conditional replace on (id, status), so
//! replicas racing on one job cannot both move it on.

use mongodb::bson::doc;

use super::{all, bson, failure, MongoStore};
use crate::domain::job::{Job, JobId, JobStatus};
use crate::domain::ports::JobRepository;
use crate::domain::user::UserId;
use crate::domain::DomainResult;

#[async_trait::async_trait]
impl JobRepository for MongoStore {
    async fn insert(&self, job: &Job) -> DomainResult<()> {
        self.jobs.insert_one(job).await.map_err(failure)?;
        Ok(())
    }

    async fn get(&self, id: &JobId) -> DomainResult<Option<Job>> {
        self.jobs
            .find_one(doc! { "id": id.as_str() })
            .await
            .map_err(failure)
    }

    async fn update_from(&self, job: &Job, from: JobStatus) -> DomainResult<bool> {
        let replaced = self
            .jobs
            .replace_one(doc! { "id": job.id.as_str(), "status": bson(&from)? }, job)
            .await
            .map_err(failure)?;
        Ok(replaced.matched_count == 1)
    }

    async fn list_for(
        &self,
        owner: &UserId,
        status: Option<JobStatus>,
        before: Option<&JobId>,
        limit: usize,
    ) -> DomainResult<Vec<Job>> {
        let mut filter = doc! { "owner": owner.as_str() };
        if let Some(status) = status {
            filter.insert("status", bson(&status)?);
        }
        if let Some(before) = before {
            filter.insert("id", doc! { "$lt": before.as_str() });
        }
        // Newest first: ids are time-ordered.
        all(self
            .jobs
            .find(filter)
            .sort(doc! { "id": -1 })
            .limit(i64::try_from(limit).unwrap_or(i64::MAX)))
        .await
    }

    async fn count_for(&self, owner: &UserId, status: JobStatus, at_most: usize) -> DomainResult<usize> {
        let counted = self
            .jobs
            .count_documents(doc! { "owner": owner.as_str(), "status": bson(&status)? })
            .limit(u64::try_from(at_most).unwrap_or(u64::MAX))
            .await
            .map_err(failure)?;
        Ok(usize::try_from(counted).unwrap_or(usize::MAX))
    }

    async fn with_status(&self, status: JobStatus) -> DomainResult<Vec<Job>> {
        all(self
            .jobs
            .find(doc! { "status": bson(&status)? })
            .sort(doc! { "id": 1 }))
        .await
    }
}
