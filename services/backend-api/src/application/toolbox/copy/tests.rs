//! The limits of a keep against a sandbox that does not keep its word: files that grow
//! between their listing and their reading, and folders too many to walk.

use chrono::{DateTime, Utc};
use futures::stream::BoxStream;
use futures::StreamExt;

use super::read_files;
use crate::domain::agent::{SandboxAccess, SandboxSize};
use crate::domain::files::{ByteStream, ChangedFiles, Download, FileChange, FileEntry, FileKind, Listing};
use crate::domain::ports::SandboxFiles;
use crate::domain::toolbox::MAX_FILE_BYTES;
use crate::domain::{DomainError, DomainResult};

const WORKSPACE: &str = "/home/sandbox/workspace";
const FOLDER: &str = "/home/sandbox/workspace/tool";

/// A sandbox whose `tool` folder holds the script and `files` files listed at 10 bytes
/// each but read at `grown` bytes, and `folders` empty folders.
struct Lying {
    files: usize,
    grown: usize,
    folders: usize,
}

fn entry(path: &str, kind: FileKind) -> FileEntry {
    FileEntry {
        name: path.rsplit('/').next().unwrap_or_default().to_owned(),
        path: path.to_owned(),
        kind,
        size: 10,
        mtime_ms: 0,
    }
}

#[async_trait::async_trait]
impl SandboxFiles for Lying {
    async fn list(&self, _: &SandboxAccess, path: &str) -> DomainResult<Listing> {
        let entries = match path {
            "." => Vec::new(),
            FOLDER => (0..self.files)
                .map(|i| entry(&format!("{FOLDER}/f{i}.js"), FileKind::File))
                .chain((0..self.folders).map(|i| entry(&format!("{FOLDER}/d{i}"), FileKind::Dir)))
                .chain([entry(&format!("{FOLDER}/server.js"), FileKind::File)])
                .collect(),
            _ => Vec::new(),
        };
        let path = if path == "." { WORKSPACE } else { path }.to_owned();
        Ok(Listing { path, entries })
    }
    async fn stat(&self, _: &SandboxAccess, path: &str) -> DomainResult<FileEntry> {
        Ok(entry(&format!("{WORKSPACE}/{path}"), FileKind::File))
    }
    async fn download(&self, _: &SandboxAccess, _: &str, _: Option<&str>) -> DomainResult<Download> {
        let body = bytes::Bytes::from(vec![b'a'; self.grown]);
        Ok(Download {
            body: futures::stream::once(async move { Ok(body) }).boxed(),
            length: None,
            content_range: None,
            content_type: "text/plain".into(),
        })
    }
    async fn archive(&self, _: &SandboxAccess, _: &str) -> DomainResult<Download> {
        unimplemented!()
    }
    async fn upload(&self, _: &SandboxAccess, _: &str, _: bool, _: ByteStream) -> DomainResult<FileEntry> {
        unimplemented!()
    }
    async fn delete(&self, _: &SandboxAccess, _: &str) -> DomainResult<()> {
        unimplemented!()
    }
    async fn changed_since(&self, _: &SandboxAccess, _: DateTime<Utc>, _: u32) -> DomainResult<ChangedFiles> {
        unimplemented!()
    }
    async fn watch(&self, _: &SandboxAccess, _: &str) -> DomainResult<BoxStream<'static, FileChange>> {
        unimplemented!()
    }
}

fn sandbox() -> SandboxAccess {
    SandboxAccess {
        tool_api_url: String::new(),
        tool_api_token: String::new(),
        shell: SandboxAccess::AGENT_SHELL.into(),
        size: SandboxSize::default(),
    }
}

async fn keep(files: Lying) -> DomainResult<usize> {
    let args = ["tool/server.js".to_owned()];
    let kept = read_files(&files, &sandbox(), "node", &args).await?;
    Ok(kept.iter().map(|file| file.content.len()).sum())
}

#[tokio::test]
async fn files_grown_since_listed_cannot_pass_the_limit_together() {
    let per_file = (MAX_FILE_BYTES / 4) as usize;
    let fits = keep(Lying {
        files: 2,
        grown: per_file,
        folders: 0,
    })
    .await;
    assert_eq!(fits.unwrap(), 3 * per_file);
    let grown = keep(Lying {
        files: 8,
        grown: per_file,
        folders: 0,
    })
    .await;
    assert!(matches!(grown, Err(DomainError::TooLarge(_))), "{grown:?}");
}

#[tokio::test]
async fn a_walk_of_too_many_folders_is_refused() {
    let walked = keep(Lying {
        files: 0,
        grown: 1,
        folders: 1_000,
    })
    .await;
    assert!(matches!(walked, Err(DomainError::TooLarge(_))), "{walked:?}");
}
