//! The MCP configuration file (`MCP_CONFIG`), in the `mcp.json` shape other clients use:
//! `{"mcpServers": {"<name>": {"command", "args", "env"} | {"url", "headers"}}}`.
//! `"disabled": true` makes a server disabled; `"type"` is accepted and checked against
//! the fields given. The file seeds the store (see `application::mcp_servers`), so its
//! servers are checked by the same rules as an admin's: a stdio server with an `env`
//! stops the start, naming it (its variables would be readable in people's sandboxes).

use std::collections::BTreeMap;
use std::path::Path;

use chrono::{DateTime, Utc};
use serde::Deserialize;

use crate::domain::mcp::{McpServer, McpServerName, McpTransport};

#[derive(Deserialize)]
struct File {
    #[serde(rename = "mcpServers")]
    mcp_servers: BTreeMap<String, Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    #[serde(rename = "type")]
    kind: Option<String>,
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    url: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    #[serde(default)]
    disabled: bool,
}

/// The servers the file at `path` describes, as new at `now`; the error names the file
/// and what to fix.
pub fn load(path: &Path, now: DateTime<Utc>) -> Result<Vec<McpServer>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|err| format!("MCP_CONFIG {}: {err}", path.display()))?;
    parse(&text, now).map_err(|err| format!("MCP_CONFIG {}: {err}", path.display()))
}

fn parse(text: &str, now: DateTime<Utc>) -> Result<Vec<McpServer>, String> {
    let file: File = serde_json::from_str(text).map_err(|err| err.to_string())?;
    let mut servers = Vec::new();
    for (name, entry) in file.mcp_servers {
        let enabled = !entry.disabled;
        let transport = transport(entry).map_err(|err| format!("server {name:?}: {err}"))?;
        let name = McpServerName::parse(&name).map_err(|err| err.to_string())?;
        servers.push(McpServer {
            name,
            transport,
            enabled,
            created_at: now,
            updated_at: now,
        });
    }
    Ok(servers)
}

fn transport(entry: Entry) -> Result<McpTransport, String> {
    let checked = match (entry.command, entry.url, entry.kind.as_deref()) {
        (Some(command), None, None | Some("stdio")) => McpTransport::stdio(&command, entry.args, entry.env),
        (None, Some(url), None | Some("http" | "streamable-http" | "streamableHttp" | "sse")) => {
            McpTransport::http(&url, entry.headers)
        }
        (Some(_), Some(_), _) => return Err("give either command (stdio) or url (HTTP), not both".into()),
        (None, None, _) => return Err("give command (stdio) or url (HTTP)".into()),
        (_, _, Some(kind)) => return Err(format!("type {kind:?} does not fit the fields given")),
    };
    checked.map_err(|err| err.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_shapes_are_read_and_disabled_servers_kept_disabled() {
        let servers = parse(
            r#"{"mcpServers": {
                "fetch": {"command": "uvx", "args": ["mcp-server-fetch"], "env": {}},
                "remote": {"type": "http", "url": "https://mcp.example.org/mcp",
                           "headers": {"Authorization": "Bearer s"}},
                "off": {"url": "http://127.0.0.1:1/mcp", "disabled": true}
            }}"#,
            Utc::now(),
        )
        .unwrap();
        let names: Vec<_> = servers.iter().map(|s| (s.name.as_str(), s.enabled)).collect();
        assert_eq!(names, [("fetch", true), ("off", false), ("remote", true)]);
        assert!(
            matches!(&servers[0].transport, McpTransport::Stdio { args, .. } if args == &["mcp-server-fetch"])
        );
        assert!(
            matches!(&servers[2].transport, McpTransport::Http { headers, .. } if headers["Authorization"] == "Bearer s")
        );
    }

    #[test]
    fn mistakes_are_named() {
        for (text, says) in [
            (r#"{"mcpServers": {"a": {}}}"#, "give command"),
            (
                r#"{"mcpServers": {"a": {"command": "x", "url": "http://h"}}}"#,
                "not both",
            ),
            (r#"{"mcpServers": {"a": {"url": "ftp://h"}}}"#, "url: not an http"),
            (
                r#"{"mcpServers": {"a": {"command": "x", "env": {"API_KEY": "canary"}}}}"#,
                "server \"a\": env: a stdio server runs in a person's sandbox",
            ),
            (
                r#"{"mcpServers": {"a": {"command": "./x"}}}"#,
                "command: a program name or an absolute path",
            ),
            (
                r#"{"mcpServers": {"a": {"type": "stdio", "url": "http://h"}}}"#,
                "does not fit",
            ),
            (
                r#"{"mcpServers": {"a b": {"url": "http://h"}}}"#,
                "MCP server name",
            ),
            (
                r#"{"mcpServers": {"a": {"url": "http://h", "colour": 1}}}"#,
                "unknown field",
            ),
            (r#"{"servers": {}}"#, "mcpServers"),
        ] {
            let err = parse(text, Utc::now()).unwrap_err();
            assert!(err.contains(says), "{text}: {err}");
        }
    }
}
