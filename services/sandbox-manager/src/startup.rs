//! Wiring and serving. [`Application::build`] checks the settings, opens the records, binds
//! the listener (port 0 works, so tests start the real server) and starts the background
//! work; the engine may still be down then: the manager serves and catches up when it
//! answers.

use std::future::IntoFuture;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use service_kit::{ExpectedToken, TokenDigest};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::config::{DriverKind, Settings};
use crate::driver::docker::DockerDriver;
use crate::driver::kubernetes::KubernetesDriver;
use crate::driver::SandboxDriver;
use crate::http::{self, AppState};
use crate::manager::Manager;

pub struct Application {
    listener: TcpListener,
    state: AppState,
}

impl Application {
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let token = match (&settings.token, settings.insecure_no_auth) {
            (Some(token), _) if token.len() >= 16 => Some(TokenDigest::of(token)),
            (Some(_), _) => anyhow::bail!("SANDBOX_MANAGER_TOKEN must be at least 16 characters"),
            (None, true) => {
                tracing::warn!("serving WITHOUT authentication (SANDBOX_MANAGER_INSECURE_NO_AUTH)");
                None
            }
            (None, false) => anyhow::bail!(
                "SANDBOX_MANAGER_TOKEN is not set; refusing to serve without authentication \
                 (set SANDBOX_MANAGER_INSECURE_NO_AUTH=true for local development only)"
            ),
        };
        let ns = &settings.namespace;
        if ns.is_empty()
            || ns.len() > 32
            || !ns
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            anyhow::bail!("SANDBOX_MANAGER_NAMESPACE must be 1-32 characters of a-z, 0-9 and '-'");
        }
        let driver: Arc<dyn SandboxDriver> = match settings.driver {
            DriverKind::Docker => Arc::new(DockerDriver::new(
                settings.sandbox.clone(),
                settings.namespace.clone(),
            )?),
            DriverKind::Kubernetes => Arc::new(
                KubernetesDriver::connect(
                    settings.sandbox.clone(),
                    settings.kubernetes.clone(),
                    settings.namespace.clone(),
                )
                .await?,
            ),
        };
        let address = format!("{}:{}", settings.host, settings.port);
        let listener = TcpListener::bind(&address)
            .await
            .with_context(|| format!("binding {address}"))?;
        let manager = Manager::new(Arc::new(settings), driver).await?;
        let stopping = CancellationToken::new();
        manager.spawn_background(&stopping);
        Ok(Self {
            listener,
            state: AppState {
                manager,
                token: ExpectedToken::new(
                    token,
                    "missing or wrong service token (Authorization: Bearer <SANDBOX_MANAGER_TOKEN>)",
                ),
                stopping,
            },
        })
    }

    pub fn address(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// Serves until SIGTERM or Ctrl-C, then removes the warm pool's sandboxes. Session
    /// sandboxes keep running: a restarted manager takes them over from its records.
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        let manager = self.state.manager.clone();
        let stopping = self.state.stopping.clone();
        let serve = axum::serve(self.listener, http::router(self.state))
            .with_graceful_shutdown({
                let stopping = stopping.clone();
                async move {
                    service_kit::shutdown_signal().await;
                    stopping.cancel();
                }
            })
            .into_future();
        tokio::pin!(serve);
        tokio::select! {
            result = &mut serve => result?,
            () = async { stopping.cancelled().await; tokio::time::sleep(SHUTDOWN_GRACE).await } => {
                tracing::warn!("open requests did not finish within the grace period");
            }
        }
        manager.drain_pool().await;
        Ok(())
    }
}

/// How long open requests may run on after a shutdown signal.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);
