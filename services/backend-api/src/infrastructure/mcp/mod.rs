//! The MCP servers adapter: one client connection per Streamable HTTP server, opened
//! when first needed (official Rust SDK, `rmcp`) and opened again after it failed. Tool
//! lists are cached for a while, failures too, so a broken server costs a run its
//! tools, not its time. Redirects are followed only within a server's own origin, so
//! its headers never reach another ([`http_client`]).
//!
//! The servers are the enabled ones of the store, read again whenever the tools are
//! listed (at the start of every turn, one small query), so an admin's change reaches
//! the next turn on every replica. A server that was changed, disabled or deleted loses
//! its connection and cached list then.
//!
//! stdio servers run inside the session's sandbox, never on the backend's host (see
//! [`stdio`]): one connection per session, opened when the session first needs it and
//! dropped (which stops the server) after it has been idle a while. The tools each
//! session's server lists are that session's alone: what a sandbox produced never
//! reaches another person. Every list, from either transport, is kept within
//! [`McpTool::within_limits`]. The servers the agent registered run the same way, one
//! per session and name ([`agent`]); a call goes through [`calls`]. The secrets of a server's configuration are blanked out
//! of every error and result text it gives ([`redact`]).

mod agent;
mod calls;
pub mod config;
mod http_client;
mod redact;
mod stdio;
mod wire;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::service::{Peer, RoleClient, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::ServiceExt;
use tokio::sync::Mutex;

use crate::config::McpConfig;
use http_client::Refusals;
use redact::Secrets;
use wire::{header_map, shown_url};

use crate::domain::agent_server::AgentServer;
use crate::domain::mcp::{
    McpContent, McpResult, McpServer, McpServerName, McpServerStatus, McpSite, McpTool, McpTransport,
};
use crate::domain::ports::{McpServerRepository, McpServers};

/// An HTTP server's connection and its last tool list.
#[derive(Default)]
struct Slot {
    client: Option<RunningService<RoleClient, ()>>,
    /// What the connection's client refused to follow.
    refusals: Refusals,
    listed: Option<(Instant, Result<Vec<McpTool>, String>)>,
}

/// An enabled server as last read, with its slot (HTTP) or its sessions' servers
/// (stdio); dropped (closing its connections) when the server changes or goes.
struct Entry {
    server: McpServer,
    secrets: Secrets,
    slot: Mutex<Slot>,
    sites: stdio::Sites,
}

impl Entry {
    fn new(server: McpServer) -> Self {
        Self {
            secrets: Secrets::of(&server.transport),
            server,
            slot: Mutex::default(),
            sites: Default::default(),
        }
    }

    fn in_sandbox(&self) -> bool {
        matches!(self.server.transport, McpTransport::Stdio { .. })
    }
}

pub struct McpHub {
    store: Arc<dyn McpServerRepository>,
    /// The enabled servers by name, as the last read of the store found them.
    entries: std::sync::Mutex<HashMap<String, Arc<Entry>>>,
    settings: McpConfig,
    /// Reaches the sandboxes' tool-api (stdio servers).
    http: reqwest::Client,
    /// The servers the agent registered, running in their sessions' sandboxes.
    agent_sites: agent::AgentSites,
}

impl McpHub {
    pub fn new(store: Arc<dyn McpServerRepository>, settings: McpConfig) -> Self {
        // rmcp's HTTP client takes TLS from the process-wide rustls provider; ring is the
        // one the backend's other clients use. Already installed is fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
        Self {
            store,
            entries: Default::default(),
            settings,
            http: reqwest::Client::new(),
            agent_sites: Default::default(),
        }
    }

    /// The enabled servers as the store has them now, each keeping its slot while its
    /// transport is unchanged. When the store does not answer, the servers last read.
    async fn current(&self) -> Vec<Arc<Entry>> {
        let stored = match self.store.list().await {
            Ok(stored) => stored,
            Err(err) => {
                tracing::warn!(%err, "reading the MCP servers; using the ones last read");
                return self
                    .entries
                    .lock()
                    .expect("not poisoned")
                    .values()
                    .cloned()
                    .collect();
            }
        };
        let mut entries = self.entries.lock().expect("not poisoned");
        let mut previous = std::mem::take(&mut *entries);
        let mut current = Vec::new();
        for server in stored.into_iter().filter(|server| server.enabled) {
            let name = server.name.as_str().to_owned();
            let entry = match previous.remove(&name) {
                Some(entry) if entry.server.transport == server.transport => entry,
                _ => Arc::new(Entry::new(server)),
            };
            entries.insert(name, entry.clone());
            current.push(entry);
        }
        current
    }

    fn find(&self, name: &str) -> Option<Arc<Entry>> {
        self.entries.lock().expect("not poisoned").get(name).cloned()
    }

    /// The slot's open connection, or a new one.
    async fn peer(&self, server: &McpServer, slot: &mut Slot) -> Result<Peer<RoleClient>, String> {
        if let Some(client) = &slot.client {
            if !client.is_closed() {
                return Ok(client.peer().clone());
            }
        }
        let McpTransport::Http { url, headers } = &server.transport else {
            return Err("a stdio server runs in a session's sandbox".into());
        };
        let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str());
        config.custom_headers = header_map(headers)?;
        let (http, refusals) = http_client::client()?;
        let transport = StreamableHttpClientTransport::with_client(http, config);
        let within = Duration::from_secs(self.settings.connect_timeout_secs);
        let client = match tokio::time::timeout(within, ().serve(transport)).await {
            Ok(Ok(client)) => client,
            Ok(Err(err)) => return Err(format!("could not connect: {}", refusals.explain(err))),
            Err(_) => return Err(format!("did not answer within {} s", within.as_secs())),
        };
        let peer = client.peer().clone();
        slot.client = Some(client);
        slot.refusals = refusals;
        Ok(peer)
    }

    /// The session's own server of a stdio entry, with the tools it listed: the one
    /// running in its sandbox, or a new one started there.
    async fn site_peer(
        &self,
        entry: &Entry,
        site: &McpSite,
    ) -> Result<(Peer<RoleClient>, Option<Vec<McpTool>>), String> {
        if let Some(running) = entry.sites.running(site) {
            return Ok(running);
        }
        let start = stdio::start_of(&entry.server.transport)?;
        let within = Duration::from_secs(self.settings.connect_timeout_secs);
        let client = stdio::connect(&self.http, site, &start, within).await?;
        Ok((entry.sites.insert(site, client), None))
    }

    /// Every tool `peer` lists, as it listed them.
    async fn list_all(&self, peer: Peer<RoleClient>, refusals: &Refusals) -> Result<Vec<McpTool>, String> {
        let within = Duration::from_secs(self.settings.connect_timeout_secs);
        let tools = match tokio::time::timeout(within, peer.list_all_tools()).await {
            Ok(Ok(tools)) => tools,
            Ok(Err(err)) => return Err(format!("listing its tools failed: {}", refusals.explain(err))),
            Err(_) => return Err(format!("did not list its tools within {} s", within.as_secs())),
        };
        Ok(tools
            .into_iter()
            .map(|tool| McpTool {
                name: tool.name.into_owned(),
                description: tool.description.map(|d| d.into_owned()).unwrap_or_default(),
                input_schema: serde_json::Value::Object((*tool.input_schema).clone()),
            })
            .collect())
    }

    async fn list(&self, peer: Peer<RoleClient>, refusals: &Refusals) -> Result<Vec<McpTool>, String> {
        let listed = self.list_all(peer, refusals).await?;
        let count = listed.len();
        let kept = McpTool::within_limits(listed);
        if kept.len() < count {
            tracing::warn!(
                listed = count,
                kept = kept.len(),
                "an MCP server listed tools over the limits; those are left out"
            );
        }
        Ok(kept)
    }

    /// An HTTP server's tools, listed again once the cached list is stale (failures are
    /// cached too).
    async fn listed_over_http(&self, entry: &Entry) -> Result<Vec<McpTool>, String> {
        let mut slot = entry.slot.lock().await;
        let fresh = Duration::from_secs(self.settings.cache_secs);
        if let Some((at, listed)) = &slot.listed {
            if at.elapsed() < fresh {
                return listed.clone();
            }
        }
        let listed = match self.peer(&entry.server, &mut slot).await {
            Ok(peer) => self.list(peer, &slot.refusals).await,
            Err(err) => Err(err),
        };
        if listed.is_err() {
            slot.client = None;
        }
        slot.listed = Some((Instant::now(), listed.clone()));
        listed
    }

    /// A stdio server's tools in `site`: those its server there listed, or listed now;
    /// `None` without a site (nothing a sandbox listed is shown elsewhere). Failures are
    /// not kept: the next turn tries again.
    async fn listed_in_sandbox(
        &self,
        entry: &Entry,
        site: Option<&McpSite>,
    ) -> Option<Result<Vec<McpTool>, String>> {
        let Some(site) = site else {
            // A server that would not be started says so anywhere.
            return stdio::start_of(&entry.server.transport).err().map(Err);
        };
        let listed = match self.site_peer(entry, site).await {
            Ok((_, Some(tools))) => return Some(Ok(tools)),
            Ok((peer, None)) => self.list(peer, &Refusals::default()).await,
            Err(err) => Err(err),
        };
        match &listed {
            Ok(tools) => entry.sites.keep_tools(&site.session, tools),
            Err(_) => {
                entry.sites.forget(&site.session);
            }
        }
        Some(listed)
    }

    async fn status_of(&self, entry: &Entry, site: Option<&McpSite>) -> McpServerStatus {
        let server = &entry.server;
        let listed = if entry.in_sandbox() {
            self.listed_in_sandbox(entry, site).await
        } else {
            Some(self.listed_over_http(entry).await)
        };
        let (transport, url) = match &server.transport {
            McpTransport::Http { url, .. } => ("http", Some(shown_url(url))),
            McpTransport::Stdio { .. } => ("stdio", None),
        };
        let not_started = listed.is_none();
        let (tools, error) = match listed {
            Some(Ok(tools)) => (tools, None),
            Some(Err(error)) => (Vec::new(), Some(entry.secrets.redact(error))),
            None => (Vec::new(), None),
        };
        McpServerStatus {
            name: server.name.as_str().to_owned(),
            transport,
            url,
            tools,
            error,
            not_started,
        }
    }
}

#[async_trait::async_trait]
impl McpServers for McpHub {
    async fn status(&self, site: Option<&McpSite>) -> Vec<McpServerStatus> {
        let current = self.current().await;
        futures::future::join_all(current.iter().map(|entry| self.status_of(entry, site))).await
    }

    async fn needs_site(&self) -> bool {
        self.current().await.iter().any(|entry| entry.in_sandbox())
    }

    fn runs_in_sandbox(&self, server: &str) -> bool {
        self.find(server).is_some_and(|entry| entry.in_sandbox())
    }

    async fn call(
        &self,
        server: &str,
        tool: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
        site: Option<&McpSite>,
    ) -> Result<McpResult, String> {
        let entry = self
            .find(server)
            .ok_or_else(|| format!("no MCP server is called {server:?}"))?;
        match self.call_on(&entry, tool, arguments, site).await {
            Ok(mut result) => {
                let redact = |text: &mut String| *text = entry.secrets.redact(std::mem::take(text));
                for content in &mut result.content {
                    match content {
                        McpContent::Text(text) => redact(text),
                        McpContent::Resource { uri, text } => {
                            redact(uri);
                            text.iter_mut().for_each(redact);
                        }
                        McpContent::Image { .. } => {}
                    }
                }
                Ok(result)
            }
            Err(reason) => Err(entry.secrets.redact(reason)),
        }
    }

    async fn configured(&self, name: &McpServerName) -> bool {
        !matches!(self.store.get(name).await, Ok(None))
    }

    async fn start_agent_server(
        &self,
        site: &McpSite,
        name: &McpServerName,
        command: &str,
        args: &[String],
    ) -> Result<Vec<McpTool>, String> {
        self.start_agent(site, name, command, args).await
    }

    async fn call_agent_server(
        &self,
        site: &McpSite,
        server: &AgentServer,
        tool: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
    ) -> Result<McpResult, String> {
        self.call_agent(site, server, tool, arguments).await
    }

    fn stop_agent_server(&self, site: &McpSite, name: &McpServerName) {
        self.stop_agent(site, name)
    }
}
