//! What the model is told: the system prompt and the tools the run itself handles
//! (planning, titles, talking to the person); the sandbox's tools come from the
//! [`SandboxTools`](crate::domain::agent::SandboxTools) port.

use serde::Deserialize;
use serde_json::json;

use crate::domain::agent::ToolSpec;
use crate::domain::event::{PlanStep, StepStatus};

pub const SYSTEM_PROMPT: &str = "You are Sandpiper, an agent that completes tasks for a person \
inside your own Linux desktop sandbox: a bash shell, files in your home folder, a Chromium \
browser, and web search. The person watches every step.\n\
- A simple question you can answer directly: just answer, without tools.\n\
- A task that needs actions: first call plan_update with a short plan (2-6 steps), then work \
step by step; mark each step running, then completed or failed with step_update; when a step \
fails, adjust the plan with plan_update.\n\
- Early on, give the session a short title with set_title.\n\
- Use message_notify_user for progress worth telling; use message_ask_user only when you \
cannot go on without the person (it ends your turn; set take_over when they should use the \
browser themselves, e.g. to sign in).\n\
- Finish with a concise answer that says what you did and where results are.";

pub const PLAN_UPDATE: &str = "plan_update";
pub const STEP_UPDATE: &str = "step_update";
pub const SET_TITLE: &str = "set_title";
pub const NOTIFY_USER: &str = "message_notify_user";
pub const ASK_USER: &str = "message_ask_user";

#[derive(Deserialize)]
pub struct PlanArgs {
    pub steps: Vec<PlanStepArgs>,
}

#[derive(Deserialize)]
pub struct PlanStepArgs {
    pub id: String,
    pub description: String,
    #[serde(default = "pending")]
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

#[derive(Deserialize)]
pub struct StepArgs {
    pub step_id: String,
    pub status: StepStatus,
    #[serde(default)]
    pub description: String,
}

#[derive(Deserialize)]
pub struct TitleArgs {
    pub title: String,
}

#[derive(Deserialize)]
pub struct NotifyArgs {
    pub text: String,
}

#[derive(Deserialize)]
pub struct AskArgs {
    pub question: String,
    #[serde(default)]
    pub take_over: bool,
}

/// The tools the run handles itself.
pub fn own_tools() -> Vec<ToolSpec> {
    let status = json!({ "type": "string", "enum": ["pending", "running", "completed", "failed"] });
    vec![
        ToolSpec {
            name: PLAN_UPDATE.into(),
            description: "Set (or replace) the plan: its steps in order.".into(),
            parameters: json!({
                "type": "object",
                "properties": { "steps": { "type": "array", "items": {
                    "type": "object",
                    "properties": { "id": { "type": "string" }, "description": { "type": "string" }, "status": status },
                    "required": ["id", "description"]
                } } },
                "required": ["steps"]
            }),
        },
        ToolSpec {
            name: STEP_UPDATE.into(),
            description: "Mark a plan step running, completed or failed.".into(),
            parameters: json!({
                "type": "object",
                "properties": { "step_id": { "type": "string" }, "status": status, "description": { "type": "string" } },
                "required": ["step_id", "status"]
            }),
        },
        ToolSpec {
            name: SET_TITLE.into(),
            description: "Name the session (a few words).".into(),
            parameters: json!({ "type": "object", "properties": { "title": { "type": "string" } }, "required": ["title"] }),
        },
        ToolSpec {
            name: NOTIFY_USER.into(),
            description: "Tell the person something without waiting for an answer.".into(),
            parameters: json!({ "type": "object", "properties": { "text": { "type": "string" } }, "required": ["text"] }),
        },
        ToolSpec {
            name: ASK_USER.into(),
            description: "Ask the person and wait for the reply (ends this turn).".into(),
            parameters: json!({
                "type": "object",
                "properties": { "question": { "type": "string" }, "take_over": { "type": "boolean" } },
                "required": ["question"]
            }),
        },
    ]
}

/// The person's message as the model reads it: the files they attached are named, with
/// where they are in the sandbox.
pub fn with_attachments(content: String, attachments: &[String]) -> String {
    if attachments.is_empty() {
        return content;
    }
    format!(
        "{content}\n\n[Attached files, in the sandbox workspace: {}]",
        attachments.join(", ")
    )
}
