//! The files of jobs not yet started in the embedded store: one value per file, keyed
//! by (job, name), so a job's files are one key range.

use redb::{ReadableDatabase, ReadableTable};

use super::{EmbeddedStore, JOB_ATTACHMENTS};
use crate::domain::files::FileName;
use crate::domain::job::JobId;
use crate::domain::ports::JobAttachmentStore;
use crate::domain::DomainResult;

#[async_trait::async_trait]
impl JobAttachmentStore for EmbeddedStore {
    async fn put(&self, job: &JobId, name: &FileName, content: Vec<u8>) -> DomainResult<()> {
        let (job, name) = (job.clone(), name.clone());
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(JOB_ATTACHMENTS)?
                .insert((job.as_str(), name.as_str()), content.as_slice())?;
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn get(&self, job: &JobId, name: &FileName) -> DomainResult<Option<Vec<u8>>> {
        let (job, name) = (job.clone(), name.clone());
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let files = txn.open_table(JOB_ATTACHMENTS)?;
            Ok(files
                .get((job.as_str(), name.as_str()))?
                .map(|value| value.value().to_vec()))
        })
        .await
    }

    async fn delete(&self, job: &JobId) -> DomainResult<()> {
        let job = job.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            {
                let mut files = txn.open_table(JOB_ATTACHMENTS)?;
                // Names are any text, so the range is the job's first name onwards, cut
                // where another job's begin.
                let mut names = Vec::new();
                for entry in files.range((job.as_str(), "")..)? {
                    let (key, _) = entry?;
                    let (id, name) = key.value();
                    if id != job.as_str() {
                        break;
                    }
                    names.push(name.to_owned());
                }
                for name in names {
                    files.remove((job.as_str(), name.as_str()))?;
                }
            }
            txn.commit()?;
            Ok(())
        })
        .await
    }
}
