//! The MCP servers' tools in a run: listed and offered as a turn starts (a server that
//! has none is told to the person once per run), then the servers the agent registered
//! (see `tool_register`), and called — stdio servers in the run's own sandbox, the
//! others from the backend.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::{messages, Run};
use crate::application::agent::mcp::present;
use crate::application::agent::untrusted::ToolReply;
use crate::domain::agent::ToolCallRequest;
use crate::domain::event::AgentEvent;
use crate::domain::logged_call::LoggedCall;
use crate::domain::mcp::McpSite;
use crate::domain::tool::ToolView;

impl Run {
    /// Offers the MCP servers' tools for this turn. A server that has none (it failed to
    /// start or answer) is told to the person once per run, and the run goes on.
    pub(super) async fn offer_mcp_tools(&mut self) {
        self.catalogue.clear_mcp();
        // stdio servers list their tools in this run's own sandbox, for it alone; without
        // one, each of them is unavailable for the reason there is none.
        let (site, no_site) = if self.deps.mcp.needs_site().await {
            match self.mcp_site().await {
                Ok(site) => (Some(site), None),
                Err(message) => (None, Some(message)),
            }
        } else {
            (None, None)
        };
        let mut taken = HashSet::new();
        let online = self.session.reaches_internet();
        for server in self.deps.mcp.status(site.as_ref()).await {
            taken.insert(server.name.clone());
            // A server the backend calls would reach outside for an offline session.
            if !online && !self.deps.mcp.runs_in_sandbox(&server.name) {
                continue;
            }
            let error = match (server.error, &no_site) {
                (Some(error), _) => Some(error),
                (None, Some(no_site)) if server.not_started => Some(no_site.clone()),
                (None, _) => None,
            };
            match error {
                None => self.catalogue.offer_mcp(&server.name, server.tools),
                Some(error) if self.mcp_reported.insert(server.name.clone()) => {
                    let message = messages::mcp_unavailable(&server.name, &error);
                    self.emit(AgentEvent::Error { message }).await;
                }
                Some(_) => {}
            }
        }
        self.offer_agent_servers(&taken).await;
    }

    /// Calls a tool of an MCP server. A server that fails gives the model an error to
    /// work with; the turn goes on.
    pub(super) async fn mcp_tool(
        &mut self,
        call: &ToolCallRequest,
        logged: LoggedCall,
        server: &str,
        tool: &str,
        arguments: Map<String, Value>,
    ) {
        self.open(call, logged).await;
        let registered = self.agent_server(server);
        let site = if registered.is_some() || self.deps.mcp.runs_in_sandbox(server) {
            match self.mcp_site().await {
                Ok(site) => Some(site),
                Err(message) => {
                    let reply = ToolReply::own(message.clone());
                    self.close(&call.id, ToolView::error(message), reply).await;
                    return;
                }
            }
        } else {
            None
        };
        let (called, fix) = match (&registered, &site) {
            (Some(registered), Some(site)) => (
                self.deps
                    .mcp
                    .call_agent_server(site, registered, tool, arguments)
                    .await,
                " (a server you registered: fix it and call tool_register again if it is broken)",
            ),
            _ => (
                self.deps.mcp.call(server, tool, arguments, site.as_ref()).await,
                "",
            ),
        };
        match called {
            Ok(result) => {
                let (view, text) = present(server, tool, &result);
                self.close(&call.id, view, ToolReply::outside(text)).await;
            }
            Err(reason) => {
                let view = ToolView::error(format!("The MCP server {server:?} gave no result: {reason}"));
                let about = format!("The MCP server {server:?} gave no result{fix}; the reason:");
                self.close(&call.id, view, ToolReply::outside_about(about, reason))
                    .await;
            }
        }
    }

    /// Where the run's MCP stdio servers run.
    pub(super) async fn mcp_site(&mut self) -> Result<McpSite, String> {
        // By the sandbox's key: a sub-agent with a sandbox of its own starts its own.
        Ok(McpSite {
            session: self.sandbox_key.clone(),
            sandbox: self.sandbox().await?,
        })
    }
}
