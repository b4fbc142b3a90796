//! MCP servers the agent makes: a stdio server it wrote in its sandbox and registered
//! with the `tool_register` run tool, whose tools its session's later model requests
//! are offered as `mcp__<name>__<tool>` — for that session only, never another. The
//! rules live here: how many a session keeps, the shape of a command, and what the tools
//! it lists must be to be offered (each refusal says exactly why, for the model to fix).
//!
//! A registration is kept with its session ([`super::ports::AgentServerRepository`]):
//! its command and arguments (started again in the sandbox when a later turn calls it)
//! and the tools it listed, with their schemas.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::ids::KeptToolId;
use super::mcp::{qualified_name, McpServerName, McpTool, MAX_TOOL_DESCRIPTION, MAX_TOOL_SCHEMA};
use super::session::SessionId;
use super::user::UserId;

/// The name of the run's tool that registers a server.
pub const REGISTER_TOOL: &str = "tool_register";
/// The most servers one session keeps registered.
pub const MAX_SERVERS: usize = 5;
/// The most tools one registered server may list.
pub const MAX_TOOLS: usize = 20;
/// The longest command, and each argument, in bytes.
pub const MAX_COMMAND: usize = 1024;
/// The most arguments a command takes.
pub const MAX_ARGS: usize = 32;
/// The most bytes of tool definitions (names, descriptions, schemas) a session's
/// servers offer together: they go with every later model request of the chat.
pub const MAX_SESSION_TOOL_BYTES: usize = 64 * 1024;

/// A server the agent registered in a session: what starts it in the session's sandbox
/// and the tools it listed when registered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentServer {
    pub session_id: SessionId,
    pub owner: UserId,
    pub name: McpServerName,
    pub command: String,
    pub args: Vec<String>,
    pub tools: Vec<AgentTool>,
    pub registered_at: DateTime<Utc>,
    /// The kept tool it was registered from ([`super::toolbox`]): the registration goes
    /// once the chat no longer gets that tool (disabled, deleted, withdrawn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept_id: Option<KeptToolId>,
}

/// One tool of a registered server, as the model is offered it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentTool {
    pub name: String,
    pub description: String,
    /// Kept as JSON text: a schema's keys (`$schema`, `$ref`) are not all ones a
    /// document store takes as field names.
    #[serde(with = "json_text")]
    pub input_schema: serde_json::Value,
}

impl From<AgentTool> for McpTool {
    fn from(tool: AgentTool) -> Self {
        Self {
            name: tool.name,
            description: tool.description,
            input_schema: tool.input_schema,
        }
    }
}

/// Why a command cannot be registered: none, or over the limits.
pub fn command_refusal(command: &str, args: &[String]) -> Option<String> {
    if command.trim().is_empty() {
        return Some("command is empty: give the program that starts the server (e.g. \"python3\")".into());
    }
    if command.len() > MAX_COMMAND || args.iter().any(|arg| arg.len() > MAX_COMMAND) {
        return Some(format!(
            "the command and each argument are at most {MAX_COMMAND} bytes"
        ));
    }
    if args.len() > MAX_ARGS {
        return Some(format!("at most {MAX_ARGS} arguments (there are {})", args.len()));
    }
    None
}

/// The tools `server` listed, if every one can be offered as it is; else exactly why
/// not. Unlike an admin's server (whose excess is left out), the agent's is refused
/// whole, so the agent learns what to fix.
pub fn checked_tools(server: &McpServerName, listed: Vec<McpTool>) -> Result<Vec<AgentTool>, String> {
    if listed.is_empty() {
        return Err("it lists no tools".into());
    }
    if listed.len() > MAX_TOOLS {
        return Err(format!(
            "it lists {} tools; at most {MAX_TOOLS} are allowed",
            listed.len()
        ));
    }
    let mut seen = HashSet::new();
    for tool in &listed {
        let name = &tool.name;
        if qualified_name(server.as_str(), name).is_none() {
            return Err(format!(
                "the tool name {name:?} is refused: mcp__{}__{name} must be at most 64 letters, digits, '-' or '_'",
                server.as_str()
            ));
        }
        if !seen.insert(name) {
            return Err(format!("it lists the tool {name:?} twice"));
        }
        if tool.description.len() > MAX_TOOL_DESCRIPTION {
            return Err(format!(
                "the description of {name:?} is {} bytes; at most {MAX_TOOL_DESCRIPTION}",
                tool.description.len()
            ));
        }
        let schema = tool.input_schema.to_string().len();
        if schema > MAX_TOOL_SCHEMA {
            return Err(format!(
                "the input schema of {name:?} is {schema} bytes of JSON; at most {MAX_TOOL_SCHEMA}"
            ));
        }
    }
    Ok(listed
        .into_iter()
        .map(|tool| AgentTool {
            name: tool.name,
            description: tool.description,
            input_schema: tool.input_schema,
        })
        .collect())
}

/// Why `tools`, registered as `name` beside the session's `kept` servers (one of that
/// name is replaced), would offer too much with every model request; `None` when not.
pub fn session_size_refusal(
    kept: &[AgentServer],
    name: &McpServerName,
    tools: &[AgentTool],
) -> Option<String> {
    let size = |tools: &[AgentTool]| -> usize {
        tools
            .iter()
            .map(|tool| tool.name.len() + tool.description.len() + tool.input_schema.to_string().len())
            .sum()
    };
    let others: usize = kept
        .iter()
        .filter(|server| server.name != *name)
        .map(|server| size(&server.tools))
        .sum();
    let total = others + size(tools);
    (total > MAX_SESSION_TOOL_BYTES).then(|| {
        format!(
            "the chat's registered tools would take {total} bytes of definitions with every request; \
             at most {MAX_SESSION_TOOL_BYTES}: shorten descriptions and schemas, or register fewer"
        )
    })
}

/// A JSON value stored as its text.
mod json_text {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &serde_json::Value, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&value.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<serde_json::Value, D::Error> {
        let text = String::deserialize(deserializer)?;
        serde_json::from_str(&text).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn tool(name: &str) -> McpTool {
        McpTool {
            name: name.into(),
            description: "Adds".into(),
            input_schema: json!({ "$schema": "x", "type": "object" }),
        }
    }

    fn server() -> McpServerName {
        McpServerName::parse("calc").unwrap()
    }

    #[test]
    fn fitting_tools_are_kept_with_their_schemas() {
        let kept = checked_tools(&server(), vec![tool("add"), tool("sub-tract")]).unwrap();
        assert_eq!(kept.len(), 2);
        let stored = serde_json::to_value(&kept[0]).unwrap();
        assert!(stored["input_schema"].is_string(), "{stored}");
        let back: AgentTool = serde_json::from_value(stored).unwrap();
        assert_eq!(back, kept[0]);
    }

    #[test]
    fn each_refusal_says_why() {
        let refused = |listed: Vec<McpTool>| checked_tools(&server(), listed).unwrap_err();
        assert_eq!(refused(vec![]), "it lists no tools");
        assert!(refused(vec![tool("has space")]).contains("\"has space\" is refused"));
        assert!(refused(vec![tool(&"x".repeat(60))]).contains("at most 64"));
        assert!(refused(vec![tool("a"), tool("a")]).contains("twice"));
        let many = (0..=MAX_TOOLS).map(|i| tool(&format!("t{i}"))).collect();
        assert!(refused(many).contains("at most 20"));
        let mut wordy = tool("wordy");
        wordy.description = "w".repeat(MAX_TOOL_DESCRIPTION + 1);
        assert!(refused(vec![wordy]).contains("description of \"wordy\""));
        let mut huge = tool("huge");
        huge.input_schema = json!({ "description": "x".repeat(MAX_TOOL_SCHEMA) });
        assert!(refused(vec![huge]).contains("input schema of \"huge\""));
    }

    #[test]
    fn the_sessions_tools_together_are_held_to_a_size() {
        let wordy = |name: &str| {
            let mut tool = tool(name);
            tool.description = "w".repeat(MAX_TOOL_DESCRIPTION);
            tool
        };
        let tools = |prefix: &str| {
            let listed = (0..MAX_TOOLS).map(|i| wordy(&format!("{prefix}{i}"))).collect();
            checked_tools(&server(), listed).unwrap()
        };
        let kept = AgentServer {
            session_id: SessionId::new(),
            owner: UserId::new(),
            name: McpServerName::parse("first").unwrap(),
            command: "node".into(),
            args: vec![],
            tools: tools("a"),
            registered_at: Utc::now(),
            kept_id: None,
        };
        let second = McpServerName::parse("second").unwrap();
        assert_eq!(session_size_refusal(&[], &second, &tools("b")), None);
        let refused = session_size_refusal(std::slice::from_ref(&kept), &second, &tools("b"));
        assert!(refused.unwrap().contains("at most 65536"));
        // Replacing the server of that name does not count it twice.
        assert_eq!(
            session_size_refusal(std::slice::from_ref(&kept), &kept.name, &tools("b")),
            None
        );
    }

    #[test]
    fn commands_are_checked() {
        assert!(command_refusal(" ", &[]).unwrap().contains("empty"));
        assert!(command_refusal("node", &["x".repeat(MAX_COMMAND + 1)]).is_some());
        assert!(command_refusal("node", &vec!["a".into(); MAX_ARGS + 1]).is_some());
        assert_eq!(command_refusal("python3", &["server.py".into()]), None);
    }
}
