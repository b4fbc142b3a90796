//! The tools the run handles itself, as the model calls them: planning, the session's
//! title, talking to the person, the person's memory and automations, registering an MCP
//! server the agent wrote, and handing tasks to sub-agents. Their arguments are typed
//! like the sandbox's, their schemas generated from those types, and a call is kept
//! typed in the event log ([`super::logged_call`]), so the front end's union of calls is
//! generated from them too. Values only: what the tools do is the run's
//! (`application/agent/run/`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::plan::{PlanStep, StepStatus};
use super::tool::tool_calls;

tool_calls! {
    typed
    /// A call of one of the run's own tools.
    RunCall {
        Plan(PlanArgs) = "plan_update", "Set (or replace) the plan: its steps in order.";
        Step(StepArgs) = "step_update", "Mark a plan step running, completed or failed.";
        Title(TitleArgs) = "set_title", "Name the session (a few words).";
        Notify(NotifyArgs) = "message_notify_user", "Tell the person something without waiting for an answer.";
        Ask(AskArgs) = "message_ask_user", "Ask the person and wait for the reply (ends this turn).";
        Memory(MemoryArgs) = "memory", "Keep what is worth knowing in the person's later chats, in their memory: one short, durable fact per note (their work, preferences, where things are; what was costly to learn), never a secret. add: text is the note; replace: old is a part of a note's text, text its new text; remove: old names the note. New chats get the notes; this chat's instructions stay as they began.";
        Register(RegisterArgs) = "tool_register", "Register an MCP server you wrote in your sandbox (Python with the `mcp` package, or Node with `@modelcontextprotocol/sdk`; stdio transport), so its tools are offered to you from your next step as mcp__<name>__<tool>, in this chat only. It is started in the workspace as your user; give a test call to check it works. Registering a name again replaces that server (how you fix one).";
        Automate(AutomateArgs) = "automation_create", "Make an automation for the person when they ask for something done later or again (\"remind me every Monday at 9…\", \"check the site daily\"): a cron schedule (5 fields, in their time zone) and/or one time (RFC 3339). Each run starts a new chat with the prompt, so make it self-contained.";
    }
}

tool_calls! {
    typed
    /// A task for a sub-agent (the run's `delegation`).
    DelegateCall {
        Delegate(DelegateArgs) = "delegate", "Hand a self-contained task to a sub-agent, which works on it with the same tools (but cannot ask the person) and returns its final answer as this call's result. Several delegate calls in one answer run at the same time.";
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlanArgs {
    #[schema(inline)]
    pub steps: Vec<PlanStepArgs>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlanStepArgs {
    pub id: String,
    pub description: String,
    #[serde(default = "pending")]
    #[schema(inline)]
    pub status: StepStatus,
}

fn pending() -> StepStatus {
    StepStatus::Pending
}

impl From<PlanStepArgs> for PlanStep {
    fn from(step: PlanStepArgs) -> Self {
        Self {
            id: step.id,
            description: step.description,
            status: step.status,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StepArgs {
    pub step_id: String,
    #[schema(inline)]
    pub status: StepStatus,
    #[serde(default)]
    pub description: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TitleArgs {
    pub title: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NotifyArgs {
    pub text: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AskArgs {
    pub question: String,
    /// Whether the person should use the desktop themselves (e.g. to sign in).
    #[serde(default)]
    pub take_over: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RegisterArgs {
    /// 1 to 32 letters, digits, '-' or '_' (no '__'): its tools are offered as
    /// mcp__<name>__<tool>.
    pub name: String,
    /// The program that starts the server, e.g. "python3" or "node".
    pub command: String,
    /// Its arguments, e.g. ["tools/server.py"] (relative to the workspace).
    #[serde(default)]
    pub args: Vec<String>,
    /// A call made once it lists its tools: the server is registered only if it succeeds.
    #[serde(default)]
    #[schema(inline)]
    pub test: Option<TestCallArgs>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TestCallArgs {
    /// The tool's name on the server (not the mcp__ name).
    pub tool: String,
    #[serde(default)]
    #[schema(value_type = Object)]
    pub arguments: serde_json::Map<String, serde_json::Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DelegateArgs {
    /// Everything the sub-agent needs to know: it sees nothing of this conversation.
    pub task: String,
    /// One of the models listed in your instructions; the deployment's implementer model
    /// when left out.
    #[serde(default)]
    pub model: Option<String>,
    /// Give the sub-agent a sandbox of its own (a fresh machine) instead of working in
    /// yours; it is removed when the sub-agent ends.
    #[serde(default)]
    pub own_sandbox: bool,
    /// Files of the sub-agent's sandbox to copy into yours, at the same paths, when it
    /// ends; only with `own_sandbox`. Paths relative to the workspace (`out/report.md`),
    /// at most 20, regular files of at most 100 MiB each.
    #[serde(default)]
    pub return_files: Vec<String>,
}

/// What a `memory` call does to the person's notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MemoryAction {
    Add,
    Replace,
    Remove,
}

/// The `memory` tool's arguments, as the model writes them.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MemoryArgs {
    #[schema(inline)]
    pub action: MemoryAction,
    /// The note (add) or its new text (replace): one short fact, never a secret.
    #[serde(default)]
    pub text: String,
    /// replace, remove: a part of the note's text that no other note has.
    #[serde(default)]
    pub old: Option<String>,
}

/// The tool that makes an automation: offered only in a chat its person opened, since
/// what it makes outlives the run and a job's prompt may carry anyone's text.
pub const AUTOMATE_TOOL: &str = "automation_create";

/// What the agent's `automation_create` tool takes: a time-triggered automation for its
/// person (webhooks are made in the app).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AutomateArgs {
    /// A few words naming it.
    pub name: String,
    /// What to do at each run, as the person would ask it; each run starts a new chat
    /// that sees only this.
    pub prompt: String,
    /// A cron expression: 5 fields (minute hour day month weekday), e.g. `0 9 * * MON`.
    #[serde(default)]
    pub cron: Option<String>,
    /// The IANA time zone the cron is read in (the person's, if known); default UTC.
    #[serde(default)]
    pub timezone: Option<String>,
    /// Instead of (or besides) `cron`: once, at this RFC 3339 time.
    #[serde(default)]
    pub at: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn schemas_stand_alone_and_arguments_parse_into_their_types() {
        for spec in RunCall::specs() {
            let schema = spec.parameters.to_string();
            assert!(!schema.contains("$ref"), "{}: {schema}", spec.name);
        }
        let plan = json!({ "steps": [{ "id": "1", "description": "look" }] });
        let Some(Ok(RunCall::Plan(plan))) = RunCall::parse("plan_update", plan) else {
            panic!("plan_update did not parse");
        };
        assert_eq!(plan.steps[0].status, StepStatus::Pending);
        let wrong = RunCall::parse("step_update", json!({ "step_id": "1", "status": "maybe" }));
        assert!(wrong.unwrap().is_err());
    }
}
