//! The person's tool box in a chat: as a turn starts, each kept tool the chat gets (the
//! person's enabled ones, and the published ones — see
//! [`crate::application::toolbox::ToolboxService::offered`]) that is not registered in
//! it yet has its files written into the run's sandbox and is registered as
//! `tool_register` would (the same checks and limits), so that its tools are offered as
//! `mcp__<name>__<tool>` from this turn on. A name the chat already has (the agent's
//! own server, an admin's) keeps its server. Its files never replace one of the chat's
//! that differs ([`crate::application::toolbox::write_files`]). One that cannot be
//! registered — nor one past [`MAX_KEPT_IN_CHAT`] of the chat's servers (counted with
//! the ones it has), so that `tool_register` keeps room — is told to the person once,
//! and the turn goes on without it; the chat does not try it again (see
//! [`crate::application::toolbox::ToolboxService::failed`]).

use std::collections::HashSet;

use super::{messages, Run};
use crate::domain::agent_server::{AgentServer, MAX_SERVERS};
use crate::domain::event::AgentEvent;
use crate::domain::toolbox::{KeptTool, MAX_KEPT_IN_CHAT};

impl Run {
    /// The kept tools the chat gets; `None` when the tool box cannot be read.
    pub(super) async fn kept_tools(&self) -> Option<Vec<KeptTool>> {
        match self.deps.toolbox.offered(&self.session.owner).await {
            Ok(kept) => Some(kept),
            Err(err) => {
                tracing::warn!(session = self.session.id.as_str(), %err, "reading the tool box");
                None
            }
        }
    }

    /// Whether `server` stays registered: it is the agent's own, or its kept tool is
    /// still among `kept` (unknown when the tool box could not be read); one that is not
    /// is removed from the chat.
    pub(super) async fn still_kept(&self, server: &AgentServer, kept: Option<&[KeptTool]>) -> bool {
        let (Some(id), Some(kept)) = (&server.kept_id, kept) else {
            return true;
        };
        if kept.iter().any(|tool| tool.id == *id) {
            return true;
        }
        let removed = self
            .deps
            .agent_servers
            .remove_agent_server(&self.session.id, &server.name)
            .await;
        if let Err(err) = removed {
            tracing::warn!(session = self.session.id.as_str(), %err, "removing a kept tool's registration");
        }
        false
    }

    /// Registers the `kept` tools the chat gets and has none of the `taken` names.
    pub(super) async fn offer_kept_tools(&mut self, taken: &HashSet<String>, kept: Vec<KeptTool>) {
        let stored = match self.deps.agent_servers.agent_servers(&self.session.id).await {
            Ok(stored) => stored.len(),
            Err(err) => {
                tracing::warn!(session = self.session.id.as_str(), %err, "reading the agent's MCP servers");
                return;
            }
        };
        let mut room = MAX_KEPT_IN_CHAT.saturating_sub(stored);
        for tool in kept {
            let toolbox = self.deps.toolbox.clone();
            if taken.contains(tool.name.as_str()) || toolbox.failed(&self.session.id, &tool) {
                continue;
            }
            let registered = match room {
                0 => Err(format!(
                    "the chat keeps {} of its {MAX_SERVERS} server places for the agent's own",
                    MAX_SERVERS - MAX_KEPT_IN_CHAT
                )),
                _ => self.register_kept(&tool).await,
            };
            match registered {
                Ok(()) => room -= 1,
                Err(why) => {
                    toolbox.remember_failure(&self.session.id, &tool);
                    let message = messages::kept_tool_unavailable(tool.name.as_str(), &why);
                    self.emit(AgentEvent::Error { message }).await;
                }
            }
        }
    }

    async fn register_kept(&mut self, tool: &KeptTool) -> Result<(), String> {
        let (server, site) = self
            .start_server(&tool.name, &tool.command, &tool.args, Some(tool))
            .await
            .map_err(|refusal| refusal.text())?;
        self.keep_server(&server, &site)
            .await
            .map_err(|refusal| refusal.text())?;
        self.offer_agent_server(server);
        Ok(())
    }
}
