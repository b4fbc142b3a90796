//! The environment of programs the tool-api starts on someone's behalf: variables they
//! are given must be settable, and the tool-api's own secrets are not theirs to see.

use std::collections::BTreeMap;

use tokio::process::Command;

/// Variables that carry the tool-api's secrets (see [`crate::config`]). A third-party
/// program such as an MCP server must not find them in its environment, where a log or a
/// crash report would carry them off.
pub const SECRET_VARIABLES: [&str; 2] = ["SANDBOX_TOKEN", "VNC_PASSWORD"];

/// Names a person picked: a variable the OS cannot set is refused with a message naming it.
pub fn check(env: &BTreeMap<String, String>) -> Result<(), String> {
    match env
        .iter()
        .find(|(key, value)| key.is_empty() || key.contains(['=', '\0']) || value.contains('\0'))
    {
        Some((key, _)) => Err(format!("invalid environment variable {key:?}")),
        None => Ok(()),
    }
}

/// Removes the secrets from what `command` inherits, then sets `env` on top.
pub fn without_secrets(command: &mut Command, env: &BTreeMap<String, String>) {
    for name in SECRET_VARIABLES {
        command.env_remove(name);
    }
    command.envs(env);
}
