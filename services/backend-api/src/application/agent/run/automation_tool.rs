//! The `automation_create` tool: the agent makes an automation for its person when asked
//! ("remind me every Monday…"), a schedule or a one-shot time whose runs each start a
//! new chat with the prompt. The call is a tool line the person sees, with the next fire
//! times; input that does not parse (a bad cron, an unknown zone) is the model's to read
//! and fix. The scheduler finds it within its poll.

use super::Run;
use crate::application::agent::untrusted::ToolReply;
use crate::application::automations::input::{save_new, Checks, NewAutomation};
use crate::domain::agent::ToolCallRequest;
use crate::domain::logged_call::LoggedCall;
use crate::domain::run_call::AutomateArgs;
use crate::domain::tool::{AutomationMade, ToolView};

/// Fire times the tool line and the model are shown.
const SHOWN_RUNS: usize = 3;

impl Run {
    /// Makes the automation, between the call's `calling` and `called` events.
    pub(super) async fn automation_tool(
        &mut self,
        call: &ToolCallRequest,
        logged: LoggedCall,
        args: AutomateArgs,
    ) {
        self.open(call, logged).await;
        let owner = &self.session.owner;
        // What it makes works as this chat does: an offline chat's automation is offline.
        let mut new: NewAutomation = args.into();
        new.network = self.session.network.map(|network| network.as_str().to_owned());
        let saved = save_new(
            &*self.deps.automations,
            Checks {
                models: &self.deps.models,
                rules: &self.deps.automation_rules,
            },
            owner,
            None,
            new,
        )
        .await;
        let (view, reply) = match saved {
            Ok((automation, _)) => {
                let next_runs = automation.next_runs(chrono::Utc::now(), SHOWN_RUNS);
                let reply = format!(
                    "Made the automation \"{}\"; it runs next at {}. The person sees it on their Automations page.",
                    automation.name,
                    next_runs
                        .first()
                        .map_or("no time (it will not fire)".to_owned(), |at| at.to_rfc3339())
                );
                let made = AutomationMade {
                    id: automation.id.as_str().to_owned(),
                    name: automation.name,
                    next_runs,
                };
                (ToolView::Automation(made), reply)
            }
            Err(err) => {
                let problem = format!("The automation was not made: {err}");
                (ToolView::error(problem.clone()), problem)
            }
        };
        self.close(&call.id, view, ToolReply::own(reply)).await;
    }
}
