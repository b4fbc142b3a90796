//! Sub-agents. The `delegate` tool hands a self-contained task to a [`Run`] in the
//! [`Role::Sub`] role: its own conversation, the model the delegating agent names (or the
//! deployment's implementer model, or its own), and its own sandbox when asked — else its
//! own shell in the delegating agent's sandbox. Its events go into the session's log
//! nested under the delegating call ([`AgentEvent::Delegated`]); its final answer is the
//! call's result.
//!
//! A model answer's `delegate` calls start their sub-agents at once; the delegating run
//! waits for their answers before its next other call (or model request). The tree
//! shares one step budget, its time budget and its stop: whatever ends the delegating turn
//! ends the sub-agents, and a sub-agent's own sandbox is removed when it ends, after the
//! files it hands back are copied into the delegating agent's sandbox (in the background:
//! neither an answer nor a stop waits for the engine to remove a container). A sub-agent's
//! own sandbox has the session's network, as every sandbox of the session does. The files
//! handed back stay inside the delegating agent's workspace ([`hand_back`]).
//!
//! [`AgentEvent::Delegated`]: crate::domain::event::AgentEvent::Delegated

use std::collections::HashSet;

use futures::future::BoxFuture;
use tokio::sync::{mpsc, oneshot};

use super::sub_agents::{Finished, Outcome, Role, SubAgents};
use super::{hand_back, Next, Run, TurnEnd};
use crate::application::agent::catalogue::Catalogue;
use crate::application::agent::prompt::sub_agent_prompt;
use crate::application::agent::untrusted::ToolReply;
use crate::domain::agent::{ChatMessage, ChatRole, SandboxAccess, TokenUsage, ToolCallRequest};
use crate::domain::files::WorkspacePath;
use crate::domain::logged_call::LoggedCall;
use crate::domain::model::ModelInfo;
use crate::domain::run_call::DelegateArgs;
use crate::domain::session::SessionId;
use crate::domain::tool::ToolView;

/// What the delegating run decided about a task before handing it over.
struct Assignment {
    task: String,
    model: ModelInfo,
    own_sandbox: bool,
    return_files: Vec<WorkspacePath>,
    /// Where handed-back files go: the delegating agent's sandbox (when there are any).
    home: Option<SandboxAccess>,
}

impl Run {
    /// Starts the sub-agent of one `delegate` call; its answer closes the call when the
    /// run next waits for its sub-agents.
    pub(super) async fn delegate(&mut self, call: &ToolCallRequest, logged: LoggedCall, task: DelegateArgs) {
        self.open(call, logged).await;
        let assignment = match self.assign(task).await {
            Ok(assignment) => assignment,
            Err(problem) => {
                let reply = ToolReply::own(problem.clone());
                return self.close(&call.id, ToolView::error(problem), reply).await;
            }
        };
        let sub = self.sub_agent(&call.id, &assignment);
        let (answer, answered) = oneshot::channel();
        self.sub_agents
            .tasks
            .push(tokio::spawn(sub.work_on(assignment, answer)));
        self.sub_agents.answers.push((call.id.clone(), answered));
    }

    /// Waits for the sub-agents started so far and closes their calls with their answers.
    pub(super) async fn sub_agents_answer(&mut self) -> Result<Next, String> {
        while let Some((call_id, outcome)) = self.sub_agents.next().await {
            let (view, reply) = outcome.present();
            self.close(&call_id, view, reply).await;
        }
        Ok(Next::Continue)
    }

    /// Checks the task and picks its model and sandbox; the error is the model's to fix.
    async fn assign(&mut self, task: DelegateArgs) -> Result<Assignment, String> {
        let most = self.deps.budgets.delegations as usize;
        if self.sub_agents.answers.len() >= most {
            return Err(format!(
                "at most {most} sub-agents work at once; delegate this task again once their \
                 answers are in"
            ));
        }
        if task.task.trim().is_empty() {
            return Err("the task is empty: write everything the sub-agent needs to know".into());
        }
        let models = &self.deps.models;
        let model = match &task.model {
            Some(name) => models.pick(Some(name)).map_err(|err| err.to_string())?.cloned(),
            None => models.implementer().cloned().or_else(|| self.model.clone()),
        }
        .ok_or("no model is configured")?;
        if !model.supports_tools {
            return Err(format!(
                "the model `{}` cannot call tools; delegate to another model",
                model.name.as_str()
            ));
        }
        if !task.own_sandbox && !task.return_files.is_empty() {
            return Err(
                "return_files needs own_sandbox: a sub-agent in your sandbox writes its files there already"
                    .into(),
            );
        }
        let return_files = hand_back::paths(&task.return_files)?;
        let home = if return_files.is_empty() {
            None
        } else {
            Some(self.sandbox().await?)
        };
        Ok(Assignment {
            task: task.task,
            model,
            own_sandbox: task.own_sandbox,
            return_files,
            home,
        })
    }

    /// The run that works on `assignment`, sharing this turn's budget and stop.
    fn sub_agent(&self, call_id: &str, assignment: &Assignment) -> Run {
        let (sandbox_key, shell) = if assignment.own_sandbox {
            let key = format!(
                "{}.sub-{}",
                self.session.id.as_str(),
                uuid::Uuid::now_v7().simple()
            );
            (SessionId(key), SandboxAccess::AGENT_SHELL.to_owned())
        } else {
            // Numbered from 1 in the turn: its task is not pushed yet.
            let shell = format!("sub-agent-{}", self.sub_agents.tasks.len() + 1);
            (self.sandbox_key.clone(), shell)
        };
        // Its inbox never gets mail: nobody talks to a sub-agent but its task.
        let (_, inbox) = mpsc::unbounded_channel();
        let cancel = self.sub_agents.cancel.child_token();
        Run {
            deps: self.deps.clone(),
            session: self.session.clone(),
            role: Role::Sub {
                call_id: call_id.to_owned(),
            },
            history_until: None,
            inbox,
            read_up_to: self.read_up_to,
            history_end: self.history_end,
            conversation: vec![
                ChatMessage::text(ChatRole::System, sub_agent_prompt()),
                ChatMessage::text(ChatRole::User, assignment.task.clone()),
            ],
            catalogue: Catalogue::new(
                self.deps.web_search.is_some() && self.session.reaches_internet(),
                false,
            ),
            mcp_reported: HashSet::new(),
            agent_servers: Vec::new(),
            sandbox: None,
            sandbox_key,
            shell,
            model: Some(assignment.model.clone()),
            usage: TokenUsage::default(),
            open_calls: Vec::new(),
            steps: self.steps.clone(),
            sub_agents: SubAgents::new(cancel.child_token()),
            failed_cells: 0,
            cancel,
            fence: self.fence.clone(),
        }
    }

    /// A sub-agent's whole life: the task, the files it hands back, its tokens, its
    /// answer, and the removal of its own sandbox, whatever ended it. Boxed: a run's
    /// future holds its sub-agents', which would otherwise hold runs'.
    fn work_on(mut self, assignment: Assignment, answer: oneshot::Sender<Outcome>) -> BoxFuture<'static, ()> {
        Box::pin(async move {
            let result = self.carry_out(&assignment).await;
            self.record_usage().await;
            // Nobody waits for it when the delegating turn has ended.
            let _ = answer.send(Outcome {
                model: assignment.model.name.as_str().to_owned(),
                own_sandbox: assignment.own_sandbox,
                result,
            });
            if assignment.own_sandbox {
                let (sandboxes, key) = (self.deps.sandboxes.clone(), self.sandbox_key.clone());
                // Should this fail (or the backend stop first), the manager's idle time
                // limit removes it.
                tokio::spawn(async move {
                    if let Err(err) = sandboxes.release(&key).await {
                        tracing::warn!(sandbox = key.as_str(), %err, "removing a sub-agent's sandbox");
                    }
                });
            }
        })
    }

    async fn carry_out(&mut self, assignment: &Assignment) -> Result<Finished, String> {
        if assignment.own_sandbox {
            // Taken before the work starts and outside its guard: a creation that a stop
            // cut short could leave a sandbox behind the removal.
            self.sandbox().await?;
        }
        self.offer_mcp_tools().await;
        let mut guard = self.guard();
        let answer = match self.work(&assignment.model, &mut guard).await {
            TurnEnd::Answered(answer) => answer.unwrap_or_default(),
            TurnEnd::Failed(problem) => return Err(problem),
            // A sub-agent has no tool that waits for the person.
            TurnEnd::Stopped | TurnEnd::Waiting => return Err("stopped before it answered".into()),
        };
        let (files, not_copied) = self
            .hand_back(&assignment.return_files, assignment.home.as_ref())
            .await;
        Ok(Finished {
            answer,
            files,
            not_copied,
        })
    }
}
