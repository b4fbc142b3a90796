//! Wiring and serving. [`Application::build`] checks the settings (refusing unsafe ones
//! in production), opens the stores, builds the use cases and binds the listener (port 0
//! works, so tests start the real server and speak HTTP to it).
//!
//! # Layout
//!
//! - `mod.rs`: the application built in order, its state handed to the HTTP router, and
//!   served until stopped.
//! - `accounts.rs`: the token codec and sign-in mode checked; auth, invites, API keys.
//! - `agent.rs`: sandboxes, models, sessions and files, web search, MCP, memory, the tool
//!   box, and the agent over them.
//! - `jobs.rs`: jobs and automations, started and resumed.

mod accounts;
mod agent;
mod jobs;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::application::agent::AgentService;
use crate::application::api_keys::ApiKeys;
use crate::application::e2b::E2bService;
use crate::application::events::EventService;
use crate::application::holds::{HoldCaps, Holds};
use crate::application::live::{Connectors, LiveService};
use crate::application::tickets::TicketBook;
use crate::config::Settings;
use crate::infrastructure::sandbox_environment::ToolApiEnvironment;
use crate::infrastructure::stores::StoragePorts;
use crate::infrastructure::terminal::ToolApiTerminals;
use crate::infrastructure::vnc::VncConnector;
use crate::interfaces::http::{self, AppState, HttpOptions, Stores};
use accounts::{e2b_token_secret, Accounts, SignIn};
use agent::AgentParts;

pub struct Application {
    listener: TcpListener,
    router: axum::Router,
    stopping: CancellationToken,
    /// Their last uses are written when serving ends.
    api_keys: Arc<ApiKeys>,
    /// Its runs end when serving ends.
    agent: Arc<AgentService>,
}

impl Application {
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let sign_in = SignIn::check(&settings)?;
        let stores = StoragePorts::open(&settings).await?;
        let Accounts {
            auth,
            invites,
            api_keys,
        } = Accounts::build(&settings, &stores, sign_in).await?;
        let events = Arc::new(EventService::new(stores.log.clone(), stores.bus.clone()));
        let parts = AgentParts::build(&settings, &stores, &events).await?;
        let agent = parts.agent.clone();
        let sessions = parts.sessions.clone();
        let holds = Arc::new(Holds::new(HoldCaps {
            streams: settings.http.max_streams_per_person,
            watches: settings.http.max_watches_per_person,
            relays: settings.http.max_relays_per_person,
        }));
        let live = Arc::new(LiveService::new(
            sessions.clone(),
            TicketBook::new(
                sessions.clone(),
                stores.sessions.clone(),
                stores.kv.clone(),
                Duration::from_secs(settings.http.vnc_ticket_secs.max(1)),
            ),
            parts.sandboxes.clone(),
            Connectors {
                desktop: Arc::new(VncConnector),
                terminal: Arc::new(ToolApiTerminals),
            },
            agent.clone(),
            holds.clone(),
        ));
        let interrupted = agent
            .settle_orphans()
            .await
            .context("settling the runs a stopped backend left")?;
        if interrupted > 0 {
            tracing::warn!(
                interrupted,
                "runs interrupted by a stopped backend were marked failed"
            );
        }
        let stopping = CancellationToken::new();
        agent.start(stopping.clone());
        let (jobs, automations) = jobs::start(&settings, &stores, &parts, &events, &stopping).await?;
        let e2b = Arc::new(E2bService::new(
            stores.e2b_sandboxes.clone(),
            stores.users.clone(),
            parts.rented.clone(),
            Arc::new(ToolApiEnvironment::default()),
            &e2b_token_secret(&settings.auth)?,
        ));
        e2b.keep_ending_overdue(E2B_SWEEP, stopping.clone());
        // Proxies named by host are trusted once their names resolve.
        settings.http.trusted_proxies.keep_resolving();
        let state = AppState {
            auth: Arc::new(auth),
            invites,
            api_keys: api_keys.clone(),
            sessions,
            agent: agent.clone(),
            events,
            files: parts.files.clone(),
            jobs,
            automations,
            e2b,
            relay_http: crate::interfaces::http::e2b_relay_client()
                .context("building the E2B data plane's HTTP client")?,
            live,
            holds,
            stores: Arc::new(Stores {
                database: stores.users.clone(),
                database_name: stores.database_name,
                cache: stores.kv.clone(),
                cache_name: stores.cache_name,
                disk: stores.disk.clone(),
            }),
            mcp: parts.mcp.clone(),
            mcp_admin: parts.mcp_admin.clone(),
            memory: parts.memory.clone(),
            toolbox: parts.toolbox.clone(),
            stopping: stopping.clone(),
            sse_heartbeat_secs: settings.http.sse_heartbeat_secs.max(1),
            trusted_proxies: settings.http.trusted_proxies.clone(),
            allowed_origins: settings.http.cors_origins.clone().into(),
            secure_cookies: settings.http.secure_cookies,
        };
        let router = http::router(
            state,
            &HttpOptions {
                cors_origins: settings.http.cors_origins.clone(),
                body_limit_bytes: settings.http.body_limit_bytes,
                static_dir: settings.http.static_dir.clone(),
            },
        );
        let address = format!("{}:{}", settings.host, settings.port);
        let listener = TcpListener::bind(&address)
            .await
            .with_context(|| format!("binding {address}"))?;
        Ok(Self {
            listener,
            router,
            stopping,
            api_keys,
            agent,
        })
    }

    pub fn address(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// Serves until SIGTERM or Ctrl-C.
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        self.run_until(service_kit::shutdown_signal()).await
    }

    /// Serves until `stop` completes; then open event streams end, requests in flight
    /// finish, the agent's runs end (their sessions marked interrupted), API keys' uses
    /// are written, and the stores are closed.
    pub async fn run_until(
        self,
        stop: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let stopping = self.stopping.clone();
        // Small writes (an event, a relayed frame) go out at once, not after the peer's
        // delayed ACK.
        let listener = self.listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(
            listener,
            self.router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            stop.await;
            tracing::info!("shutting down: ending event streams, finishing requests");
            stopping.cancel();
        })
        .await
        .context("serving HTTP")?;
        self.agent.shut_down().await;
        self.api_keys.write_usage().await;
        Ok(())
    }
}

/// How often rented sandboxes whose time is up are looked for: one stops answering about
/// half a second after its end at most (E2B's own SDK tests look one second after). Each
/// look is one query of the store by end time, per replica.
const E2B_SWEEP: Duration = Duration::from_millis(500);
