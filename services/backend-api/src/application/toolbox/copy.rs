//! A kept tool's files on their way out of a sandbox (when the person keeps it: which
//! ones is [`kept_files`]'s rule, held to [`MAX_FILES`] and [`MAX_FILE_BYTES`]) and
//! back into another (when a later chat gets it: written where they were).

use futures::StreamExt;

use crate::domain::agent::SandboxAccess;
use crate::domain::files::{FileEntry, FileKind};
use crate::domain::ports::SandboxFiles;
use crate::domain::toolbox::{
    kept_files, script_candidates, skipped, too_large, KeptFile, KeptFiles, KeptTool, MAX_DEPTH, MAX_FILES,
    MAX_FILE_BYTES,
};
use crate::domain::{DomainError, DomainResult};

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
    let mut kept = Vec::with_capacity(entries.len());
    for entry in entries {
        let content = read_text(files, sandbox, &entry).await?;
        kept.push(KeptFile {
            path: entry.path,
            content,
        });
    }
    Ok(kept)
}

/// The files under `folder`, at most [`MAX_DEPTH`] deep, hidden and remade ones left
/// out; `TooLarge` past [`MAX_FILES`].
async fn walk(
    files: &dyn SandboxFiles,
    sandbox: &SandboxAccess,
    folder: &str,
) -> DomainResult<Vec<FileEntry>> {
    let mut found = Vec::new();
    let mut folders = vec![(folder.to_owned(), 0)];
    while let Some((folder, depth)) = folders.pop() {
        for entry in files.list(sandbox, &folder).await?.entries {
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

/// The text of `entry`, read to at most [`MAX_FILE_BYTES`]; `Invalid` when it is not
/// UTF-8.
async fn read_text(
    files: &dyn SandboxFiles,
    sandbox: &SandboxAccess,
    entry: &FileEntry,
) -> DomainResult<String> {
    let mut body = files.download(sandbox, &entry.path, None).await?.body;
    let mut bytes = Vec::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|err| DomainError::Unavailable {
            what: "the sandbox",
            detail: err.to_string(),
        })?;
        bytes.extend_from_slice(&chunk);
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(too_large(&format!("{} grew past the limit", entry.path)));
        }
    }
    String::from_utf8(bytes).map_err(|_| {
        DomainError::Invalid(format!(
            "{} is not text (UTF-8): a kept tool holds source files only",
            entry.path
        ))
    })
}

/// Writes `tool`'s files into `sandbox`, where they were, replacing what is there.
pub async fn write_files(
    files: &dyn SandboxFiles,
    sandbox: &SandboxAccess,
    tool: &KeptTool,
) -> DomainResult<()> {
    for file in &tool.files {
        let body = bytes::Bytes::from(file.content.clone().into_bytes());
        let stream = futures::stream::once(async move { Ok(body) }).boxed();
        files.upload(sandbox, &file.path, true, stream).await?;
    }
    Ok(())
}
