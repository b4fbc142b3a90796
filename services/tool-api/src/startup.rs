//! Wiring and serving. [`Application::build`] binds the listener first (port 0 works), so
//! tests start the real server and learn its address before serving.

use std::future::IntoFuture;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use axum::serve::ListenerExt;
use service_kit::{ExpectedToken, TokenDigest};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::browser::BrowserTools;
use crate::config::{Prewarm, Settings};
use crate::desktop::Desktop;
use crate::http::{self, AppState};
use crate::interpreter::Interpreter;
use crate::kernel::Kernel;
use crate::mcp_stdio::StdioServers;
use crate::network_gate::NetworkGate;
use crate::paths::Workspace;
use crate::shell::ShellManager;
use crate::storage_quota::StorageQuota;
use crate::web::WebTools;

pub struct Application {
    listener: TcpListener,
    state: AppState,
}

impl Application {
    /// Checks the settings, binds the listener and builds the shared state.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let token = match (&settings.token_sha256, &settings.token, settings.insecure_no_auth) {
            (Some(hex), _, _) => {
                Some(TokenDigest::parse_hex(hex).context("SANDBOX_TOKEN_SHA256 must be 64 hex digits")?)
            }
            (None, Some(token), _) if token.len() >= 16 => Some(TokenDigest::of(token)),
            (None, Some(_), _) => anyhow::bail!("SANDBOX_TOKEN must be at least 16 characters"),
            (None, None, true) => {
                tracing::warn!("serving WITHOUT authentication (TOOL_API_INSECURE_NO_AUTH)");
                None
            }
            (None, None, false) => anyhow::bail!(
                "neither SANDBOX_TOKEN_SHA256 nor SANDBOX_TOKEN is set; refusing to serve \
                 without authentication (set TOOL_API_INSECURE_NO_AUTH=true for local \
                 development only)"
            ),
        };
        let workspace = Workspace::new(settings.workspace.clone());
        tokio::fs::create_dir_all(workspace.root())
            .await
            .with_context(|| format!("creating workspace {}", workspace.root().display()))?;
        let address = format!("{}:{}", settings.host, settings.port);
        let listener = TcpListener::bind(&address)
            .await
            .with_context(|| format!("binding {address}"))?;
        let home: std::path::PathBuf =
            std::env::var_os("HOME").map_or_else(|| workspace.root().to_path_buf(), Into::into);
        if let Some(seed) = &settings.home_seed {
            // Before the kernel starts, so its first chart finds Matplotlib's font list.
            match crate::home_seed::seed_home(seed, &home) {
                Ok(copied) => tracing::debug!(copied, "home seeded from {}", seed.display()),
                Err(error) => tracing::warn!(%error, "could not seed the home from {}", seed.display()),
            }
        }
        let desktop = if settings.desktop.enabled {
            Some(Desktop::new(
                &settings.desktop,
                &home,
                &workspace.root().join("Downloads"),
            )?)
        } else {
            None
        };
        let browser = desktop.as_ref().map(|desktop| {
            Arc::new(BrowserTools::new(
                desktop.clone(),
                workspace.root().join("Downloads"),
            ))
        });
        let network_gate = NetworkGate::new(settings.hold_until_network);
        let kernel = Kernel::new(
            settings.kernel.clone(),
            workspace.root().to_path_buf(),
            network_gate.clone(),
        );
        let interpreter = Interpreter::new(settings.kernel.clone(), home, network_gate.clone());
        match settings.kernel.prewarm {
            Prewarm::None => {}
            Prewarm::CodeRun => kernel.prewarm(),
            Prewarm::Interpreter => interpreter.default_kernel().prewarm(),
        }
        let shells = Arc::new(ShellManager::new(workspace.clone(), settings.limits.clone())?);
        let stopping = CancellationToken::new();
        if let Some(desktop) = &desktop {
            if desktop.always_on() {
                start_when_open(desktop.clone(), network_gate.clone());
            }
            desktop.stop_when_idle(stopping.clone());
        }
        if settings.limits.storage_quota_bytes.is_some()
            && !workspace.root().starts_with(&settings.storage_root)
        {
            tracing::warn!(
                workspace = %workspace.root().display(),
                storage_root = %settings.storage_root.display(),
                "the workspace is outside the storage root: the quota does not count it"
            );
        }
        let storage = StorageQuota::new(settings.storage_root.clone(), settings.limits.storage_quota_bytes);
        let check_every = settings.limits.storage_check_secs;
        if !(check_every.is_finite() && check_every > 0.0) {
            bail!("TOOL_API_LIMITS__STORAGE_CHECK_SECS must be a number of seconds above 0");
        }
        storage
            .clone()
            .watch(Duration::from_secs_f64(check_every), stopping.clone(), {
                let (shells, kernel) = (shells.clone(), kernel.clone());
                move |note| {
                    let (shells, kernel) = (shells.clone(), kernel.clone());
                    async move {
                        kernel.interrupt(&note);
                        shells.end_running(&note).await;
                    }
                }
            });
        let settings = Arc::new(settings);
        let state = AppState {
            kernel,
            interpreter,
            desktop,
            browser,
            shells,
            storage,
            sandbox_env: Arc::default(),
            mcp_stdio: Arc::new(StdioServers::new(
                workspace.root().to_path_buf(),
                &settings.limits,
            )),
            web: Arc::new(WebTools::new(&settings)?),
            workspace,
            network_gate,
            token: ExpectedToken::new(
                token,
                "missing or wrong bearer token (Authorization: Bearer <SANDBOX_TOKEN>)",
            ),
            started: Instant::now(),
            stopping,
            settings,
        };
        Ok(Self { listener, state })
    }

    pub fn address(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// Serves until SIGTERM or Ctrl-C. Then it kills every process group it started (the
    /// kernel's too), ends the long-lived streams (SSE, terminals, MCP stdio relays) and
    /// gives open requests a short grace period.
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        let shells = self.state.shells.clone();
        let mcp_stdio = self.state.mcp_stdio.clone();
        let kernel = self.state.kernel.clone();
        let interpreter = self.state.interpreter.clone();
        let desktop = self.state.desktop.clone();
        let stopping = self.state.stopping.clone();
        let router = http::router(self.state);
        // Small writes (a stream's events) go out at once, not after the peer's delayed ACK.
        let listener = self.listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        let serve = axum::serve(listener, router).with_graceful_shutdown({
            let stopping = stopping.clone();
            async move {
                service_kit::shutdown_signal().await;
                shells.shutdown().await;
                mcp_stdio.shutdown();
                kernel.shutdown();
                interpreter.shutdown();
                if let Some(desktop) = desktop {
                    desktop.stop().await;
                }
                stopping.cancel();
            }
        });
        let serve = serve.into_future();
        tokio::pin!(serve);
        tokio::select! {
            result = &mut serve => result?,
            _ = async { stopping.cancelled().await; tokio::time::sleep(SHUTDOWN_GRACE).await } => {
                tracing::warn!("open requests did not finish within the grace period");
            }
        }
        Ok(())
    }
}

/// Starts a desktop that is always on once the sandbox's network rules are in place: it
/// runs the person's own files (the browser's profile, the session's autostart).
fn start_when_open(desktop: Arc<Desktop>, network_gate: Arc<NetworkGate>) {
    tokio::spawn(async move {
        network_gate.opened().await;
        if let Err(error) = desktop.start().await {
            tracing::error!(%error, "the desktop, which is always on, did not start");
        }
    });
}

/// How long open requests may run on after a shutdown signal.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);
