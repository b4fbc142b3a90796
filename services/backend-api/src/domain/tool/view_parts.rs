//! The parts of a tool call's view that are more than a field: a code cell and its
//! outputs, a stored image, an MCP result's pieces, a registered MCP server, a memory
//! note written, an automation made.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use tool_api_contract::code::{CodeError, CodeLanguage};
use utoipa::ToSchema;

use crate::domain::run_call::MemoryAction;

/// A note the agent wrote to the person's memory (`memory`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MemoryChange {
    pub action: MemoryAction,
    /// The note as kept (add, replace); empty for remove.
    pub text: String,
    /// The part of the note's text that named the one replaced or removed.
    #[serde(default)]
    pub old: Option<String>,
    /// The notes the memory holds afterwards.
    pub notes: usize,
    /// Written after the chat read content from outside: no chat gets it until the
    /// person approves it on the Memory page. Absent: kept at once.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pending: bool,
}

/// An automation the agent made for its person (`automation_create`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AutomationMade {
    pub id: String,
    pub name: String,
    /// Its next fire times, soonest first (empty: it will not fire).
    pub next_runs: Vec<DateTime<Utc>>,
}

/// An MCP server the agent registered: its name, how it is started, and the tools it
/// offered with the test call's result — or why it was not registered (`error`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ToolRegistration {
    pub server: String,
    pub command: String,
    pub args: Vec<String>,
    pub tools: Vec<RegisteredTool>,
    #[serde(default)]
    pub test: Option<String>,
    #[serde(default)]
    pub error: Option<String>,
}

/// A tool a registered server offers, as the person sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RegisteredTool {
    /// As the model calls it: `mcp__<server>__<tool>`.
    pub name: String,
    pub description: String,
}

/// A code cell as the person sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CodeCell {
    pub code: String,
    pub language: CodeLanguage,
    #[serde(default)]
    pub execution_count: Option<u32>,
    pub stdout: String,
    pub stderr: String,
    pub outputs: Vec<CodeOutput>,
    #[serde(default)]
    pub error: Option<CodeError>,
    #[serde(default)]
    pub timed_out: bool,
    /// Why the kernel was started afresh during the cell.
    #[serde(default)]
    pub kernel_restarted: Option<String>,
}

/// One display output of a code cell, in the order the kernel produced it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CodeOutput {
    Text {
        text: String,
    },
    /// A table or other markup, sanitised (no scripts, styles or event handlers).
    Html {
        html: String,
    },
    /// A chart: `image` once stored (`None` when it could not be), its size when known.
    Image {
        #[serde(default)]
        image: Option<ImageRef>,
        #[serde(default)]
        width: Option<u32>,
        #[serde(default)]
        height: Option<u32>,
    },
}

/// A stored image (a browser screenshot, a chart), as the view refers to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ImageRef {
    pub id: String,
    /// Where the signed-in person (or a share link) loads it.
    pub url: String,
}

/// One piece of an MCP tool's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum McpItem {
    Text {
        text: String,
    },
    /// `src` is a `data:` URL.
    Image {
        mime_type: String,
        src: String,
    },
    Resource {
        uri: String,
        #[serde(default)]
        text: Option<String>,
    },
}
