//! MCP stdio servers, run inside a session's sandbox: tool-api starts the command and
//! relays its stdin and stdout over a WebSocket (`GET /v1/mcp/stdio`), which becomes an
//! `rmcp` transport here — one JSON-RPC message per frame. Lines the server writes to
//! stdout that are not JSON-RPC (some servers log there) are skipped.

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use rmcp::service::{RoleClient, RunningService, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::ServiceExt;
use tool_api_client::contract::mcp::StdioStart;
use tool_api_client::{ClientError, ToolApiClient};

use super::plain;
use crate::domain::mcp::McpSite;

/// Starts the server in the site's sandbox and opens an MCP session with it; the error
/// says why it could not (including how the process ended, when it did).
pub async fn connect(
    http: &reqwest::Client,
    site: &McpSite,
    start: &StdioStart,
    within: Duration,
) -> Result<RunningService<RoleClient, ()>, String> {
    let tool_api = ToolApiClient::with_http(
        http.clone(),
        &site.sandbox.tool_api_url,
        &site.sandbox.tool_api_token,
    );
    let relay = match tokio::time::timeout(within, tool_api.mcp_stdio(start)).await {
        Ok(Ok(relay)) => relay,
        Ok(Err(ClientError::StdioStart(message))) => return Err(format!("could not start it: {message}")),
        Ok(Err(err)) => return Err(format!("could not start it in the sandbox: {err}")),
        Err(_) => {
            return Err(format!(
                "the sandbox did not start it within {} s",
                within.as_secs()
            ))
        }
    };
    let (lines_out, lines_in) = relay.split();
    let ended = lines_in.close_reason();
    let sink = Box::pin(
        lines_out.with(|message: TxJsonRpcMessage<RoleClient>| async move {
            serde_json::to_string(&message).map_err(|err| ClientError::Decode {
                status: 0,
                message: err.to_string(),
            })
        }),
    );
    let stream = Box::pin(lines_in.filter_map(|line| async move {
        line.ok()
            .and_then(|text| serde_json::from_str::<RxJsonRpcMessage<RoleClient>>(&text).ok())
    }));
    match tokio::time::timeout(within, ().serve((sink, stream))).await {
        Ok(Ok(client)) => Ok(client),
        Ok(Err(err)) => Err(match ended.get() {
            Some(close) => format!("it {close}"),
            None => format!("could not connect: {}", plain(err)),
        }),
        Err(_) => Err(format!("did not answer within {} s", within.as_secs())),
    }
}
