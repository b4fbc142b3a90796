//! Whom a run works for, and what a turn shares with the sub-agents it starts: the step
//! budget of the whole tree, and the sub-agents themselves until they have ended, with
//! how each one ended as the delegating call's result (see `delegation`).

use std::sync::atomic::{AtomicU32, Ordering};

use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::application::agent::untrusted::ToolReply;
use crate::domain::event::AgentEvent;
use crate::domain::tool::ToolView;

/// Whom a run works for.
pub(super) enum Role {
    /// The person: the session's agent.
    Lead,
    /// The agent that delegated a task with the call `call_id`.
    Sub { call_id: String },
}

impl Role {
    pub(super) fn is_lead(&self) -> bool {
        matches!(self, Self::Lead)
    }

    /// The event as the log keeps it: a sub-agent's nested under its call, except the
    /// tokens it used, which the session counts like its agent's.
    pub(super) fn place(&self, event: AgentEvent) -> AgentEvent {
        match self {
            Self::Sub { call_id } if !matches!(event, AgentEvent::Usage { .. }) => AgentEvent::Delegated {
                call_id: call_id.clone(),
                event: Box::new(event),
            },
            _ => event,
        }
    }
}

/// Model requests left to a turn and all its sub-agents.
pub(super) struct StepBudget(AtomicU32);

impl StepBudget {
    pub(super) fn new(steps: u32) -> Self {
        Self(AtomicU32::new(steps))
    }

    /// Takes one request; `false` when none is left.
    pub(super) fn take(&self) -> bool {
        self.0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| left.checked_sub(1))
            .is_ok()
    }
}

/// The sub-agents a turn started, until they have ended.
pub(super) struct SubAgents {
    /// Cancelled when the turn ends, whatever ended it (a stop cancels it as its parent).
    pub(super) cancel: CancellationToken,
    /// The answers not yet taken, by delegating call id, in the order they started.
    pub(super) answers: Vec<(String, oneshot::Receiver<Outcome>)>,
    /// Each sub-agent's task the turn started (their number names their shells), until
    /// its calls are closed and its tokens counted.
    pub(super) tasks: Vec<JoinHandle<()>>,
}

impl SubAgents {
    pub(super) fn new(cancel: CancellationToken) -> Self {
        Self {
            cancel,
            answers: Vec::new(),
            tasks: Vec::new(),
        }
    }

    /// The next sub-agent's outcome, in the order they started, once it has answered.
    pub(super) async fn next(&mut self) -> Option<(String, Outcome)> {
        let (_, answer) = self.answers.first_mut()?;
        let outcome = answer.await.unwrap_or_else(|_| Outcome {
            model: String::new(),
            own_sandbox: false,
            result: Err("the sub-agent crashed".into()),
        });
        let (call_id, _) = self.answers.remove(0);
        Some((call_id, outcome))
    }

    /// Stops those still working and waits until they have ended: their calls closed and
    /// their tokens counted (their own sandboxes go in the background).
    pub(super) async fn end_all(&mut self) {
        self.cancel.cancel();
        self.answers.clear();
        for task in self.tasks.drain(..) {
            if let Err(err) = task.await {
                tracing::error!(%err, "a sub-agent crashed");
            }
        }
    }
}

/// How a sub-agent ended.
pub(super) struct Outcome {
    pub(super) model: String,
    pub(super) own_sandbox: bool,
    pub(super) result: Result<Finished, String>,
}

pub(super) struct Finished {
    pub(super) answer: String,
    /// Copied into the delegating agent's sandbox.
    pub(super) files: Vec<String>,
    /// Files that could not be copied, with why.
    pub(super) not_copied: Vec<String>,
}

impl Outcome {
    /// What the person sees of the delegation, and what the delegating model reads: the
    /// sub-agent's answer is content from outside (what its tools read may have steered
    /// it), introduced by the files it handed back.
    pub(super) fn present(self) -> (ToolView, ToolReply) {
        let done = match self.result {
            Ok(done) => done,
            Err(problem) => {
                let message = format!("The sub-agent did not finish: {problem}");
                return (ToolView::error(message.clone()), ToolReply::own(message));
            }
        };
        let mut notes = Vec::new();
        if !done.files.is_empty() {
            notes.push(format!("[Copied into your sandbox: {}]", done.files.join(", ")));
        }
        if !done.not_copied.is_empty() {
            notes.push(format!("[Not copied: {}]", done.not_copied.join("; ")));
        }
        let about: String = notes
            .iter()
            .map(|note| format!("{note}\n"))
            .chain(["The sub-agent's answer:".to_owned()])
            .collect();
        let view = ToolView::Delegation {
            model: self.model,
            own_sandbox: self.own_sandbox,
            answer: [done.answer.clone()]
                .into_iter()
                .chain(notes)
                .collect::<Vec<_>>()
                .join("\n\n"),
            files: done.files,
        };
        (view, ToolReply::outside_about(about, done.answer))
    }
}
