//! The tools the run handles itself: planning, the session's title, talking to the
//! person, and handing tasks to sub-agents (see `delegation`). Their arguments are typed
//! like the sandbox's, and their schemas generated from those types; each leaves an
//! event of its own.

use serde::Deserialize;
use utoipa::ToSchema;

use super::{Next, Run};
use crate::application::agent::untrusted::ToolReply;
use crate::domain::agent::ToolCallRequest;
use crate::domain::event::{AgentEvent, MessageRole, PlanStep, StepStatus};
use crate::domain::tool::tool_calls;

tool_calls! {
    /// A call of one of the run's own tools.
    RunCall {
        Plan(PlanArgs) = "plan_update", "Set (or replace) the plan: its steps in order.";
        Step(StepArgs) = "step_update", "Mark a plan step running, completed or failed.";
        Title(TitleArgs) = "set_title", "Name the session (a few words).";
        Notify(NotifyArgs) = "message_notify_user", "Tell the person something without waiting for an answer.";
        Ask(AskArgs) = "message_ask_user", "Ask the person and wait for the reply (ends this turn).";
    }
}

tool_calls! {
    /// A task for a sub-agent (see `delegation`).
    DelegateCall {
        Delegate(DelegateArgs) = "delegate", "Hand a self-contained task to a sub-agent, which works on it with the same tools (but cannot ask the person) and returns its final answer as this call's result. Several delegate calls in one answer run at the same time.";
    }
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct PlanArgs {
    #[schema(inline)]
    pub steps: Vec<PlanStepArgs>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
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

#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct StepArgs {
    pub step_id: String,
    #[schema(inline)]
    pub status: StepStatus,
    #[serde(default)]
    pub description: String,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct TitleArgs {
    pub title: String,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct NotifyArgs {
    pub text: String,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct AskArgs {
    pub question: String,
    /// Whether the person should use the desktop themselves (e.g. to sign in).
    #[serde(default)]
    pub take_over: bool,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
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

impl Run {
    /// The run's own tools leave their own events (plan, step, title, message, wait).
    pub(super) async fn run_tool(&mut self, call: &ToolCallRequest, run_call: RunCall) -> Next {
        let (event, answer) = match run_call {
            RunCall::Plan(plan) => {
                let steps = plan.steps.into_iter().map(Into::into).collect();
                (AgentEvent::Plan { steps }, "plan recorded")
            }
            RunCall::Step(step) => (
                AgentEvent::Step {
                    step_id: step.step_id,
                    status: step.status,
                    description: step.description,
                },
                "step updated",
            ),
            RunCall::Title(title) => (AgentEvent::Title { title: title.title }, "title set"),
            RunCall::Notify(notify) => (
                AgentEvent::Message {
                    role: MessageRole::Assistant,
                    content: notify.text,
                    attachments: Vec::new(),
                },
                "delivered",
            ),
            RunCall::Ask(ask) => {
                self.answer(
                    call,
                    ToolReply::own("asked; the person's reply comes as their next message"),
                );
                self.emit(AgentEvent::Wait {
                    prompt: Some(ask.question),
                    take_over: ask.take_over,
                })
                .await;
                return Next::WaitForPerson;
            }
        };
        self.emit(event).await;
        self.answer(call, ToolReply::own(answer));
        Next::Continue
    }
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
