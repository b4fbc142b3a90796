//! Calling a tool: through an HTTP server's connection or a session's stdio server,
//! within the call time-out; a connection that failed is dropped, to be opened again.

use rmcp::model::CallToolRequestParams;
use rmcp::service::{Peer, RoleClient};
use std::time::Duration;

use super::http_client::Refusals;
use super::wire::content_of;
use super::{Entry, McpHub};
use crate::domain::mcp::{McpContent, McpResult, McpSite};

/// Why a call gave no result, and whether its connection is to be dropped.
pub(super) struct CallFailed {
    pub reason: String,
    pub broken: bool,
}

impl McpHub {
    /// Calls `tool` of the server of `entry`; what it gives is not yet redacted.
    pub(super) async fn call_on(
        &self,
        entry: &Entry,
        tool: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
        site: Option<&McpSite>,
    ) -> Result<McpResult, String> {
        let (peer, refusals) = match (entry.in_sandbox(), site) {
            (true, Some(site)) => (self.site_peer(entry, site).await?.0, Refusals::default()),
            (true, None) => {
                return Err("it runs in the session's sandbox, which this call has none of".into())
            }
            // The lock is held only to connect: calls to one server run side by side.
            (false, _) => {
                let mut slot = entry.slot.lock().await;
                (self.peer(&entry.server, &mut slot).await?, slot.refusals.clone())
            }
        };
        let failed = match self.invoke(peer, tool, arguments, &refusals).await {
            Ok(result) => return Ok(result),
            Err(failed) => failed,
        };
        if failed.broken {
            match site {
                Some(site) if entry.in_sandbox() => {
                    entry.sites.forget(&site.session);
                }
                _ => entry.slot.lock().await.client = None,
            }
        }
        Err(failed.reason)
    }

    /// Calls `tool` through `peer`, within the call time-out.
    pub(super) async fn invoke(
        &self,
        peer: Peer<RoleClient>,
        tool: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
        refusals: &Refusals,
    ) -> Result<McpResult, CallFailed> {
        let request = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        let within = Duration::from_secs(self.settings.call_timeout_secs);
        let result = match tokio::time::timeout(within, peer.call_tool(request)).await {
            Ok(Ok(result)) => result,
            Ok(Err(err)) => {
                return Err(CallFailed {
                    reason: format!("the call failed: {}", refusals.explain(err)),
                    broken: true,
                })
            }
            Err(_) => {
                return Err(CallFailed {
                    reason: format!("the tool did not answer within {} s", within.as_secs()),
                    broken: false,
                })
            }
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
