//! What the person sees of a finished tool call: one variant per kind of view, stored in
//! the event log and drawn by the front end's `ToolView.vue`.

use serde::{Deserialize, Deserializer, Serialize};
use tool_api_contract::browser::{ConsoleLog, EvaluateResponse};
use tool_api_contract::code::KernelRestarted;
use tool_api_contract::files::{FindResponse, SearchResponse};
use tool_api_contract::shell::CommandState;
use tool_api_contract::web::FetchResponse;
use utoipa::ToSchema;

use super::view_parts::{
    AutomationMade, CodeCell, CodeOutput, ImageRef, McpItem, MemoryChange, ToolRegistration,
};
use crate::domain::files::Listing;
use crate::domain::web_search::WebSearchResult;

/// What the person sees of a finished tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolView {
    /// A shell command and its console output.
    Shell {
        command: String,
        output: String,
        state: CommandState,
        #[serde(default)]
        exit_code: Option<i32>,
    },
    /// A file read or written (`content`), or edited (`old` replaced by `new`).
    File {
        path: String,
        #[serde(default)]
        content: Option<String>,
        #[serde(default)]
        old: Option<String>,
        #[serde(default)]
        new: Option<String>,
    },
    /// The browser's page after an action, with its picture when one was stored.
    Browser {
        url: String,
        title: String,
        #[serde(default)]
        screenshot: Option<ImageRef>,
    },
    /// Web search results.
    Search { results: Vec<WebSearchResult> },
    /// A folder's entries, folders first (`file_list`).
    Listing(Listing),
    /// The paths whose names matched a pattern (`file_find`).
    Found(FindResponse),
    /// The lines that matched a pattern, each with its file and line (`file_search`).
    Matches(SearchResponse),
    /// What a script run in the page gave back, or what it threw
    /// (`browser_console_exec`).
    Evaluated(EvaluateResponse),
    /// The page's console messages, oldest first (`browser_console_view`).
    Console(ConsoleLog),
    /// The code kernel, started afresh (`code_restart`).
    KernelRestart(KernelRestarted),
    /// A web page fetched as text (`web_fetch`).
    Fetched(FetchResponse),
    /// An answer shown as it came: a tool whose answer has no view of its own, and views
    /// stored before their tool's answer was typed (or in a shape this version does not
    /// know).
    Result {
        #[schema(value_type = Object)]
        result: serde_json::Value,
    },
    /// An MCP tool's result, images inline.
    Mcp {
        server: String,
        tool: String,
        is_error: bool,
        content: Vec<McpItem>,
    },
    /// A code cell, what it printed and showed, and how it ended.
    Code(Box<CodeCell>),
    /// A task a sub-agent did: the model it used, where it worked, its answer and the
    /// files it handed back into the delegating agent's sandbox.
    Delegation {
        model: String,
        own_sandbox: bool,
        answer: String,
        #[serde(default)]
        files: Vec<String>,
    },
    /// An MCP server the agent registered with `tool_register`.
    ToolRegister(Box<ToolRegistration>),
    /// A note the agent wrote to the person's memory (`memory`).
    Memory(MemoryChange),
    /// An automation the agent made for its person (`automation_create`).
    Automation(AutomationMade),
    /// Why the call gave no result.
    Error { message: String },
}

impl ToolView {
    pub fn error(message: impl Into<String>) -> Self {
        Self::Error {
            message: message.into(),
        }
    }

    /// Where the pictures of a call's outcome go once stored, in the order the outcome
    /// lists them: a browser view's screenshot, a code cell's images.
    pub fn image_slots(&mut self) -> Vec<&mut Option<ImageRef>> {
        match self {
            Self::Browser { screenshot, .. } => vec![screenshot],
            Self::Code(cell) => cell
                .outputs
                .iter_mut()
                .filter_map(|output| match output {
                    CodeOutput::Image { image, .. } => Some(image),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// For a code cell, whether it failed (an exception, a timeout, a lost kernel).
    pub fn code_failed(&self) -> Option<bool> {
        match self {
            Self::Code(cell) => {
                Some(cell.error.is_some() || cell.timed_out || cell.kernel_restarted.is_some())
            }
            _ => None,
        }
    }

    /// Reads a stored view; one in a shape this version does not know is kept as a
    /// plain result rather than making the whole event unreadable.
    pub fn lenient<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Self>, D::Error> {
        let Some(value) = Option::<serde_json::Value>::deserialize(deserializer)? else {
            return Ok(None);
        };
        Ok(Some(
            serde_json::from_value(value.clone()).unwrap_or(Self::Result { result: value }),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Deserialize)]
    struct Holder {
        #[serde(default, deserialize_with = "ToolView::lenient")]
        view: Option<ToolView>,
    }

    #[test]
    fn views_stored_before_they_were_typed_still_read() {
        let shell = json!({ "view": { "kind": "shell", "command": "ls", "output": "a\n", "state": "exited", "exit_code": 0 } });
        let Holder { view } = serde_json::from_value(shell).unwrap();
        assert!(matches!(
            view,
            Some(ToolView::Shell {
                exit_code: Some(0),
                ..
            })
        ));
        let file =
            json!({ "view": { "kind": "file", "path": "a.txt", "content": "hi", "old": null, "new": null } });
        let Holder { view } = serde_json::from_value(file).unwrap();
        assert!(matches!(view, Some(ToolView::File { old: None, .. })));
        let odd = json!({ "view": { "kind": "hologram", "depth": 3 } });
        let Holder { view } = serde_json::from_value(odd).unwrap();
        assert_eq!(
            view,
            Some(ToolView::Result {
                result: json!({ "kind": "hologram", "depth": 3 })
            })
        );
    }

    #[test]
    fn a_stored_result_still_reads_and_typed_views_read_as_written() {
        // A `file_list` call stored while its answer was shown as it came.
        let stored = json!({ "view": { "kind": "result", "result": { "path": "/w", "entries": [] } } });
        let Holder { view } = serde_json::from_value(stored).unwrap();
        assert_eq!(
            view,
            Some(ToolView::Result {
                result: json!({ "path": "/w", "entries": [] })
            })
        );
        let matches = json!({ "view": {
            "kind": "matches",
            "matches": [{ "path": "/w/a.rs", "line": 3, "text": "fn main() {}" }],
            "files_scanned": 2,
            "truncated": false,
        } });
        let Holder { view } = serde_json::from_value(matches.clone()).unwrap();
        let Some(ToolView::Matches(found)) = &view else {
            panic!("{view:?}");
        };
        assert_eq!((found.matches[0].line, found.files_scanned), (3, 2));
        assert_eq!(serde_json::to_value(&view).unwrap(), matches["view"]);
        let listing = json!({ "view": { "kind": "listing", "path": "/w", "entries": [
            { "name": "src", "path": "/w/src", "kind": "dir", "size": 0, "mtime_ms": 1 },
        ] } });
        let Holder { view } = serde_json::from_value(listing).unwrap();
        assert!(matches!(view, Some(ToolView::Listing(l)) if l.entries[0].name == "src"));
        let evaluated = json!({ "view": { "kind": "evaluated", "result": { "n": [1, 2] } } });
        let Holder { view } = serde_json::from_value(evaluated).unwrap();
        assert!(
            matches!(&view, Some(ToolView::Evaluated(e)) if e.result == json!({ "n": [1, 2] }) && e.exception.is_none()),
            "{view:?}"
        );
        // A typed view that lost a field reads as it came rather than not at all.
        let broken = json!({ "view": { "kind": "fetched", "url": "https://example.org" } });
        let Holder { view } = serde_json::from_value(broken).unwrap();
        assert!(matches!(view, Some(ToolView::Result { .. })), "{view:?}");
    }

    #[test]
    fn memory_and_automation_views_are_typed_and_their_old_results_still_read() {
        let memory = json!({ "view": { "kind": "memory", "action": "replace", "text": "uses pnpm", "old": "npm", "notes": 2 } });
        let Holder { view } = serde_json::from_value(memory.clone()).unwrap();
        let Some(ToolView::Memory(change)) = &view else {
            panic!("{view:?}");
        };
        assert_eq!(
            (change.text.as_str(), change.old.as_deref(), change.notes),
            ("uses pnpm", Some("npm"), 2)
        );
        assert_eq!(serde_json::to_value(&view).unwrap(), memory["view"]);
        let made = json!({ "view": { "kind": "automation", "id": "aut-1", "name": "Standup", "next_runs": ["2026-11-30T08:00:00Z"] } });
        let Holder { view } = serde_json::from_value(made.clone()).unwrap();
        assert!(
            matches!(&view, Some(ToolView::Automation(a)) if a.name == "Standup" && a.next_runs.len() == 1)
        );
        assert_eq!(serde_json::to_value(&view).unwrap(), made["view"]);
        // As both tools' answers were stored before they had views of their own.
        for result in [
            json!(
                "note added; memory holds 1 notes (new chats get them; this chat's prompt stays as it began)"
            ),
            json!({ "id": "aut-1", "name": "Standup", "next_runs": ["2026-11-30T08:00:00+00:00"] }),
        ] {
            let stored = json!({ "view": { "kind": "result", "result": result } });
            let Holder { view } = serde_json::from_value(stored).unwrap();
            assert_eq!(view, Some(ToolView::Result { result }));
        }
    }
}
