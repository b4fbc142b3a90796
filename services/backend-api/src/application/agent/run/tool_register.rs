//! The `tool_register` tool: the agent registers an MCP stdio server it wrote in its
//! sandbox, and its tools are offered from the turn's next model request as
//! `mcp__<name>__<tool>` — in this session only, kept with it so later turns (on any
//! replica, after a restart) offer them again, starting the server again when called.
//!
//! Registering checks, in order: the name (and that no admin's server has it), the
//! command, the session's number of servers, that the command starts in the sandbox and
//! lists tools that can be offered ([`checked_tools`]), and the test call the agent gave.
//! Every refusal is the model's to read, with how the process ended where the relay told
//! it, and the turn goes on; a name registered again replaces its server, which is how
//! the agent fixes one. A server that fails in a later call says so in that call's
//! result.
//!
//! Only a chat's own run registers servers: not a sub-agent (whose sandbox may not be
//! the session's), and not a job's session ([`Session::headless`]), whose prompt may
//! carry anyone's text and which has no person to see what was registered.
//!
//! [`Session::headless`]: crate::domain::session::Session::headless

use std::collections::HashSet;

use chrono::Utc;
use serde_json::{Map, Value};

use super::Run;
use crate::application::agent::mcp::present;
use crate::application::agent::untrusted::ToolReply;
use crate::application::toolbox::write_files;
use crate::domain::agent::ToolCallRequest;
use crate::domain::agent_server::{
    checked_tools, command_refusal, session_size_refusal, AgentServer, MAX_SERVERS, REGISTER_TOOL,
};
use crate::domain::logged_call::LoggedCall;
use crate::domain::mcp::{qualified_name, McpServerName, McpSite};
use crate::domain::run_call::RegisterArgs;
use crate::domain::tool::{RegisteredTool, ToolRegistration, ToolView};
use crate::domain::toolbox::KeptTool;

/// The most characters of the test call's result the person's view keeps (the model's
/// copy is cut to the turn's tool output budget).
const SHOWN_TEST_CHARS: usize = 10_000;

/// Why a server was not registered.
pub(super) enum Refusal {
    /// The backend's own words (a bad name, too many servers).
    Own(String),
    /// What the server or its sandbox said (how it ended, its error), after the
    /// backend's words.
    Outside { about: String, reason: String },
}

impl Refusal {
    /// The whole of it, for the person.
    pub(super) fn text(self) -> String {
        match self {
            Self::Own(why) => why,
            Self::Outside { about, reason } => format!("{about} {reason}"),
        }
    }
}

impl Run {
    /// Whether this run registers servers (see the module's notes).
    pub(super) fn registers(&self) -> bool {
        self.role.is_lead() && !self.session.headless
    }

    /// As a turn starts, after the admin's servers (`taken` names them): `tool_register`
    /// offered, and the session's registered servers' tools. One whose name an admin's
    /// server took since is left out. A store that fails costs the turn these tools.
    pub(super) async fn offer_agent_servers(&mut self, taken: &HashSet<String>) {
        let on = self.registers();
        self.catalogue.offer_optional(REGISTER_TOOL, on);
        self.agent_servers.clear();
        if !on {
            return;
        }
        match self.deps.agent_servers.agent_servers(&self.session.id).await {
            Ok(servers) => {
                let kept = self.kept_tools().await;
                let mut names = HashSet::new();
                for server in servers {
                    if !self.still_kept(&server, kept.as_deref()).await {
                        continue;
                    }
                    names.insert(server.name.as_str().to_owned());
                    if !taken.contains(server.name.as_str()) {
                        self.offer_agent_server(server);
                    }
                }
                if let Some(kept) = kept {
                    self.offer_kept_tools(&taken.union(&names).cloned().collect(), kept)
                        .await;
                }
            }
            Err(err) => {
                tracing::warn!(session = self.session.id.as_str(), %err, "reading the agent's MCP servers");
            }
        }
    }

    pub(super) fn offer_agent_server(&mut self, server: AgentServer) {
        let name = server.name.as_str().to_owned();
        self.catalogue.withdraw_mcp(&name);
        let tools = server.tools.iter().cloned().map(Into::into).collect();
        self.catalogue.offer_mcp(&name, tools);
        self.agent_servers.retain(|kept| kept.name != server.name);
        self.agent_servers.push(server);
    }

    /// The registered server of that name, if this run has one.
    pub(super) fn agent_server(&self, name: &str) -> Option<AgentServer> {
        self.agent_servers
            .iter()
            .find(|server| server.name.as_str() == name)
            .cloned()
    }

    /// Registers the server, between the call's `calling` and `called` events.
    pub(super) async fn register_tool(
        &mut self,
        call: &ToolCallRequest,
        logged: LoggedCall,
        args: RegisterArgs,
    ) {
        self.open(call, logged).await;
        let view = |tools: Vec<RegisteredTool>, test: Option<String>, error: Option<String>| {
            ToolView::ToolRegister(Box::new(ToolRegistration {
                server: args.name.clone(),
                command: args.command.clone(),
                args: args.args.clone(),
                tools,
                test,
                error,
            }))
        };
        let (view, reply) = match self.register(&args).await {
            Ok((server, test)) => {
                let offered: Vec<RegisteredTool> = server
                    .tools
                    .iter()
                    .map(|tool| RegisteredTool {
                        name: qualified_name(server.name.as_str(), &tool.name).unwrap_or_default(),
                        description: tool.description.clone(),
                    })
                    .collect();
                let names: Vec<&str> = offered.iter().map(|tool| tool.name.as_str()).collect();
                let about = format!(
                    "Registered the MCP server {:?}: from your next step you can call {} (in this chat only).",
                    args.name,
                    names.join(", ")
                );
                let reply = match &test {
                    Some(text) => {
                        ToolReply::outside_about(format!("{about} The test call gave:"), text.clone())
                    }
                    None => ToolReply::own(about),
                };
                self.offer_agent_server(server);
                let shown = test.map(|text| text.chars().take(SHOWN_TEST_CHARS).collect());
                (view(offered, shown, None), reply)
            }
            Err(refusal) => {
                let about = format!(
                    "The MCP server {:?} was not registered (fix it and call tool_register again; the same name replaces it):",
                    args.name
                );
                match refusal {
                    Refusal::Own(why) => (
                        view(Vec::new(), None, Some(why.clone())),
                        ToolReply::own(format!("{about} {why}")),
                    ),
                    Refusal::Outside { about: what, reason } => (
                        view(Vec::new(), None, Some(format!("{what} {reason}"))),
                        ToolReply::outside_about(format!("{about} {what}"), reason),
                    ),
                }
            }
        };
        self.close(&call.id, view, reply).await;
    }

    /// Checks, starts, lists, tests and keeps the server; its tools and what the test
    /// call gave, or why not.
    async fn register(&mut self, args: &RegisterArgs) -> Result<(AgentServer, Option<String>), Refusal> {
        let name = McpServerName::parse(&args.name).map_err(|err| Refusal::Own(err.to_string()))?;
        let (server, site) = self.start_server(&name, &args.command, &args.args, None).await?;
        let test = match &args.test {
            None => None,
            Some(test) => Some(
                self.test_call(&server, &test.tool, test.arguments.clone(), &site)
                    .await
                    .inspect_err(|_| self.deps.mcp.stop_agent_server(&site, &name))?,
            ),
        };
        self.keep_server(&server, &site).await?;
        Ok((server, test))
    }

    /// Checks the command and the chat's number of servers, writes `kept`'s files (a
    /// kept tool's), starts the server in the run's sandbox and checks the tools it lists;
    /// its registration (not yet kept) and where it runs, or why not.
    pub(super) async fn start_server(
        &mut self,
        name: &McpServerName,
        command: &str,
        args: &[String],
        kept: Option<&KeptTool>,
    ) -> Result<(AgentServer, McpSite), Refusal> {
        if let Some(why) = command_refusal(command, args) {
            return Err(Refusal::Own(why));
        }
        if self.deps.mcp.configured(name).await {
            return Err(Refusal::Own(format!(
                "{:?} is the name of a server the deployment configured; pick another",
                name.as_str()
            )));
        }
        // The store's, not this turn's: one an admin's server hides still counts.
        let stored = self.deps.agent_servers.agent_servers(&self.session.id).await;
        let stored = stored.map_err(|err| {
            tracing::error!(session = self.session.id.as_str(), %err, "reading the agent's MCP servers");
            Refusal::Own("the chat's servers could not be read (a storage error); try again later".into())
        })?;
        let registered: Vec<&str> = stored.iter().map(|s| s.name.as_str()).collect();
        if registered.len() >= MAX_SERVERS && !registered.contains(&name.as_str()) {
            return Err(Refusal::Own(format!(
                "a chat keeps at most {MAX_SERVERS} servers ({}); register one of those names again to replace it",
                registered.join(", ")
            )));
        }
        let site = self.mcp_site().await.map_err(Refusal::Own)?;
        if let Some(kept) = kept {
            write_files(self.deps.files.as_ref(), &site.sandbox, kept)
                .await
                .map_err(|err| Refusal::Own(format!("its files could not be written: {err}")))?;
        }
        let mcp = self.deps.mcp.clone();
        let started = mcp.start_agent_server(&site, name, command, args).await;
        let listed = started.map_err(|reason| Refusal::Outside {
            about: "it did not start:".to_owned(),
            reason,
        })?;
        let tools = checked_tools(name, listed)
            .and_then(|tools| match session_size_refusal(&stored, name, &tools) {
                Some(why) => Err(why),
                None => Ok(tools),
            })
            .map_err(|why| {
                mcp.stop_agent_server(&site, name);
                Refusal::Own(format!("its tools cannot be offered: {why}"))
            })?;
        let server = AgentServer {
            session_id: self.session.id.clone(),
            owner: self.session.owner.clone(),
            name: name.clone(),
            command: command.to_owned(),
            args: args.to_vec(),
            tools,
            registered_at: Utc::now(),
            kept_id: kept.map(|kept| kept.id.clone()),
        };
        Ok((server, site))
    }

    /// Stores the registration of the server started at `site` (stopped if it cannot be).
    pub(super) async fn keep_server(&self, server: &AgentServer, site: &McpSite) -> Result<(), Refusal> {
        if let Err(err) = self.deps.agent_servers.put_agent_server(server).await {
            tracing::error!(session = self.session.id.as_str(), %err, "keeping the agent's MCP server");
            self.deps.mcp.stop_agent_server(site, &server.name);
            return Err(Refusal::Own(
                "it could not be kept (a storage error); try again later".into(),
            ));
        }
        Ok(())
    }

    /// The test call's text, if the tool ran without reporting an error.
    async fn test_call(
        &self,
        server: &AgentServer,
        tool: &str,
        arguments: Map<String, Value>,
        site: &McpSite,
    ) -> Result<String, Refusal> {
        if !server.tools.iter().any(|listed| listed.name == tool) {
            let names: Vec<&str> = server.tools.iter().map(|t| t.name.as_str()).collect();
            return Err(Refusal::Own(format!(
                "the test names the tool {tool:?}, which it does not list (it lists {})",
                names.join(", ")
            )));
        }
        let name = server.name.as_str();
        match self
            .deps
            .mcp
            .call_agent_server(site, server, tool, arguments)
            .await
        {
            Ok(result) => {
                let (_, text) = present(name, tool, &result);
                if result.is_error {
                    Err(Refusal::Outside {
                        about: format!("the test call of {tool:?} reported an error:"),
                        reason: text,
                    })
                } else {
                    Ok(text)
                }
            }
            Err(reason) => Err(Refusal::Outside {
                about: format!("the test call of {tool:?} gave no result:"),
                reason,
            }),
        }
    }
}
