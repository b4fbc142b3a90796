//! What a job made: its answer and the files its run created or changed.
//!
//! While the job runs, both come from its session's events: the last assistant message
//! and the files the file tools wrote. When it ends, its workspace is listed once for
//! the files modified since the job started, so what commands and code made counts
//! too; that outcome is stored with the job, and reading an ended job reads no log.

use std::collections::BTreeSet;

use crate::domain::event::{AgentEvent, MessageRole, ToolStatus};
use crate::domain::files::ChangedFiles;
use crate::domain::job::JobOutcome;
use crate::domain::logged_call::LoggedCall;
use crate::domain::sandbox_call::SandboxCall;

/// Tools whose `path` argument names a file the run wrote.
/// What a job's session's events tell, folded one event at a time.
#[derive(Default)]
pub struct EventsSeen {
    answer: Option<String>,
    /// In the order first written.
    written: Vec<String>,
    /// Whether the run called a sandbox tool: a run that did not has no workspace worth
    /// listing (and listing one would start a sandbox).
    pub used_sandbox: bool,
}

impl EventsSeen {
    pub fn see(&mut self, event: &AgentEvent) {
        match event {
            AgentEvent::Message {
                role: MessageRole::Assistant,
                content,
                ..
            } => self.answer = Some(content.clone()),
            AgentEvent::Tool {
                call,
                status: ToolStatus::Called,
                ..
            } => {
                self.used_sandbox |= SandboxCall::is_named(call.name());
                let path = match call {
                    LoggedCall::Sandbox(SandboxCall::FileWrite(write)) => Some(&write.path),
                    LoggedCall::Sandbox(SandboxCall::FileReplace(replace)) => Some(&replace.path),
                    _ => None,
                };
                if let Some(path) = path {
                    if !self.written.iter().any(|seen| seen == path) {
                        self.written.push(path.to_owned());
                    }
                }
            }
            _ => {}
        }
    }

    /// The outcome the events alone tell: for a job still going, or one whose workspace
    /// could not be listed.
    pub fn outcome(self) -> JobOutcome {
        JobOutcome {
            answer: self.answer,
            files: self.written,
            files_truncated: false,
        }
    }

    /// The outcome with the workspace's `changed` files, less the job's `attachments`
    /// (written there before the run began) unless a file tool wrote them again.
    pub fn outcome_with(self, changed: ChangedFiles, attachments: &[String]) -> JobOutcome {
        let prefix = format!("{}/", changed.root.trim_end_matches('/'));
        let rewritten: BTreeSet<&str> = self
            .written
            .iter()
            .map(|path| path.strip_prefix(&prefix).unwrap_or(path))
            .map(|path| path.strip_prefix("./").unwrap_or(path))
            .collect();
        let files = changed
            .paths
            .into_iter()
            .filter(|path| !attachments.contains(path) || rewritten.contains(path.as_str()))
            .collect();
        JobOutcome {
            answer: self.answer,
            files,
            files_truncated: changed.truncated,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn called(name: &str, args: serde_json::Value) -> AgentEvent {
        AgentEvent::Tool {
            call_id: "c".into(),
            call: LoggedCall::read(name.into(), args),
            status: ToolStatus::Called,
            view: None,
        }
    }

    fn seen(events: &[AgentEvent]) -> EventsSeen {
        let mut seen = EventsSeen::default();
        for event in events {
            seen.see(event);
        }
        seen
    }

    #[test]
    fn the_events_give_the_last_answer_and_the_written_files_once_each() {
        let seen = seen(&[
            called("file_write", json!({ "path": "b.py", "content": "" })),
            called("file_replace", json!({ "path": "a.py", "old": "a", "new": "b" })),
            called("file_write", json!({ "path": "b.py", "content": "" })),
            called("file_read", json!({ "path": "c.py" })),
            AgentEvent::Message {
                role: MessageRole::Assistant,
                content: "first".into(),
                attachments: vec![],
            },
            AgentEvent::Message {
                role: MessageRole::Assistant,
                content: "last".into(),
                attachments: vec![],
            },
        ]);
        assert!(seen.used_sandbox);
        let outcome = seen.outcome();
        assert_eq!(outcome.answer.as_deref(), Some("last"));
        assert_eq!(outcome.files, ["b.py", "a.py"]);
    }

    #[test]
    fn a_run_without_sandbox_tools_has_no_workspace_to_list() {
        let seen = seen(&[called("web_search", json!({ "query": "x" }))]);
        assert!(!seen.used_sandbox);
    }

    #[test]
    fn the_listing_leaves_out_attachments_no_file_tool_wrote_again() {
        let changed = || ChangedFiles {
            root: "/home/user".into(),
            paths: vec!["out.zip".into(), "uploads/a.csv".into(), "uploads/b.csv".into()],
            truncated: true,
        };
        let attachments = ["uploads/a.csv".to_owned(), "uploads/b.csv".to_owned()];
        let untouched = seen(&[]).outcome_with(changed(), &attachments);
        assert_eq!(untouched.files, ["out.zip"]);
        assert!(untouched.files_truncated);

        let rewritten = seen(&[called(
            "file_write",
            json!({ "path": "/home/user/uploads/b.csv", "content": "x" }),
        )])
        .outcome_with(changed(), &attachments);
        assert_eq!(rewritten.files, ["out.zip", "uploads/b.csv"]);
    }
}
