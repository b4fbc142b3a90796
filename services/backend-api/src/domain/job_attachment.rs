//! The files sent with a job. The job's workspace exists only once the job starts, so
//! until then each file waits in the [`JobAttachmentStore`](super::ports::JobAttachmentStore),
//! apart from the job's record: records are listed a page at a time and the queue is
//! scanned whole, so a record keeps only each file's name and size, never its content.
//! When the job starts, the files go to `uploads/<name>` in its workspace (where a chat's
//! attachments go) and leave the store.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use serde::{Deserialize, Deserializer, Serialize};

use super::error::{DomainError, DomainResult};
use super::files::FileName;

/// A file sent with a job, unchecked.
#[derive(Clone, Deserialize, utoipa::ToSchema)]
pub struct NewAttachment {
    /// A plain file name (no `/`, `\\` or `..`); stored as `uploads/<name>`.
    pub name: String,
    /// The file's content, base64 (standard alphabet, padded).
    pub content_base64: String,
}

/// A file sent with a job, as the job's record keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobAttachment {
    pub name: FileName,
    /// Its size in bytes (decoded).
    #[serde(default)]
    pub size: u64,
    /// The content of a job queued by a release that kept it in the record (base64 under
    /// `content`); moved to the store at start-up, never written again.
    #[serde(
        default,
        rename = "content",
        deserialize_with = "base64_bytes",
        skip_serializing
    )]
    pub inline_content: Vec<u8>,
    /// The key an automation's file content is stored under
    /// ([`AutomationFiles`](super::ports::AutomationFiles)): fresh for each content, so
    /// an edit that loses its race never overwrites what a record names. A job's files
    /// have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

impl JobAttachment {
    /// Where it goes in the workspace.
    pub fn upload_path(&self) -> String {
        self.name.upload_path()
    }
}

/// A file sent with a job, decoded: what a creation stores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobFile {
    pub name: FileName,
    pub content: Vec<u8>,
}

impl JobFile {
    /// Files as a client sends them — `(name, content in base64)` — checked: at most
    /// `max_files`, plain distinct names, valid base64, together at most `max_bytes`
    /// decoded (`TooLarge` past it).
    pub fn parse_all(
        sent: impl ExactSizeIterator<Item = (String, String)>,
        max_files: usize,
        max_bytes: u64,
    ) -> DomainResult<Vec<Self>> {
        let invalid = |message: String| DomainError::InvalidField {
            field: "attachments",
            message,
        };
        if sent.len() > max_files {
            return Err(invalid(format!("at most {max_files} files")));
        }
        let mut total = 0u64;
        let mut files: Vec<Self> = Vec::with_capacity(sent.len());
        for (name, content) in sent {
            let name = FileName::parse(&name).map_err(|err| invalid(err.to_string()))?;
            if files.iter().any(|file| file.name == name) {
                return Err(invalid(format!("{} is sent twice", name.as_str())));
            }
            let content = BASE64
                .decode(content.as_bytes())
                .map_err(|_| invalid(format!("the content of {} is not base64", name.as_str())))?;
            total += content.len() as u64;
            if total > max_bytes {
                return Err(DomainError::TooLarge(format!(
                    "a job's attachments may have at most {} KiB together",
                    max_bytes / 1024
                )));
            }
            files.push(Self { name, content });
        }
        Ok(files)
    }

    /// What the job's record keeps of it.
    pub fn attachment(&self) -> JobAttachment {
        JobAttachment {
            name: self.name.clone(),
            size: self.content.len() as u64,
            inline_content: Vec::new(),
            key: None,
        }
    }
}

fn base64_bytes<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
    let text = String::deserialize(deserializer)?;
    BASE64.decode(text).map_err(serde::de::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(files: &[(&str, &str)]) -> Vec<(String, String)> {
        files
            .iter()
            .map(|(name, content)| ((*name).to_owned(), (*content).to_owned()))
            .collect()
    }

    #[test]
    fn a_record_keeps_the_name_and_size_never_the_content() {
        let files = JobFile::parse_all(sent(&[("a.csv", "eCwxCg==")]).into_iter(), 2, 10).unwrap();
        assert_eq!(files[0].content, b"x,1\n");
        let attachment = files[0].attachment();
        assert_eq!(attachment.upload_path(), "uploads/a.csv");
        let json = serde_json::to_value(&attachment).unwrap();
        assert_eq!(json, serde_json::json!({ "name": "a.csv", "size": 4 }));
        assert_eq!(serde_json::from_value::<JobAttachment>(json).unwrap(), attachment);
    }

    #[test]
    fn a_record_of_an_earlier_release_gives_its_inline_content_once() {
        let old = serde_json::json!({ "name": "a.csv", "content": "eCwxCg==" });
        let attachment: JobAttachment = serde_json::from_value(old).unwrap();
        assert_eq!(attachment.inline_content, b"x,1\n");
        let json = serde_json::to_value(&attachment).unwrap();
        assert!(json.get("content").is_none(), "{json}");
    }

    #[test]
    fn attachments_are_checked() {
        let parse = |files: &[(&str, &str)]| JobFile::parse_all(sent(files).into_iter(), 2, 4);
        assert!(matches!(parse(&[("a", "YWJjZA==")]), Ok(files) if files.len() == 1));
        for bad in [
            &[("../a", "YQ==")][..],
            &[("a/b", "YQ==")],
            &[("a", "not base64!")],
            &[("a", "YQ=="), ("a", "Yg==")],
            &[("a", ""), ("b", ""), ("c", "")],
        ] {
            assert!(
                matches!(parse(bad), Err(DomainError::InvalidField { .. })),
                "{bad:?}"
            );
        }
        assert!(matches!(
            parse(&[("a", "YWJj"), ("b", "YWI=")]),
            Err(DomainError::TooLarge(_))
        ));
    }
}
