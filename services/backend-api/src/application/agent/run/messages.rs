//! The sentences a person reads when something ends a turn or a call: a budget spent, a
//! model that cannot be asked, a sandbox or MCP server that is not there. Each says what
//! happened and what to do next.

use std::time::Duration;

use crate::domain::model::ModelName;
use crate::domain::DomainError;

/// The turn's model requests, its sub-agents' included, are all spent.
pub(super) fn out_of_steps(max_steps: u32) -> String {
    format!(
        "The run reached its step budget ({max_steps} model requests, its sub-agents' included) and \
         stopped; send a message to continue."
    )
}

/// The turn's time is spent.
pub(super) fn out_of_time(max_run: Duration) -> String {
    let secs = max_run.as_secs();
    let budget = if secs < 120 {
        format!("{secs} s")
    } else {
        format!("{} min", secs / 60)
    };
    format!("The run reached its time budget ({budget}) and stopped; send a message to continue.")
}

/// `budget` code cells failed in a row.
pub(super) fn out_of_failed_cells(budget: u32) -> String {
    format!(
        "The code failed {budget} times in a row, so the run stopped here instead of \
         trying again; look at the last error, then send a message to go on."
    )
}

/// The model request failed.
pub(super) fn model_failure(model: &ModelName, err: &DomainError) -> String {
    let model = model.as_str();
    match err {
        DomainError::Unavailable { detail, .. } => {
            format!("The provider of the model `{model}` is not answering ({detail}). Check its base URL and the provider's status, then send a message to retry.")
        }
        DomainError::Invalid(detail) => {
            format!("The model `{model}` refused the request: {detail}. Check its model id and API key, or pick another model.")
        }
        other => format!("The request to the model `{model}` failed: {other}"),
    }
}

/// The session's model is no longer offered.
pub(super) fn model_gone(model: &ModelName) -> String {
    format!(
        "The model `{}` this session uses is no longer offered; pick another model \
         and send your message again.",
        model.as_str()
    )
}

/// The session's model takes no tool calls.
pub(super) fn model_without_tools(model: &ModelName) -> String {
    format!(
        "The model `{}` cannot call tools, which the agent needs to work; pick another \
         model for this session and send your message again.",
        model.as_str()
    )
}

/// An MCP server has no tools to offer this turn.
pub(super) fn mcp_unavailable(server: &str, error: &str) -> String {
    format!("The MCP server {server:?} is unavailable ({error}); the agent works without its tools.")
}

/// A kept tool of the person's tool box could not be registered in the chat.
pub(super) fn kept_tool_unavailable(name: &str, why: &str) -> String {
    format!("The kept tool {name:?} is not offered in this chat: {why}")
}

/// No sandbox could be had.
pub(super) fn no_sandbox(err: &DomainError) -> String {
    format!("Could not get a sandbox to work in: {err}")
}

/// The sandbox stopped answering mid-call.
pub(super) fn sandbox_gone(err: &DomainError) -> String {
    format!("The sandbox stopped answering ({err}); a new one is made on your next message.")
}
