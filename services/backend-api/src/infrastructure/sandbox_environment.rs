//! The `SandboxEnvironment` port on tool-api: a rented sandbox's variables are given to
//! its tool-api once it runs (`POST /e2b/envd/init`), which hands them to every program
//! the E2B surfaces start; its use is read from the tool-api's `/v1/info`, twice, a
//! moment apart, for the CPU's share between them.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use chrono::Utc;
use tool_api_client::ToolApiClient;

use crate::domain::agent::SandboxAccess;
use crate::domain::e2b::E2bMetrics;
use crate::domain::ports::SandboxEnvironment;
use crate::domain::{DomainError, DomainResult};

/// How far apart the two readings of the CPU's counter are.
const CPU_WINDOW: Duration = Duration::from_millis(200);

#[derive(Default)]
pub struct ToolApiEnvironment {
    http: reqwest::Client,
}

impl ToolApiEnvironment {
    fn client(&self, sandbox: &SandboxAccess) -> ToolApiClient {
        ToolApiClient::with_http(self.http.clone(), &sandbox.tool_api_url, &sandbox.tool_api_token)
    }
}

fn unavailable(what: &str, err: impl std::fmt::Display) -> DomainError {
    DomainError::Unavailable {
        what: "the sandbox",
        detail: format!("{what}: {err}"),
    }
}

#[async_trait::async_trait]
impl SandboxEnvironment for ToolApiEnvironment {
    async fn set(&self, sandbox: &SandboxAccess, vars: &BTreeMap<String, String>) -> DomainResult<()> {
        self.client(sandbox)
            .e2b_init(vars)
            .await
            .map_err(|err| unavailable("its environment could not be set", err))
    }

    async fn metrics(&self, sandbox: &SandboxAccess) -> DomainResult<E2bMetrics> {
        let client = self.client(sandbox);
        let read = || async {
            let info = client
                .info()
                .await
                .map_err(|err| unavailable("its use could not be read", err))?;
            Ok::<_, DomainError>((Instant::now(), info))
        };
        let (first_at, first) = read().await?;
        tokio::time::sleep(CPU_WINDOW).await;
        let (at, info) = read().await?;
        let cores = info.cpu.cores.max(1);
        let cpu_used_pct = match (first.cpu.usage_usec, info.cpu.usage_usec) {
            (Some(before), Some(after)) => {
                let wall_usec = at.duration_since(first_at).as_micros().max(1) as f64;
                let share = after.saturating_sub(before) as f64 / (wall_usec * f64::from(cores));
                (share * 100.0).clamp(0.0, 100.0)
            }
            _ => 0.0,
        };
        let (disk_used, disk_total) = match &info.storage {
            Some(storage) => (storage.used_bytes, storage.quota_bytes),
            None => (info.disk.used_bytes, info.disk.total_bytes),
        };
        Ok(E2bMetrics {
            at: Utc::now(),
            cpu_count: cores,
            cpu_used_pct,
            mem_used: info.memory.used_bytes,
            mem_total: info.memory.limit_bytes,
            disk_used,
            disk_total,
        })
    }
}
