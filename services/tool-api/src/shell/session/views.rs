//! What a session shows of its latest command: a snapshot (state and output), a one-line
//! summary for the session list, and the live output stream that ends with the command.

use tool_api_contract::shell::{CommandState, ShellSessionSummary, ShellSnapshot};

use super::{Outcome, Run, Session, StreamItem};
use crate::error::ToolResult;
use crate::shell::console::Slice;

impl Session {
    /// The latest command's state; `full` returns the whole console as output.
    pub fn snapshot(&self, full: bool) -> ToolResult<ShellSnapshot> {
        let state = self.lock();
        let run = state.run.as_ref().ok_or_else(|| self.no_command())?;
        let from = if full { 0 } else { run.start_offset };
        Ok(snapshot_of(&self.id, run, state.console.read_from(from)))
    }

    pub fn summary(&self) -> Option<ShellSessionSummary> {
        let state = self.lock();
        let run = state.run.as_ref()?;
        Some(ShellSessionSummary {
            session: self.id.clone(),
            command: run.command.clone(),
            state: state_of(run),
            pid: run.pid,
            started_at_ms: run.started_at_ms,
        })
    }

    /// Live output from `from` (default: the latest command's start), ending with an
    /// `Exit` item once the command that was running at subscription has finished.
    pub fn stream(
        self: std::sync::Arc<Self>,
        from: Option<u64>,
    ) -> ToolResult<impl futures::Stream<Item = StreamItem>> {
        let (seq, start) = {
            let state = self.lock();
            let run = state.run.as_ref().ok_or_else(|| self.no_command())?;
            (run.seq, from.unwrap_or(run.start_offset))
        };
        let mut changes = self.changed.subscribe();
        Ok(async_stream::stream! {
            let mut offset = start;
            loop {
                let (slice, exit) = {
                    let state = self.lock();
                    let slice = state.console.read_from(offset);
                    let exit = state
                        .run
                        .as_ref()
                        .filter(|run| run.seq != seq || run.outcome.is_some())
                        .map(|run| snapshot_of(&self.id, run, Slice { text: String::new(), truncated: false, end: slice.end }));
                    (slice, exit)
                };
                if !slice.text.is_empty() {
                    offset = slice.end;
                    yield StreamItem::Output(slice);
                }
                if let Some(exit) = exit {
                    yield StreamItem::Exit(exit);
                    break;
                }
                if changes.changed().await.is_err() {
                    break;
                }
            }
        })
    }
}

fn state_of(run: &Run) -> CommandState {
    match run.outcome {
        None => CommandState::Running,
        Some(Outcome { signal: Some(_), .. }) => CommandState::Killed,
        Some(_) => CommandState::Exited,
    }
}

fn snapshot_of(id: &str, run: &Run, output: Slice) -> ShellSnapshot {
    ShellSnapshot {
        session: id.to_owned(),
        command: run.command.clone(),
        state: state_of(run),
        pid: run.pid,
        exit_code: run.outcome.and_then(|o| o.exit_code),
        signal: run.outcome.and_then(|o| o.signal),
        output: output.text,
        truncated: output.truncated,
        offset: output.end,
        started_at_ms: run.started_at_ms,
        finished_at_ms: run.outcome.map(|o| o.finished_at_ms),
    }
}
