//! Adding and changing MCP servers: what an admin sends, and the rules a server must
//! meet before it is stored, wherever it comes from (an admin, the `MCP_CONFIG` file) —
//! a name that fits, an `http(s)` address with a host, header and variable names a
//! request or a process accepts, a command. Mistakes name the field to fix.
//!
//! Header values may be keys, so they are write-only: an edit may name a key with no
//! value (`null`) to keep the stored one, which lets an admin change a server without
//! ever seeing or retyping its secrets.
//!
//! A stdio server takes no environment variables: it runs in the sandbox of the person
//! whose run needs it, as their user, where any process can read its environment
//! (`/proc/<pid>/environ`), so an operator's key there would be theirs. Its settings go
//! in `args`; a server that needs a key runs where the deployment keeps it, reached over
//! HTTP with headers, which stay in the backend.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::error::{DomainError, DomainResult};
use super::mcp::{McpServer, McpServerName, McpTransport};

/// Longest address, header value, command or argument accepted.
const MAX_TEXT: usize = 8 * 1024;

/// How a server is reached: `http` (Streamable HTTP) or `stdio` (a command).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum McpTransportKind {
    Http,
    Stdio,
}

/// A server's fields as an admin sends them: all that are needed to add a server, only
/// those that change to edit one. In `headers` and `env`, the keys given are the new set
/// and a `null` value keeps the stored value of that key.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct McpServerInput {
    /// Adding only: 1 to 32 letters, digits, `-` or `_`, without `__`.
    pub name: Option<String>,
    /// Adding only; a server's transport does not change.
    pub transport: Option<McpTransportKind>,
    /// Whether runs get its tools; a new server is enabled unless this says otherwise.
    pub enabled: Option<bool>,
    /// `http`: the server's `http://` or `https://` address.
    pub url: Option<String>,
    /// `http`: headers sent with every request (e.g. `Authorization`).
    pub headers: Option<BTreeMap<String, Option<String>>>,
    /// `stdio`: the program to start: a name, found in the sandbox's system directories,
    /// or an absolute path.
    pub command: Option<String>,
    /// `stdio`: its arguments (readable in the sandbox: no secrets).
    pub args: Option<Vec<String>>,
    /// `stdio`: must be empty (`{}`, which removes the variables a server stored
    /// earlier has): a stdio server runs in a person's sandbox, where its environment
    /// is readable, so it takes none.
    pub env: Option<BTreeMap<String, Option<String>>>,
}

impl McpTransport {
    pub fn kind(&self) -> McpTransportKind {
        match self {
            Self::Http { .. } => McpTransportKind::Http,
            Self::Stdio { .. } => McpTransportKind::Stdio,
        }
    }

    /// A Streamable HTTP server, if the address and headers can make a request.
    pub fn http(url: &str, headers: BTreeMap<String, String>) -> DomainResult<Self> {
        let url = url.trim();
        let host = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"))
            .and_then(|rest| rest.split(['/', '?', '#']).next())
            .filter(|host| !host.is_empty() && !host.starts_with(':'));
        if host.is_none() || url.len() > MAX_TEXT || url.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(invalid(
                "url",
                "not an http:// or https:// address with a host".into(),
            ));
        }
        for (name, value) in &headers {
            if name.is_empty() || !name.bytes().all(is_token_byte) {
                return Err(invalid("headers", format!("{name:?} is not a valid header name")));
            }
            // The value is never repeated: it may be a key.
            let fits =
                value.len() <= MAX_TEXT && value.chars().all(|c| c == '\t' || (' '..='~').contains(&c));
            if !fits {
                return Err(invalid(
                    "headers",
                    format!("the value of {name:?} must be printable ASCII of at most {MAX_TEXT} bytes"),
                ));
            }
        }
        Ok(Self::Http {
            url: url.to_owned(),
            headers,
        })
    }

    /// A command speaking MCP on stdin/stdout, if it can be started as given; `env` must
    /// be empty (see the module's comment).
    pub fn stdio(command: &str, args: Vec<String>, env: BTreeMap<String, String>) -> DomainResult<Self> {
        let command = command.trim();
        if command.is_empty() || command.len() > MAX_TEXT || command.contains('\0') {
            return Err(invalid("command", "give the program to start".into()));
        }
        if command.contains('/') && !command.starts_with('/') {
            return Err(invalid(
                "command",
                "a program name or an absolute path, not a relative one".into(),
            ));
        }
        if args.iter().any(|arg| arg.len() > MAX_TEXT || arg.contains('\0')) {
            return Err(invalid(
                "args",
                format!("an argument has a NUL character or more than {MAX_TEXT} bytes"),
            ));
        }
        if !env.is_empty() {
            // Names only: the values may be keys.
            let names: Vec<&str> = env.keys().map(String::as_str).collect();
            return Err(invalid("env", stdio_env_refusal(&names)));
        }
        Ok(Self::Stdio {
            command: command.to_owned(),
            args,
            env,
        })
    }
}

/// Why a stdio server with the variables `names` is not run, and what to do instead.
pub fn stdio_env_refusal(names: &[&str]) -> String {
    format!(
        "a stdio server runs in a person's sandbox, where every process can read its \
         environment, so it takes no variables (given: {}); send \"env\": {{}}, pass \
         settings as args, and reach a server that needs a key over HTTP, with headers",
        names.join(", ")
    )
}

impl McpServer {
    /// A new server from an admin's input, created `now`.
    pub fn create(input: McpServerInput, now: DateTime<Utc>) -> DomainResult<Self> {
        let name = input
            .name
            .as_deref()
            .ok_or_else(|| invalid("name", "required".into()))?;
        let name = McpServerName::parse(name).map_err(|err| invalid("name", err.to_string()))?;
        let kind = input
            .transport
            .ok_or_else(|| invalid("transport", "required: http or stdio".into()))?;
        let enabled = input.enabled.unwrap_or(true);
        Ok(Self {
            name,
            transport: transport(kind, None, input)?,
            enabled,
            created_at: now,
            updated_at: now,
        })
    }

    /// This server with an admin's changes, made `now`. The name and transport stay.
    pub fn edit(&self, input: McpServerInput, now: DateTime<Utc>) -> DomainResult<Self> {
        if input
            .name
            .as_deref()
            .is_some_and(|name| name != self.name.as_str())
        {
            return Err(invalid(
                "name",
                "a server keeps its name; add it under the new name and delete this one".into(),
            ));
        }
        let kind = self.transport.kind();
        if input.transport.is_some_and(|given| given != kind) {
            return Err(invalid(
                "transport",
                "a server keeps its transport; add a new server instead".into(),
            ));
        }
        let enabled = input.enabled.unwrap_or(self.enabled);
        Ok(Self {
            name: self.name.clone(),
            transport: transport(kind, Some(&self.transport), input)?,
            enabled,
            created_at: self.created_at,
            updated_at: now,
        })
    }
}

/// The transport `input` describes, with what it leaves out taken from `stored`.
fn transport(
    kind: McpTransportKind,
    stored: Option<&McpTransport>,
    input: McpServerInput,
) -> DomainResult<McpTransport> {
    let none = BTreeMap::new();
    match kind {
        McpTransportKind::Http => {
            only_for_other(
                "stdio",
                [
                    ("command", input.command.is_some()),
                    ("args", input.args.is_some()),
                    ("env", input.env.is_some()),
                ],
            )?;
            let (url, headers) = match stored {
                Some(McpTransport::Http { url, headers }) => (Some(url), headers),
                _ => (None, &none),
            };
            let url = input
                .url
                .as_ref()
                .or(url)
                .ok_or_else(|| invalid("url", "required for an HTTP server".into()))?;
            McpTransport::http(url, kept("headers", input.headers, headers)?)
        }
        McpTransportKind::Stdio => {
            only_for_other(
                "http",
                [("url", input.url.is_some()), ("headers", input.headers.is_some())],
            )?;
            let (command, args, env) = match stored {
                Some(McpTransport::Stdio { command, args, env }) => (Some(command), args.clone(), env),
                _ => (None, Vec::new(), &none),
            };
            let command = input
                .command
                .as_ref()
                .or(command)
                .ok_or_else(|| invalid("command", "required for a stdio server".into()))?;
            McpTransport::stdio(command, input.args.unwrap_or(args), kept("env", input.env, env)?)
        }
    }
}

/// Refuses the fields of the other transport.
fn only_for_other<const N: usize>(other: &str, given: [(&'static str, bool); N]) -> DomainResult<()> {
    match given.into_iter().find(|(_, given)| *given) {
        Some((field, _)) => Err(invalid(field, format!("only for {other} servers"))),
        None => Ok(()),
    }
}

/// The secret values after an edit: `given` (when present) is the new set of keys, and
/// a key without a value keeps its `stored` one.
fn kept(
    field: &'static str,
    given: Option<BTreeMap<String, Option<String>>>,
    stored: &BTreeMap<String, String>,
) -> DomainResult<BTreeMap<String, String>> {
    let Some(given) = given else {
        return Ok(stored.clone());
    };
    given
        .into_iter()
        .map(|(key, value)| match value.or_else(|| stored.get(&key).cloned()) {
            Some(value) => Ok((key, value)),
            None => Err(invalid(
                field,
                format!("{key:?} has no stored value to keep; give one"),
            )),
        })
        .collect()
}

fn invalid(field: &'static str, message: String) -> DomainError {
    DomainError::InvalidField { field, message }
}

/// A character HTTP allows in a header name (RFC 9110 `tchar`).
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

#[cfg(test)]
mod tests;
