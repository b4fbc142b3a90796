//! Settling a run that died with its replica: read from its log which tool calls it left
//! open (a sub-agent's too, inside their `delegated` wrappers), end the agent's shell
//! command it may have left running, and close each call with its `called` event and
//! an error, then say why and mark the session failed — so every `calling` has exactly
//! one `called` and nothing stays "running". A stop of such a run closes its calls the
//! same way. Whoever calls this holds the lease.

use std::time::Duration;

use super::Dependencies;
use crate::application::error::AppResult;
use crate::domain::event::{AgentEvent, StoredEvent, ToolStatus};
use crate::domain::logged_call::LoggedCall;
use crate::domain::session::{Session, SessionStatus};
use crate::domain::tool::ToolView;

/// What the person reads on the interrupted call and the session.
const INTERRUPTED: &str = "interrupted: the backend running it stopped";
const MESSAGE: &str =
    "The run was interrupted: the backend running it stopped or restarted. Send a message to continue.";
/// Events read from the log at a time.
const PAGE: usize = 500;
/// Reaching the sandbox to end the command must not hold the settlement up for long.
const INTERRUPT_TIMEOUT: Duration = Duration::from_secs(5);

/// A `calling` without its `called`, with the delegate calls it is nested in.
#[derive(Debug, PartialEq)]
struct OpenCall {
    within: Vec<String>,
    call_id: String,
    call: LoggedCall,
}

impl OpenCall {
    /// Its `called` event, wrapped as it was opened.
    fn closed(self, why: &str) -> AgentEvent {
        let event = AgentEvent::Tool {
            call_id: self.call_id,
            call: self.call,
            status: ToolStatus::Called,
            view: Some(ToolView::error(why)),
        };
        self.within
            .into_iter()
            .rev()
            .fold(event, |event, call_id| AgentEvent::Delegated {
                call_id,
                event: Box::new(event),
            })
    }
}

pub(super) async fn settle(deps: &Dependencies, session: &Session) -> AppResult<()> {
    close_calls(deps, session, INTERRUPTED).await?;
    let error = AgentEvent::Error {
        message: MESSAGE.into(),
    };
    deps.events.append(&session.id, error).await?;
    let failed = AgentEvent::Status {
        status: SessionStatus::Failed,
    };
    deps.events.append(&session.id, failed).await?;
    Ok(())
}

/// Closes the calls a run that is gone left open, saying `why`, after ending the shell
/// command it may have left running.
pub(super) async fn close_calls(deps: &Dependencies, session: &Session, why: &str) -> AppResult<()> {
    let open = open_calls(deps, session).await?;
    if !open.is_empty() {
        interrupt_shell(deps, session).await;
    }
    // The latest first: nested calls close before the delegate call holding them.
    for call in open.into_iter().rev() {
        deps.events.append(&session.id, call.closed(why)).await?;
    }
    Ok(())
}

async fn open_calls(deps: &Dependencies, session: &Session) -> AppResult<Vec<OpenCall>> {
    let mut open = Vec::new();
    let mut after = 0;
    loop {
        let page = deps.events.page(&session.id, after, PAGE).await?;
        for stored in &page {
            track(&mut open, Vec::new(), &stored.event);
        }
        match page.last() {
            Some(StoredEvent { seq, .. }) if page.len() == PAGE => after = *seq,
            _ => return Ok(open),
        }
    }
}

fn track(open: &mut Vec<OpenCall>, within: Vec<String>, event: &AgentEvent) {
    match event {
        AgentEvent::Tool {
            call_id,
            call,
            status: ToolStatus::Calling,
            ..
        } => open.push(OpenCall {
            within,
            call_id: call_id.clone(),
            call: call.clone(),
        }),
        AgentEvent::Tool {
            call_id,
            status: ToolStatus::Called,
            ..
        } => open.retain(|call| !(call.call_id == *call_id && call.within == within)),
        AgentEvent::Delegated { call_id, event } => {
            let mut within = within;
            within.push(call_id.clone());
            track(open, within, event);
        }
        _ => {}
    }
}

/// Ends the command the dead run's shell may still be running, so the next turn finds
/// the shell free. A failure is logged: the calls are closed either way.
async fn interrupt_shell(deps: &Dependencies, session: &Session) {
    let interrupt = async {
        let sandbox = deps
            .sandboxes
            .acquire(&session.id, &session.owner, session.network)
            .await?;
        deps.tools.interrupt(&sandbox).await
    };
    match tokio::time::timeout(INTERRUPT_TIMEOUT, interrupt).await {
        Ok(Ok(())) => {}
        Ok(Err(err)) => {
            tracing::warn!(session = session.id.as_str(), %err, "ending an interrupted run's command")
        }
        Err(_) => tracing::warn!(
            session = session.id.as_str(),
            "the sandbox did not answer in time to end an interrupted run's command"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(call_id: &str, status: ToolStatus) -> AgentEvent {
        AgentEvent::Tool {
            call_id: call_id.into(),
            call: LoggedCall::read("shell_exec".into(), serde_json::json!({})),
            status,
            view: None,
        }
    }

    fn delegated(call_id: &str, event: AgentEvent) -> AgentEvent {
        AgentEvent::Delegated {
            call_id: call_id.into(),
            event: Box::new(event),
        }
    }

    #[test]
    fn the_calls_left_open_are_found_nested_ones_too_and_close_as_they_opened() {
        let log = [
            tool("a", ToolStatus::Calling),
            tool("a", ToolStatus::Called),
            tool("d", ToolStatus::Calling),
            delegated("d", tool("a", ToolStatus::Calling)),
            delegated("d", tool("b", ToolStatus::Calling)),
            delegated("d", tool("a", ToolStatus::Called)),
            tool("c", ToolStatus::Calling),
        ];
        let mut open = Vec::new();
        for event in &log {
            track(&mut open, Vec::new(), event);
        }
        let ids: Vec<_> = open
            .iter()
            .map(|c| (c.within.clone(), c.call_id.as_str()))
            .collect();
        assert_eq!(ids, [(vec![], "d"), (vec!["d".to_owned()], "b"), (vec![], "c")]);
        let nested = open.remove(1).closed("interrupted");
        let AgentEvent::Delegated { call_id, event } = nested else {
            panic!("{nested:?}")
        };
        assert_eq!(call_id, "d");
        assert!(
            matches!(*event, AgentEvent::Tool { ref call_id, status: ToolStatus::Called, view: Some(ToolView::Error { .. }), .. } if call_id == "b"),
            "{event:?}"
        );
    }
}
