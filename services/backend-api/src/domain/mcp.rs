//! MCP (Model Context Protocol) servers a deployment adds tools from: how they are
//! configured, the tools they offer as the model sees them (`mcp__<server>__<tool>`),
//! what a call gives back, and the port the run and the API use to reach them.

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
    /// A stdio server no session has started yet: its tools are listed when a run first
    /// starts it in its sandbox.
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

/// The MCP servers of the deployment.
#[async_trait::async_trait]
pub trait McpServers: Send + Sync {
    /// Every server with its tools (listed now, or the reason it has none). A stdio
    /// server whose tools are not known yet is started in `site` to list them; without a
    /// site it says it lists them when a session starts it.
    async fn status(&self, site: Option<&McpSite>) -> Vec<McpServerStatus>;
    /// Whether an enabled server runs in the sandbox and has not listed its tools yet
    /// (a run then gives [`McpServers::status`] its sandbox).
    async fn needs_site(&self) -> bool;
    /// Whether `server` runs in the sandbox (its calls need a site).
    fn runs_in_sandbox(&self, server: &str) -> bool;
    /// Calls `tool` on `server`; `Err` says why the server gave no result.
    async fn call(
        &self,
        server: &str,
        tool: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
        site: Option<&McpSite>,
    ) -> Result<McpResult, String>;
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
    fn names_providers_refuse_are_not_made() {
        assert_eq!(qualified_name("s", &"x".repeat(60)), None);
        assert_eq!(qualified_name("s", "has space"), None);
        for bad in ["", "a__b", "dots.no", &"x".repeat(33)] {
            assert!(McpServerName::parse(bad).is_err(), "{bad:?}");
        }
    }
}
