//! MCP stdio servers run inside the sandbox and relayed over a WebSocket
//! (`GET /v1/mcp/stdio`), so a server configured as a command never runs on the backend's
//! host.
//!
//! The wire, in order:
//!
//! 1. The client upgrades with the bearer token. When the sandbox already runs as many
//!    stdio servers as it allows, the upgrade is refused with `429 limit_reached` and the
//!    usual error body.
//! 2. The client's first frame is a text frame holding a [`StdioStart`].
//! 3. The server's first frame is a text frame holding a [`StdioReply`]: `started` with the
//!    process id once the process runs, or `failed` with a message a person can act on
//!    (command not found, a malformed start frame); after `failed` the server closes the
//!    socket (code 1011, the same message as reason).
//! 4. Then every text frame from the client is one JSON-RPC message, written to the
//!    process's stdin as one line (line breaks in it, which JSON allows only as
//!    whitespace, become spaces); every line the process writes to stdout is one text
//!    frame to the client (blank lines skipped). Binary frames are refused (close 1003).
//! 5. When the process ends (or closes its stdout: it then gets a second to exit), the
//!    server closes the socket with code 1000 and a reason naming the exit status and the
//!    telling part of its stderr, e.g.
//!    `exited with status 1: Error: Cannot find module '/x.js'`. A stdout line over the
//!    message limit (1009) or not UTF-8 (1007) kills the process and closes likewise;
//!    the tool-api shutting down closes with 1001. A reason is at most 123 bytes (the
//!    WebSocket limit) and ends in `…` when it was cut.
//! 6. When the client goes away, the process and everything it started (its process
//!    group) is killed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The first frame a client sends: what to run. The process runs as the sandbox user in
/// the workspace, with the environment shell sessions get (less the tool-api's own
/// secrets) plus `env`, and `PATH` set to the system's directories.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct StdioStart {
    /// A program of the sandbox's system directories (e.g. `npx`; the home directory is
    /// not searched) or the absolute path of one; either way a file only root can change.
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// Set on top of the inherited environment.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
}

/// The server's first frame: whether the process started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StdioReply {
    /// The process runs; JSON-RPC messages may flow.
    Started { pid: u32 },
    /// It could not be started; the socket closes next.
    Failed { message: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_tagged_by_type() {
        let started = serde_json::to_string(&StdioReply::Started { pid: 7 }).unwrap();
        assert_eq!(started, r#"{"type":"started","pid":7}"#);
        let failed: StdioReply = serde_json::from_str(r#"{"type":"failed","message":"no"}"#).unwrap();
        assert_eq!(failed, StdioReply::Failed { message: "no".into() });
    }

    #[test]
    fn a_start_needs_only_the_command() {
        let start: StdioStart = serde_json::from_str(r#"{"command":"npx"}"#).unwrap();
        assert_eq!(start.command, "npx");
        assert!(start.args.is_empty() && start.env.is_empty());
    }
}
