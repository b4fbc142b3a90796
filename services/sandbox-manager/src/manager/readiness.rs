//! Whether a sandbox answers: its tool-api's `/health` says `ready` only when the desktop,
//! VNC and the browser answer too.

use std::time::Duration;

use sandbox_manager_contract::ErrorCode;
use tool_api_client::contract::info::Readiness;
use tool_api_client::{ClientError, ToolApiClient};

use super::Manager;
use crate::access::{Endpoints, Secrets};
use crate::error::{ManagerError, ManagerResult};

/// Between polls while a sandbox starts.
const POLL: Duration = Duration::from_millis(25);

impl Manager {
    fn tool_api(&self, endpoints: &Endpoints, secrets: &Secrets) -> ToolApiClient {
        ToolApiClient::with_http(self.http.clone(), endpoints.tool_api_url(), secrets.token.clone())
    }

    /// One health check, with the memory the sandbox said it uses.
    pub(super) async fn check(&self, endpoints: &Endpoints, secrets: &Secrets) -> (bool, Option<u64>) {
        check(&self.tool_api(endpoints, secrets)).await
    }

    /// Whether its tool-api answers at all: enough to hand out a pool sandbox, which was
    /// ready when it was pooled. Each desktop probe behind `ready` has half a second, which
    /// a loaded machine can miss; that must not cost a live sandbox (the monitor, which
    /// asks for `ready` several times in a row, finds one that is really broken).
    pub(super) async fn answers(&self, endpoints: &Endpoints, secrets: &Secrets) -> bool {
        self.tool_api(endpoints, secrets).health().await.is_ok()
    }

    /// Tells a sandbox whose driver has loaded its network rules that it may start
    /// anything, then polls until it is ready or the configured time is up; hands the
    /// endpoints back when it is. Nothing of the sandbox's user runs before the first
    /// step succeeds (tool-api's network gate).
    pub(super) async fn wait_ready(
        &self,
        id: &str,
        endpoints: Endpoints,
        secrets: &Secrets,
    ) -> ManagerResult<Endpoints> {
        let timeout = Duration::from_secs(self.settings.sandbox.ready_timeout_secs);
        let deadline = tokio::time::Instant::now() + timeout;
        let tool_api = self.tool_api(&endpoints, secrets);
        let mut released = false;
        loop {
            released = released || opened(&tool_api).await;
            if released && check(&tool_api).await.0 {
                return Ok(endpoints);
            }
            if tokio::time::Instant::now() >= deadline {
                let logs = self.driver.logs(id, 20).await.unwrap_or_default();
                tracing::warn!(sandbox = id, %logs, "sandbox did not become ready");
                return Err(ManagerError::new(
                    ErrorCode::ReadyTimeout,
                    format!(
                        "the sandbox did not become ready within {} s and was removed; its last \
                         output is in the manager's log",
                        timeout.as_secs()
                    ),
                ));
            }
            tokio::time::sleep(POLL).await;
        }
    }
}

/// One health check through `tool_api`: whether it is ready, and the memory it said it
/// uses.
async fn check(tool_api: &ToolApiClient) -> (bool, Option<u64>) {
    match tool_api.health().await {
        Ok(health) => (health.status == Readiness::Ready, health.memory_used_bytes),
        Err(_) => (false, None),
    }
}

/// Opens the sandbox's network gate; false while its tool-api does not answer yet. An
/// image older than the gate answers `404`: it has none to open.
async fn opened(tool_api: &ToolApiClient) -> bool {
    match tool_api.network_ready().await {
        Ok(()) => true,
        Err(ClientError::Api { status: 404, .. }) => true,
        Err(_) => false,
    }
}
