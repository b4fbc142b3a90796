//! The MCP servers adapter: one client connection per Streamable HTTP server, opened
//! when first needed (official Rust SDK, `rmcp`) and opened again after it failed. Tool
//! lists are cached for a while, failures too, so a broken server costs a run its
//! tools, not its time.
//!
//! The servers are the enabled ones of the store, read again whenever the tools are
//! listed (at the start of every turn, one small query), so an admin's change reaches
//! the next turn on every replica. A server that was changed, disabled or deleted loses
//! its connection and cached list then.
//!
//! stdio servers are configured in the same store but are meant to run inside the
//! session's sandbox, never on the backend's host; this adapter reports them as not
//! reachable yet instead of starting them here.

pub mod config;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::{HeaderName, HeaderValue};
use rmcp::model::{CallToolRequestParams, ContentBlock, ResourceContents};
use rmcp::service::{Peer, RoleClient, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::ServiceExt;
use tokio::sync::Mutex;

use crate::config::McpConfig;
use crate::domain::mcp::{
    McpContent, McpResult, McpServer, McpServerStatus, McpServers, McpTool, McpTransport,
};
use crate::domain::ports::McpServerRepository;

/// What a stdio server's status says.
const STDIO_NOT_YET: &str =
    "stdio servers run inside the session's sandbox, which this version does not do yet; \
     give the server's Streamable HTTP url instead";

/// One server's connection and its last tool list.
#[derive(Default)]
struct Slot {
    client: Option<RunningService<RoleClient, ()>>,
    listed: Option<(Instant, Result<Vec<McpTool>, String>)>,
}

/// An enabled server as last read, with its slot; dropped (closing its connection) when
/// the server changes or goes.
struct Entry {
    server: McpServer,
    slot: Mutex<Slot>,
}

pub struct McpHub {
    store: Arc<dyn McpServerRepository>,
    /// The enabled servers by name, as the last read of the store found them.
    entries: std::sync::Mutex<HashMap<String, Arc<Entry>>>,
    settings: McpConfig,
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
                _ => Arc::new(Entry {
                    server,
                    slot: Mutex::default(),
                }),
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
            return Err(STDIO_NOT_YET.into());
        };
        let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str());
        config.custom_headers = header_map(headers)?;
        let transport = StreamableHttpClientTransport::from_config(config);
        let within = Duration::from_secs(self.settings.connect_timeout_secs);
        let client = match tokio::time::timeout(within, ().serve(transport)).await {
            Ok(Ok(client)) => client,
            Ok(Err(err)) => return Err(format!("could not connect: {}", plain(err))),
            Err(_) => return Err(format!("did not answer within {} s", within.as_secs())),
        };
        let peer = client.peer().clone();
        slot.client = Some(client);
        Ok(peer)
    }

    async fn list(&self, server: &McpServer, slot: &mut Slot) -> Result<Vec<McpTool>, String> {
        let peer = self.peer(server, slot).await?;
        let within = Duration::from_secs(self.settings.connect_timeout_secs);
        let tools = match tokio::time::timeout(within, peer.list_all_tools()).await {
            Ok(Ok(tools)) => tools,
            Ok(Err(err)) => return Err(format!("listing its tools failed: {}", plain(err))),
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

    async fn status_of(&self, entry: &Entry) -> McpServerStatus {
        let server = &entry.server;
        let mut slot = entry.slot.lock().await;
        let fresh = Duration::from_secs(self.settings.cache_secs);
        let cached = slot.listed.as_ref().filter(|(at, _)| at.elapsed() < fresh);
        let listed = match cached {
            Some((_, listed)) => listed.clone(),
            None => {
                let listed = self.list(server, &mut slot).await;
                if listed.is_err() {
                    slot.client = None;
                }
                slot.listed = Some((Instant::now(), listed.clone()));
                listed
            }
        };
        let (transport, url) = match &server.transport {
            McpTransport::Http { url, .. } => ("http", Some(shown_url(url))),
            McpTransport::Stdio { .. } => ("stdio", None),
        };
        let (tools, error) = match listed {
            Ok(tools) => (tools, None),
            Err(error) => (Vec::new(), Some(error)),
        };
        McpServerStatus {
            name: server.name.as_str().to_owned(),
            transport,
            url,
            tools,
            error,
        }
    }
}

#[async_trait::async_trait]
impl McpServers for McpHub {
    async fn status(&self) -> Vec<McpServerStatus> {
        let current = self.current().await;
        futures::future::join_all(current.iter().map(|entry| self.status_of(entry))).await
    }

    async fn call(
        &self,
        server: &str,
        tool: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
    ) -> Result<McpResult, String> {
        let entry = self
            .find(server)
            .ok_or_else(|| format!("no MCP server is called {server:?}"))?;
        // The lock is held only to connect: calls to one server run side by side.
        let peer = {
            let mut slot = entry.slot.lock().await;
            self.peer(&entry.server, &mut slot).await?
        };
        let request = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        let within = Duration::from_secs(self.settings.call_timeout_secs);
        let result = match tokio::time::timeout(within, peer.call_tool(request)).await {
            Ok(Ok(result)) => result,
            Ok(Err(err)) => {
                entry.slot.lock().await.client = None;
                return Err(format!("the call failed: {}", plain(err)));
            }
            Err(_) => return Err(format!("the tool did not answer within {} s", within.as_secs())),
        };
        let mut content: Vec<McpContent> = result.content.into_iter().filter_map(content_of).collect();
        if content.is_empty() {
            if let Some(structured) = result.structured_content {
                content.push(McpContent::Text(structured.to_string()));
            }
        }
        Ok(McpResult {
            content,
            is_error: result.is_error.unwrap_or(false),
        })
    }
}

fn content_of(block: ContentBlock) -> Option<McpContent> {
    Some(match block {
        ContentBlock::Text(text) => McpContent::Text(text.text),
        ContentBlock::Image(image) => McpContent::Image {
            mime_type: image.mime_type,
            data: image.data,
        },
        ContentBlock::Resource(embedded) => match embedded.resource {
            ResourceContents::TextResourceContents { uri, text, .. } => McpContent::Resource {
                uri,
                text: Some(text),
            },
            ResourceContents::BlobResourceContents { uri, .. } => McpContent::Resource { uri, text: None },
            _ => return None,
        },
        ContentBlock::ResourceLink(link) => McpContent::Resource {
            uri: link.uri,
            text: None,
        },
        // Audio (and kinds newer than this client) are neither shown nor told yet.
        _ => return None,
    })
}

fn header_map(
    headers: &BTreeMap<String, String>,
) -> Result<std::collections::HashMap<HeaderName, HeaderValue>, String> {
    headers
        .iter()
        .map(|(name, value)| {
            let name = HeaderName::try_from(name.as_str())
                .map_err(|_| format!("header {name:?} is not a valid name"))?;
            let value = HeaderValue::try_from(value.as_str())
                .map_err(|_| format!("header {name} has an invalid value"))?;
            Ok((name, value))
        })
        .collect()
}

/// An SDK error as a person can read it: rmcp names its transport's Rust type before
/// what went wrong.
fn plain(err: impl std::fmt::Display) -> String {
    let text = err.to_string();
    const MARK: &str = "] error: ";
    match text.find(MARK) {
        Some(at) if text[..at].contains(" [") => text[at + MARK.len()..].to_owned(),
        _ => text,
    }
}

/// `url` without credentials, query or fragment, which may carry secrets.
fn shown_url(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(mut parsed) => {
            let _ = parsed.set_username("");
            let _ = parsed.set_password(None);
            parsed.set_query(None);
            parsed.set_fragment(None);
            parsed.to_string()
        }
        Err(_) => "(invalid url)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sdk_errors_lose_the_type_names() {
        let sdk = "Send message error Transport [rmcp::transport::worker::WorkerTransport<X<Y>>] error: \
                   Unexpected content type: Some(\"text/html\")";
        assert_eq!(plain(sdk), "Unexpected content type: Some(\"text/html\")");
        assert_eq!(plain("connection reset"), "connection reset");
    }

    #[test]
    fn shown_urls_carry_no_secrets() {
        assert_eq!(
            shown_url("https://user:pw@mcp.example.org/mcp?key=s#x"),
            "https://mcp.example.org/mcp"
        );
    }
}
