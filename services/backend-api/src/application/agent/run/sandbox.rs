//! The run's sandbox: asked for on the turn's first sandbox call (the session's, or a
//! sub-agent's own), its tool calls, the images their views show, stored once, and the
//! failed-cell budget — generate, run, fix, but only so many failed cells in a row.

use super::{messages, Run};
use crate::application::agent::untrusted::ToolReply;
use crate::domain::agent::{SandboxAccess, ToolCallRequest};
use crate::domain::image::{ImageId, Picture};
use crate::domain::logged_call::LoggedCall;
use crate::domain::sandbox_call::SandboxCall;
use crate::domain::tool::{ImageRef, ToolView};

impl Run {
    /// Runs one sandbox tool; `Err` ends the turn with that message.
    pub(super) async fn sandbox_tool(
        &mut self,
        call: &ToolCallRequest,
        logged: LoggedCall,
        request: &SandboxCall,
    ) -> Result<(), String> {
        self.open(call, logged).await;
        let sandbox = match self.sandbox().await {
            Ok(sandbox) => sandbox,
            Err(message) => {
                let reply = ToolReply::own(message.clone());
                self.close(&call.id, ToolView::error(message.clone()), reply)
                    .await;
                return Err(message);
            }
        };
        match self.deps.tools.call(&sandbox, request).await {
            Ok(outcome) => {
                let mut view = outcome.view;
                for (slot, picture) in view.image_slots().into_iter().zip(outcome.images) {
                    *slot = self.keep_image(picture).await;
                }
                let failed_cell = view.code_failed();
                self.close(&call.id, view, ToolReply::outside(outcome.text)).await;
                self.count_failed_cells(failed_cell)
            }
            Err(err) => {
                // The sandbox is gone (removed, OOM-killed): the next turn asks for a new one.
                self.sandbox = None;
                let message = messages::sandbox_gone(&err);
                let reply = ToolReply::own(message.clone());
                self.close(&call.id, ToolView::error(message.clone()), reply)
                    .await;
                Err(message)
            }
        }
    }

    /// The run's sandbox (the session's, or a sub-agent's own), asked for on the turn's
    /// first sandbox call.
    pub(super) async fn sandbox(&mut self) -> Result<SandboxAccess, String> {
        if let Some(sandbox) = &self.sandbox {
            return Ok(sandbox.clone());
        }
        let acquired = self
            .deps
            .sandboxes
            .acquire(&self.sandbox_key, &self.session.owner, self.session.network)
            .await
            .map_err(|err| messages::no_sandbox(&err))?
            .in_shell(self.shell.clone());
        self.sandbox = Some(acquired.clone());
        Ok(acquired)
    }

    /// Stores an image once and returns how the view refers to it (`None` when it could
    /// not be stored: the step goes on without its picture).
    async fn keep_image(&self, picture: Picture) -> Option<ImageRef> {
        let id = ImageId::of(&picture.bytes, picture.format);
        match self.deps.images.put(&self.session.id, &id, picture.bytes).await {
            Ok(()) => Some(ImageRef {
                url: (self.deps.image_url)(&self.session.id, &id),
                id: id.key(),
            }),
            Err(err) => {
                tracing::warn!(session = self.session.id.as_str(), %err, "storing an image");
                None
            }
        }
    }

    /// Generate, run, fix: a failed cell goes back to the model to fix, but only so many
    /// in a row before the turn ends, rather than burning tokens on a loop.
    fn count_failed_cells(&mut self, failed_cell: Option<bool>) -> Result<(), String> {
        match failed_cell {
            Some(true) => self.failed_cells += 1,
            Some(false) => self.failed_cells = 0,
            None => {}
        }
        let budget = self.deps.budgets.failed_cells;
        if self.failed_cells >= budget {
            return Err(messages::out_of_failed_cells(budget));
        }
        Ok(())
    }

    /// Kills the command the run's shell is running, if it has a sandbox.
    pub(super) async fn interrupt_shell(&self) {
        if let Some(sandbox) = &self.sandbox {
            if let Err(err) = self.deps.tools.interrupt(sandbox).await {
                tracing::warn!(%err, "killing the agent's command on stop");
            }
        }
    }
}
