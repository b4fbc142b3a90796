//! MCP stdio servers, run inside a session's sandbox: tool-api starts the command and
//! relays its stdin and stdout over a WebSocket (`GET /v1/mcp/stdio`), which becomes an
//! `rmcp` transport here — one JSON-RPC message per frame. Lines the server writes to
//! stdout that are not JSON-RPC (some servers log there) are skipped.
//!
//! A server runs as the sandbox's user, who can change what it does (its files, npm's
//! cache, `./node_modules/.bin`), so all it says is that session's: [`Sites`] keeps each
//! session's server with the tools it listed, and nothing of one session's is given to
//! another. It is started with no environment of the deployment's ([`start_of`]).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use rmcp::service::{Peer, RoleClient, RunningService, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::ServiceExt;
use tool_api_client::contract::mcp::StdioStart;
use tool_api_client::{ClientError, CloseReason, ToolApiClient};

use super::wire::plain;
use crate::domain::mcp::{McpSite, McpTool, McpTransport};
use crate::domain::mcp_edit::stdio_env_refusal;
use crate::domain::session::SessionId;

/// A session's server that has been idle this long is stopped.
const IDLE: Duration = Duration::from_secs(600);

/// One session's server of a stdio entry.
struct Site {
    client: RunningService<RoleClient, ()>,
    /// How its process ended, once it has.
    ended: CloseReason,
    /// The sandbox it runs in: a new sandbox for the session needs a new server.
    tool_api_url: String,
    used: Instant,
    /// What it listed, for this session's runs only.
    tools: Option<Vec<McpTool>>,
}

/// The servers one stdio entry runs, by the session (sandbox) each runs for.
#[derive(Default)]
pub struct Sites(Mutex<HashMap<SessionId, Site>>);

impl Sites {
    /// The session's server running in `site`'s sandbox, with the tools it listed.
    pub fn running(&self, site: &McpSite) -> Option<(Peer<RoleClient>, Option<Vec<McpTool>>)> {
        let mut sites = self.lock();
        sweep(&mut sites);
        let running = sites
            .get_mut(&site.session)
            .filter(|running| running.tool_api_url == site.sandbox.tool_api_url)?;
        running.used = Instant::now();
        Some((running.client.peer().clone(), running.tools.clone()))
    }

    /// Keeps `client` as the session's server (stopping one it replaces).
    pub fn insert(&self, site: &McpSite, (client, ended): Connected) -> Peer<RoleClient> {
        let peer = client.peer().clone();
        let running = Site {
            client,
            ended,
            tool_api_url: site.sandbox.tool_api_url.clone(),
            used: Instant::now(),
            tools: None,
        };
        self.lock().insert(site.session.clone(), running);
        peer
    }

    /// Keeps what the session's server listed.
    pub fn keep_tools(&self, session: &SessionId, tools: &[McpTool]) {
        if let Some(running) = self.lock().get_mut(session) {
            running.tools = Some(tools.to_vec());
        }
    }

    /// Stops the session's server (it failed); how its process ended, if it has.
    pub fn forget(&self, session: &SessionId) -> Option<String> {
        let gone = self.lock().remove(session)?;
        gone.ended.get().map(|close| format!("it {close}"))
    }

    /// Stops the servers idle too long (or gone); whether none is left.
    pub fn sweep(&self) -> bool {
        let mut sites = self.lock();
        sweep(&mut sites);
        sites.is_empty()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<SessionId, Site>> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

fn sweep(sites: &mut HashMap<SessionId, Site>) {
    sites.retain(|_, running| running.used.elapsed() < IDLE && !running.client.is_closed());
}

/// What to start for a stdio server: its command and arguments, never an environment. A
/// server stored with variables (before stdio servers took none) is not started.
pub fn start_of(transport: &McpTransport) -> Result<StdioStart, String> {
    let McpTransport::Stdio { command, args, env } = transport else {
        return Err("an HTTP server is reached from the backend".into());
    };
    if !env.is_empty() {
        let names: Vec<&str> = env.keys().map(String::as_str).collect();
        return Err(format!("not started: {}", stdio_env_refusal(&names)));
    }
    Ok(StdioStart {
        command: command.clone(),
        args: args.clone(),
        env: BTreeMap::new(),
    })
}

/// An MCP session with a server in a sandbox, and how its process ended, once it has.
pub type Connected = (RunningService<RoleClient, ()>, CloseReason);

/// Starts the server in the site's sandbox and opens an MCP session with it; the error
/// says why it could not (including how the process ended, when it did).
pub async fn connect(
    http: &reqwest::Client,
    site: &McpSite,
    start: &StdioStart,
    within: Duration,
) -> Result<Connected, String> {
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
        Ok(Ok(client)) => Ok((client, ended)),
        Ok(Err(err)) => Err(match ended.get() {
            Some(close) => format!("it {close}"),
            None => format!("could not connect: {}", plain(err)),
        }),
        Err(_) => Err(format!("did not answer within {} s", within.as_secs())),
    }
}
