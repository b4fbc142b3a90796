//! A kept tool's files on their way out of a sandbox (when the person keeps it: which
//! ones is [`kept_files`]'s rule, held to [`MAX_FILES`] and [`MAX_FILE_BYTES`]) and
//! back into another (when a later chat gets it: written where they were, but never over
//! a file that differs).

use futures::StreamExt;

use crate::domain::agent::SandboxAccess;
use crate::domain::files::{FileEntry, FileKind};
use crate::domain::ports::SandboxFiles;
use crate::domain::toolbox::{
    kept_files, script_candidates, skipped, too_large, KeptFile, KeptFiles, KeptTool, MAX_DEPTH, MAX_ENTRIES,
    MAX_FILES, MAX_FILE_BYTES, MAX_FOLDERS,
};
use crate::domain::{DomainError, DomainResult};

#[cfg(test)]
mod tests;

/// The files to keep of the server that `command` and `args` start in `sandbox`.
pub(super) async fn read_files(
    files: &dyn SandboxFiles,
    sandbox: &SandboxAccess,
    command: &str,
    args: &[String],
) -> DomainResult<Vec<KeptFile>> {
    let workspace = files.list(sandbox, ".").await?.path;
    let home = workspace.rsplit_once('/').map_or("", |(home, _)| home).to_owned();
    let mut script = None;
    for candidate in script_candidates(command, args) {
        if let Ok(entry) = files.stat(sandbox, &candidate).await {
            if entry.kind == FileKind::File {
                script = Some(entry);
                break;
            }
        }
    }
    let script = script.ok_or_else(|| {
        DomainError::Invalid(format!(
            "the command ({command} {}) names no file of the sandbox: only a server whose script \
             is in the sandbox's home can be kept",
            args.join(" ")
        ))
    })?;
    let entries = match kept_files(&script.path, &home, &workspace)? {
        KeptFiles::Script(_) => vec![script],
        KeptFiles::Folder(folder) => walk(files, sandbox, &folder).await?,
    };
    let total: u64 = entries.iter().map(|entry| entry.size).sum();
    if total > MAX_FILE_BYTES {
        return Err(too_large(&format!("its files hold {total} bytes")));
    }
    // The sizes listed are the sandbox's word: the reads carry the budget themselves, so
    // files grown since they were listed cannot pass it together.
    let mut budget = MAX_FILE_BYTES;
    let mut kept = Vec::with_capacity(entries.len());
    for entry in entries {
        let content = read_text(files, sandbox, &entry, budget).await?;
        budget -= content.len() as u64;
        kept.push(KeptFile {
            path: entry.path,
            content,
        });
    }
    Ok(kept)
}

/// The files under `folder`, at most [`MAX_DEPTH`] deep, hidden and remade ones left
/// out; `TooLarge` past [`MAX_FILES`], or past [`MAX_FOLDERS`] folders or
/// [`MAX_ENTRIES`] entries listed on the way.
async fn walk(
    files: &dyn SandboxFiles,
    sandbox: &SandboxAccess,
    folder: &str,
) -> DomainResult<Vec<FileEntry>> {
    let mut found = Vec::new();
    let mut folders = vec![(folder.to_owned(), 0)];
    let (mut listed, mut seen) = (0, 0);
    while let Some((folder, depth)) = folders.pop() {
        listed += 1;
        let entries = files.list(sandbox, &folder).await?.entries;
        seen += entries.len();
        if listed > MAX_FOLDERS || seen > MAX_ENTRIES {
            return Err(too_large(&format!(
                "{folder}: the walk passed {MAX_FOLDERS} folders or {MAX_ENTRIES} entries"
            )));
        }
        for entry in entries {
            if skipped(&entry.name) {
                continue;
            }
            match entry.kind {
                FileKind::Dir if depth < MAX_DEPTH => folders.push((entry.path, depth + 1)),
                FileKind::File => found.push(entry),
                _ => {}
            }
            if found.len() > MAX_FILES {
                return Err(too_large(&format!("{folder} holds more than {MAX_FILES} files")));
            }
        }
    }
    found.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(found)
}

/// The text of `entry`, read to at most `budget` bytes (`TooLarge` past it); `Invalid`
/// when it is not UTF-8.
async fn read_text(
    files: &dyn SandboxFiles,
    sandbox: &SandboxAccess,
    entry: &FileEntry,
    budget: u64,
) -> DomainResult<String> {
    let bytes = read_bytes(files, sandbox, &entry.path, budget)
        .await?
        .ok_or_else(|| too_large(&format!("{} grew past the limit", entry.path)))?;
    String::from_utf8(bytes).map_err(|_| {
        DomainError::Invalid(format!(
            "{} is not text (UTF-8): a kept tool holds source files only",
            entry.path
        ))
    })
}

/// The bytes of the file at `path`, or `None` once they pass `limit`.
async fn read_bytes(
    files: &dyn SandboxFiles,
    sandbox: &SandboxAccess,
    path: &str,
    limit: u64,
) -> DomainResult<Option<Vec<u8>>> {
    let mut body = files.download(sandbox, path, None).await?.body;
    let mut bytes = Vec::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|err| DomainError::Unavailable {
            what: "the sandbox",
            detail: err.to_string(),
        })?;
        bytes.extend_from_slice(&chunk);
        if bytes.len() as u64 > limit {
            return Ok(None);
        }
    }
    Ok(Some(bytes))
}

/// Writes `tool`'s files into `sandbox` where they were, never over anything that
/// differs: a file there with the same text is left as it is, and anything else at one
/// of its paths (the person's edits, another person's file of that name) refuses the
/// whole tool (`Conflict`, naming it) before any file is written.
pub async fn write_files(
    files: &dyn SandboxFiles,
    sandbox: &SandboxAccess,
    tool: &KeptTool,
) -> DomainResult<()> {
    let mut missing = Vec::new();
    for file in &tool.files {
        let wanted = file.content.as_bytes();
        match files.stat(sandbox, &file.path).await {
            Err(DomainError::NotFound(_)) => missing.push(file),
            Err(err) => return Err(err),
            Ok(entry) if entry.kind == FileKind::File && entry.size == wanted.len() as u64 => {
                let there = read_bytes(files, sandbox, &file.path, entry.size).await?;
                if there.as_deref() != Some(wanted) {
                    return Err(in_the_way(&file.path));
                }
            }
            Ok(_) => return Err(in_the_way(&file.path)),
        }
    }
    for file in missing {
        let body = bytes::Bytes::from(file.content.clone().into_bytes());
        let stream = futures::stream::once(async move { Ok(body) }).boxed();
        files.upload(sandbox, &file.path, false, stream).await?;
    }
    Ok(())
}

fn in_the_way(path: &str) -> DomainError {
    DomainError::Conflict(format!(
        "{path} is already in this chat's sandbox with other content, and a kept tool \
         never replaces a file; move or delete it, or start a new chat"
    ))
}
