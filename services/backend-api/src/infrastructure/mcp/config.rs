//! The MCP configuration file (`MCP_CONFIG`), in the `mcp.json` shape other clients use:
//! `{"mcpServers": {"<name>": {"command", "args", "env"} | {"url", "headers"}}}`.
//! `"disabled": true` leaves a server out; `"type"` is accepted and checked against the
//! fields given.

use std::collections::BTreeMap;
use std::path::Path;

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

/// The enabled servers the file at `path` describes; the error names the file and
/// what to fix.
pub fn load(path: &Path) -> Result<Vec<McpServer>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|err| format!("MCP_CONFIG {}: {err}", path.display()))?;
    parse(&text).map_err(|err| format!("MCP_CONFIG {}: {err}", path.display()))
}

fn parse(text: &str) -> Result<Vec<McpServer>, String> {
    let file: File = serde_json::from_str(text).map_err(|err| err.to_string())?;
    let mut servers = Vec::new();
    for (name, entry) in file.mcp_servers {
        if entry.disabled {
            continue;
        }
        let transport = transport(entry).map_err(|err| format!("server {name:?}: {err}"))?;
        let name = McpServerName::parse(&name).map_err(|err| err.to_string())?;
        servers.push(McpServer { name, transport });
    }
    Ok(servers)
}

fn transport(entry: Entry) -> Result<McpTransport, String> {
    match (entry.command, entry.url, entry.kind.as_deref()) {
        (Some(command), None, None | Some("stdio")) => Ok(McpTransport::Stdio {
            command,
            args: entry.args,
            env: entry.env,
        }),
        (None, Some(url), None | Some("http" | "streamable-http" | "streamableHttp" | "sse")) => {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(format!("url {url:?} is not an http:// or https:// address"));
            }
            Ok(McpTransport::Http {
                url,
                headers: entry.headers,
            })
        }
        (Some(_), Some(_), _) => Err("give either command (stdio) or url (HTTP), not both".into()),
        (None, None, _) => Err("give command (stdio) or url (HTTP)".into()),
        (_, _, Some(kind)) => Err(format!("type {kind:?} does not fit the fields given")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_shapes_are_read_and_disabled_servers_left_out() {
        let servers = parse(
            r#"{"mcpServers": {
                "fetch": {"command": "uvx", "args": ["mcp-server-fetch"], "env": {"K": "v"}},
                "remote": {"type": "http", "url": "https://mcp.example.org/mcp",
                           "headers": {"Authorization": "Bearer s"}},
                "off": {"url": "http://127.0.0.1:1/mcp", "disabled": true}
            }}"#,
        )
        .unwrap();
        assert_eq!(servers.len(), 2);
        assert_eq!(servers[0].name.as_str(), "fetch");
        assert!(
            matches!(&servers[0].transport, McpTransport::Stdio { args, .. } if args == &["mcp-server-fetch"])
        );
        assert!(
            matches!(&servers[1].transport, McpTransport::Http { headers, .. } if headers["Authorization"] == "Bearer s")
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
            (r#"{"mcpServers": {"a": {"url": "ftp://h"}}}"#, "not an http"),
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
            let err = parse(text).unwrap_err();
            assert!(err.contains(says), "{text}: {err}");
        }
    }
}
