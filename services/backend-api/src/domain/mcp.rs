//! MCP (Model Context Protocol) servers a deployment adds tools from: how they are
//! configured, the tools they offer as the model sees them (`mcp__<server>__<tool>`),
//! what a call gives back (the port the run and the API use to reach them:
//! [`super::ports::McpServers`]).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::agent::SandboxAccess;
use super::error::{DomainError, DomainResult};
use super::session::SessionId;

/// Starts the model-facing name of every MCP tool.
const PREFIX: &str = "mcp__";
/// Longest tool name model providers accept.
const MAX_TOOL_NAME: usize = 64;
/// Longest tool description offered, in bytes; a longer one is cut.
pub const MAX_TOOL_DESCRIPTION: usize = 2048;
/// Largest input schema offered, as JSON bytes; a tool with a larger one is left out.
pub const MAX_TOOL_SCHEMA: usize = 16 * 1024;
/// Most tools one server offers; those after are left out.
pub const MAX_SERVER_TOOLS: usize = 100;

/// A server's name from the configuration: letters, digits, `-` and `_`, without `__`
/// (which separates it from the tool's name).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct McpServerName(String);

impl McpServerName {
    pub fn parse(raw: &str) -> DomainResult<Self> {
        let fits = (1..=32).contains(&raw.len())
            && raw
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && !raw.contains("__");
        if fits {
            Ok(Self(raw.to_owned()))
        } else {
            Err(DomainError::Invalid(format!(
                "MCP server name {raw:?}: use 1 to 32 letters, digits, '-' or '_' (no '__')"
            )))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// How the backend reaches a server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum McpTransport {
    /// Streamable HTTP, from the backend. `headers` may hold secrets: never shown.
    Http {
        url: String,
        headers: BTreeMap<String, String>,
    },
    /// A command speaking MCP on stdin/stdout, meant to run in the session's sandbox.
    /// `env` may hold secrets: never shown.
    Stdio {
        command: String,
        args: Vec<String>,
        env: BTreeMap<String, String>,
    },
}

/// A configured server, as stored: added by an admin or seeded from the `MCP_CONFIG`
/// file. Only enabled servers give the agent tools.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct McpServer {
    pub name: McpServerName,
    pub transport: McpTransport,
    pub enabled: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// One tool of a server, with the description and input schema the server gave.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct McpTool {
    /// The tool's name on its server.
    pub name: String,
    pub description: String,
    #[serde(skip)]
    pub input_schema: serde_json::Value,
}

impl McpTool {
    /// What a server listed, as the model may be offered it: at most
    /// [`MAX_SERVER_TOOLS`] tools, descriptions cut to [`MAX_TOOL_DESCRIPTION`] bytes, and
    /// no tool whose name is longer than any model accepts or whose schema is over
    /// [`MAX_TOOL_SCHEMA`] bytes. What a server says costs every request's context.
    pub fn within_limits(listed: Vec<McpTool>) -> Vec<McpTool> {
        listed
            .into_iter()
            .filter(|tool| {
                tool.name.len() <= MAX_TOOL_NAME && tool.input_schema.to_string().len() <= MAX_TOOL_SCHEMA
            })
            .take(MAX_SERVER_TOOLS)
            .map(|mut tool| {
                if tool.description.len() > MAX_TOOL_DESCRIPTION {
                    let mut end = MAX_TOOL_DESCRIPTION - '…'.len_utf8();
                    while !tool.description.is_char_boundary(end) {
                        end -= 1;
                    }
                    tool.description.truncate(end);
                    tool.description.push('…');
                }
                tool
            })
            .collect()
    }
}

/// A server as a person sees it: where it is (without secrets), its tools, or why it
/// offers none.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct McpServerStatus {
    pub name: String,
    /// `http` or `stdio`.
    pub transport: &'static str,
    /// The server's address without query or credentials (`http` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    pub tools: Vec<McpTool>,
    /// Why the server gives no tools now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// A stdio server: it runs in each session's own sandbox, and the tools it lists
    /// there go to that session's runs only, never here.
    pub not_started: bool,
}

/// What one call gave back, in the order the server sent it.
#[derive(Debug, Clone, PartialEq)]
pub struct McpResult {
    pub content: Vec<McpContent>,
    /// The tool ran and reported a failure (the server itself is fine).
    pub is_error: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum McpContent {
    Text(String),
    /// Base64 data, as MCP sends it.
    Image {
        mime_type: String,
        data: String,
    },
    /// A resource, embedded (with its text, if any) or linked.
    Resource {
        uri: String,
        text: Option<String>,
    },
}

/// The model-facing name of `tool` on `server`, if a provider accepts it.
pub fn qualified_name(server: &str, tool: &str) -> Option<String> {
    let name = format!("{PREFIX}{server}__{tool}");
    let valid = name.len() <= MAX_TOOL_NAME
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    valid.then_some(name)
}

/// The server and tool a model-facing name stands for.
pub fn split_qualified(name: &str) -> Option<(&str, &str)> {
    name.strip_prefix(PREFIX)?.split_once("__")
}

/// Where a run's stdio servers run: its sandbox, by the session id the manager knows it
/// by (the session's, or a sub-agent's own sandbox's).
#[derive(Debug, Clone)]
pub struct McpSite {
    pub session: SessionId,
    pub sandbox: SandboxAccess,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_back_into_server_and_tool() {
        let name = qualified_name("everything", "get-sum").unwrap();
        assert_eq!(name, "mcp__everything__get-sum");
        assert_eq!(split_qualified(&name), Some(("everything", "get-sum")));
        assert_eq!(split_qualified("shell_exec"), None);
    }

    #[test]
    fn what_a_server_lists_is_kept_within_limits() {
        let tool = |name: &str, description: String, schema_bytes: usize| McpTool {
            name: name.into(),
            description,
            input_schema: serde_json::json!({ "type": "object", "description": "x".repeat(schema_bytes) }),
        };
        let mut listed = vec![
            tool("long", "é".repeat(MAX_TOOL_DESCRIPTION), 10),
            tool("huge", "fine".into(), MAX_TOOL_SCHEMA),
            tool(&"n".repeat(MAX_TOOL_NAME + 1), "fine".into(), 10),
        ];
        listed.extend((0..MAX_SERVER_TOOLS + 5).map(|i| tool(&format!("t{i}"), "fine".into(), 10)));
        let kept = McpTool::within_limits(listed);
        assert_eq!(kept.len(), MAX_SERVER_TOOLS);
        assert_eq!(kept[0].name, "long");
        assert!(kept[0].description.len() <= MAX_TOOL_DESCRIPTION && kept[0].description.ends_with('…'));
        assert_eq!(kept[1].name, "t0");
        assert_eq!(kept[1].description, "fine");
    }

    #[test]
    fn names_providers_refuse_are_not_made() {
        assert_eq!(qualified_name("s", &"x".repeat(60)), None);
        assert_eq!(qualified_name("s", "has space"), None);
        for bad in ["", "a__b", "dots.no", &"x".repeat(33)] {
            assert!(McpServerName::parse(bad).is_err(), "{bad:?}");
        }
    }
}
