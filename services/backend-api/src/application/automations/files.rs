//! The files an automation carries, which each run gets in its workspace's `uploads/` as
//! a job's attachments: sent as a job's are (name and base64 content), held to the
//! operator's cap ([`super::rules`]), stored through the [`AutomationFiles`] port apart
//! from the record (which keeps names, sizes and keys), each content under a fresh key
//! before the record names it, so an edit that loses its race leaves the stored files as
//! they were (and one tried again keeps its new contents); handed to each run's job, and
//! removed once no record names them (with the automation at the latest).

use std::future::Future;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;

use super::rules::AutomationRules;
use crate::application::error::{AppError, AppResult};
use crate::domain::automation::Automation;
use crate::domain::files::FileName;
use crate::domain::ids::AutomationId;
use crate::domain::job_attachment::{JobAttachment, JobFile, NewAttachment};
use crate::domain::ports::AutomationRepository;

/// What an edit does to the files: the new contents to store (each under its fresh
/// key), the record's list after it, and those no longer named.
pub(super) struct FileChange {
    pub store: Vec<(String, Vec<u8>)>,
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
    let sent = rules.check_files(sent.unwrap_or_default(), &kept)?;
    let mut attachments: Vec<JobAttachment> = kept
        .into_iter()
        .filter(|old| sent.iter().all(|new| new.name != old.name))
        .collect();
    let (added, store) = keyed(sent);
    attachments.extend(added);
    let gone = current
        .attachments
        .iter()
        .filter(|old| attachments.iter().all(|now| now.key != old.key))
        .cloned()
        .collect();
    Ok(FileChange {
        store,
        attachments,
        gone,
    })
}

/// The records of `files`, each with a fresh key, and their contents under those keys.
pub(super) fn keyed(files: Vec<JobFile>) -> (Vec<JobAttachment>, Vec<(String, Vec<u8>)>) {
    files
        .into_iter()
        .map(|file| {
            let key = uuid::Uuid::new_v4().simple().to_string();
            let record = JobAttachment {
                key: Some(key.clone()),
                ..file.attachment()
            };
            (record, (key, file.content))
        })
        .unzip()
}

/// Where a file's content is stored: its key (a file saved before keys, its name).
fn key(file: &JobAttachment) -> &str {
    file.key.as_deref().unwrap_or(file.name.as_str())
}

/// Stores new contents under their fresh keys (before the record naming them).
pub(super) async fn store(
    store: &dyn AutomationRepository,
    id: &AutomationId,
    contents: Vec<(String, Vec<u8>)>,
) -> AppResult<()> {
    for (key, content) in contents {
        store.put_file(id, &key, content).await?;
    }
    Ok(())
}

/// Removes contents no record names; a failure is logged (they go with the automation
/// at the latest).
pub(super) async fn remove<'a>(
    store: &dyn AutomationRepository,
    id: &AutomationId,
    keys: impl IntoIterator<Item = &'a str>,
) {
    for key in keys {
        if let Err(err) = store.remove_file(id, key).await {
            tracing::warn!(automation = id.as_str(), %err, "removing an automation's file");
        }
    }
}

/// The keys of `files`' contents.
pub(super) fn keys(files: &[JobAttachment]) -> impl Iterator<Item = &str> {
    files.iter().map(key)
}

/// Stores the edit's new contents, then awaits `save`, which stores the record naming
/// them (trying again while only fires move the automation). When it does not (`Conflict`:
/// the edit lost its race), its new contents are removed, so the stored files stay as
/// they were; once it is stored, the contents it no longer names are removed.
pub(super) async fn replace<T>(
    store: &dyn AutomationRepository,
    id: &AutomationId,
    change: FileChange,
    save: impl Future<Output = AppResult<T>>,
) -> AppResult<T> {
    let added: Vec<String> = change.store.iter().map(|(key, _)| key.clone()).collect();
    self::store(store, id, change.store).await?;
    let saved = save.await;
    match &saved {
        Ok(_) => remove(store, id, keys(&change.gone)).await,
        Err(_) => remove(store, id, added.iter().map(String::as_str)).await,
    }
    saved
}

/// The automation's files as a run's job takes them; `Conflict` naming one no longer
/// stored.
pub(super) async fn for_run(
    store: &dyn AutomationRepository,
    automation: &Automation,
) -> AppResult<Vec<NewAttachment>> {
    let mut sent = Vec::with_capacity(automation.attachments.len());
    for file in &automation.attachments {
        let Some(content) = store.file(&automation.id, key(file)).await? else {
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
