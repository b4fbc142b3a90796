//! What the run's own tools do (planning, the session's title, talking to the person):
//! each leaves an event of its own. The calls and their arguments are typed in
//! `domain::run_call`.

use super::{Next, Run};
use crate::application::agent::untrusted::ToolReply;
use crate::domain::agent::ToolCallRequest;
use crate::domain::event::{AgentEvent, MessageRole};
use crate::domain::logged_call::LoggedCall;
use crate::domain::run_call::RunCall;

impl Run {
    /// The run's own tools leave their own events (plan, step, title, message, wait).
    pub(super) async fn run_tool(
        &mut self,
        call: &ToolCallRequest,
        run_call: RunCall,
        logged: LoggedCall,
    ) -> Next {
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
            RunCall::Memory(args) => {
                self.memory_tool(call, logged, args).await;
                return Next::Continue;
            }
            RunCall::Register(args) => {
                self.register_tool(call, logged, args).await;
                return Next::Continue;
            }
            RunCall::Automate(args) => {
                self.automation_tool(call, logged, args).await;
                return Next::Continue;
            }
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
