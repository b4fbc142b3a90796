//! The MCP servers the agent registered: stdio servers it wrote in its sandbox, started
//! there through the same relay as an admin's stdio servers ([`stdio`]), as the sandbox's
//! user and with no environment of the deployment's. One per session and name; a
//! session's server is never another session's (each name's [`Sites`] keeps them by
//! session). Nothing is redacted: the agent's command carries no operator secret.
//!
//! A server whose process has ended is started again on its next call from its stored
//! command; one that fails in a call is stopped, and the reason says how its process
//! ended when the relay told it.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tool_api_client::contract::mcp::StdioStart;

use super::http_client::Refusals;
use super::stdio::{self, Connected, Sites};
use super::McpHub;
use crate::domain::agent_server::AgentServer;
use crate::domain::mcp::{McpResult, McpServerName, McpSite, McpTool};

/// The agent's servers running now, by name, each with one server per session.
#[derive(Default)]
pub(super) struct AgentSites(Mutex<HashMap<String, Arc<Sites>>>);

impl AgentSites {
    /// The sessions' servers of `name`. Every name's idle servers are stopped on the
    /// way, and names left with none forgotten: a server registered and then not used
    /// does not hold its sandbox's process (and a relay slot) for good.
    fn of(&self, name: &McpServerName) -> Arc<Sites> {
        let mut names = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        names.retain(|_, sites| !(sites.sweep() && Arc::strong_count(sites) == 1));
        names.entry(name.as_str().to_owned()).or_default().clone()
    }
}

impl McpHub {
    pub(super) async fn start_agent(
        &self,
        site: &McpSite,
        name: &McpServerName,
        command: &str,
        args: &[String],
    ) -> Result<Vec<McpTool>, String> {
        let connected = self.connect_agent(site, command, args).await?;
        let sites = self.agent_sites.of(name);
        let peer = sites.insert(site, connected);
        match self.list_all(peer, &Refusals::default()).await {
            Ok(tools) => Ok(tools),
            Err(reason) => Err(sites.forget(&site.session).unwrap_or(reason)),
        }
    }

    pub(super) async fn call_agent(
        &self,
        site: &McpSite,
        server: &AgentServer,
        tool: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
    ) -> Result<McpResult, String> {
        let sites = self.agent_sites.of(&server.name);
        let peer = match sites.running(site) {
            Some((peer, _)) => peer,
            None => {
                let connected = self
                    .connect_agent(site, &server.command, &server.args)
                    .await
                    .map_err(|reason| {
                        format!("it was not running and could not be started again: {reason}")
                    })?;
                sites.insert(site, connected)
            }
        };
        match self.invoke(peer, tool, arguments, &Refusals::default()).await {
            Ok(result) => Ok(result),
            Err(failed) => {
                let ended = sites.forget(&site.session);
                Err(match ended {
                    Some(ended) => format!("{}; {ended}", failed.reason),
                    None => failed.reason,
                })
            }
        }
    }

    /// Starts `command` in the site's sandbox with no environment of the deployment's.
    async fn connect_agent(
        &self,
        site: &McpSite,
        command: &str,
        args: &[String],
    ) -> Result<Connected, String> {
        let start = StdioStart {
            command: command.to_owned(),
            args: args.to_vec(),
            env: BTreeMap::new(),
        };
        let within = Duration::from_secs(self.settings.connect_timeout_secs);
        stdio::connect(&self.http, site, &start, within).await
    }

    pub(super) fn stop_agent(&self, site: &McpSite, name: &McpServerName) {
        self.agent_sites.of(name).forget(&site.session);
    }
}
