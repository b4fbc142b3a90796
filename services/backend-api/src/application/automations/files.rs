//! The files an automation carries, which each run gets in its workspace's `uploads/` as
//! a job's attachments: sent as a job's are (name and base64 content), held to the
//! operator's cap ([`super::rules`]), stored through the [`AutomationFiles`] port apart
//! from the record (which keeps names and sizes) before the record names them, handed to
//! each run's job, and removed once no record names them (with the automation at the
//! latest).

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;

use super::rules::AutomationRules;
use crate::application::error::{AppError, AppResult};
use crate::domain::automation::Automation;
use crate::domain::files::FileName;
use crate::domain::ids::AutomationId;
use crate::domain::job_attachment::{JobAttachment, JobFile, NewAttachment};
use crate::domain::ports::AutomationRepository;

/// What an edit does to the files: those to store, the record's list after it, and
/// those no longer named.
pub(super) struct FileChange {
    pub store: Vec<JobFile>,
    pub attachments: Vec<JobAttachment>,
    pub gone: Vec<JobAttachment>,
}

/// The files of `current` after `removed` go and `sent` are added (replacing any of the
/// same name), checked against the rules.
pub(super) fn change(
    current: &Automation,
    sent: Option<Vec<NewAttachment>>,
    removed: Option<Vec<String>>,
    rules: &AutomationRules,
) -> AppResult<FileChange> {
    let removed = removed
        .unwrap_or_default()
        .iter()
        .map(|name| {
            FileName::parse(name).map_err(|err| AppError::InvalidField {
                field: "remove_attachments",
                message: err.to_string(),
            })
        })
        .collect::<AppResult<Vec<FileName>>>()?;
    let kept: Vec<JobAttachment> = current
        .attachments
        .iter()
        .filter(|file| !removed.contains(&file.name))
        .cloned()
        .collect();
    let store = rules.check_files(sent.unwrap_or_default(), &kept)?;
    let mut attachments: Vec<JobAttachment> = kept
        .into_iter()
        .filter(|old| store.iter().all(|new| new.name != old.name))
        .collect();
    attachments.extend(store.iter().map(JobFile::attachment));
    let gone = current
        .attachments
        .iter()
        .filter(|old| attachments.iter().all(|now| now.name != old.name))
        .cloned()
        .collect();
    Ok(FileChange {
        store,
        attachments,
        gone,
    })
}

/// Stores the automation's files (before the record naming them).
pub(super) async fn store(
    store: &dyn AutomationRepository,
    id: &AutomationId,
    files: Vec<JobFile>,
) -> AppResult<()> {
    for file in files {
        store.put_file(id, &file.name, file.content).await?;
    }
    Ok(())
}

/// Removes files no record names any more; a failure is logged (they go with the
/// automation at the latest).
pub(super) async fn remove(store: &dyn AutomationRepository, id: &AutomationId, files: &[JobAttachment]) {
    for file in files {
        if let Err(err) = store.remove_file(id, &file.name).await {
            tracing::warn!(automation = id.as_str(), %err, "removing an automation's file");
        }
    }
}

/// The automation's files as a run's job takes them; `Conflict` naming one no longer
/// stored.
pub(super) async fn for_run(
    store: &dyn AutomationRepository,
    automation: &Automation,
) -> AppResult<Vec<NewAttachment>> {
    let mut sent = Vec::with_capacity(automation.attachments.len());
    for file in &automation.attachments {
        let Some(content) = store.file(&automation.id, &file.name).await? else {
            return Err(AppError::Conflict(format!(
                "its file {} is no longer stored",
                file.name.as_str()
            )));
        };
        sent.push(NewAttachment {
            name: file.name.as_str().to_owned(),
            content_base64: BASE64.encode(content),
        });
    }
    Ok(sent)
}
