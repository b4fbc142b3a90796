//! What the person sees of a finished tool call: one variant per kind of view, stored in
//! the event log and drawn by the front end's `ToolView.vue`.

use serde::{Deserialize, Deserializer, Serialize};
use tool_api_contract::shell::CommandState;
use utoipa::ToSchema;

use super::view_parts::{CodeCell, CodeOutput, ImageRef, McpItem, ToolRegistration};
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
    /// An answer shown as it came (listings, matches, console messages, fetched pages).
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
}
