//! Browser tools: the agent drives the desktop's Chromium over DevTools (chromiumoxide).
//!
//! [`BrowserTools`] keeps one connection and an active tab. Every action is bounded by a
//! timeout; when the browser has died the action fails at once with `browser_unavailable`
//! (the desktop supervisor is already starting a new one) and the next action reconnects.
//! Elements are addressed by the numbers the latest `view` wrote into the page.

mod actions;
mod connection;
mod keys;
mod navigation;
mod tabs;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::target::TargetId;
use chromiumoxide::error::CdpError;
use chromiumoxide::Page;
use tool_api_contract::ErrorCode;

use self::connection::{Connection, Console};
use crate::desktop::{Desktop, InUse, Part};
use crate::error::{ToolError, ToolResult};

/// How long a connect may wait for a starting browser before giving up.
const CONNECT_PATIENCE: Duration = Duration::from_secs(5);
/// Bound on any single action other than navigation.
const ACTION_TIMEOUT: Duration = Duration::from_secs(15);
/// How often a running action checks whether the browser was replaced under it.
const DEATH_POLL: Duration = Duration::from_millis(50);
/// How long a restart may take before it is reported as failed.
const RESTART_PATIENCE: Duration = Duration::from_secs(20);

pub struct BrowserTools {
    desktop: Arc<Desktop>,
    downloads: PathBuf,
    connection: tokio::sync::Mutex<Option<Connection>>,
    console: Console,
}

impl BrowserTools {
    pub fn new(desktop: Arc<Desktop>, downloads: PathBuf) -> Self {
        Self {
            desktop,
            downloads,
            connection: tokio::sync::Mutex::new(None),
            console: Console::default(),
        }
    }

    /// Starts the desktop if it is stopped and waits for the browser; the desktop stays up
    /// while the guard lives.
    pub async fn ready(&self) -> ToolResult<InUse> {
        self.desktop.ready(Part::Browser).await
    }

    /// The active tab, connecting first when there is no live connection.
    async fn page(&self) -> ToolResult<Page> {
        let mut connection = self.connection().await?;
        let live = connection.as_mut().ok_or_else(unavailable)?;
        Ok(live.active.clone())
    }

    /// The live connection (connected now if needed), locked.
    async fn connection(&self) -> ToolResult<tokio::sync::MutexGuard<'_, Option<Connection>>> {
        let mut slot = self.connection.lock().await;
        let generation = self.desktop.browser_generation();
        if slot.as_ref().is_some_and(|c| !c.is_alive(generation)) {
            *slot = None;
        }
        if slot.is_none() {
            *slot = Some(self.open(None).await?);
        }
        Ok(slot)
    }

    /// Replaces the connection with a fresh one active on `tab`, and returns that tab.
    ///
    /// A fresh connection attaches to every tab, including those a person opened over VNC,
    /// so switching to any tab goes through one.
    async fn reconnect(&self, slot: &mut Option<Connection>, tab: Option<&TargetId>) -> ToolResult<Page> {
        *slot = None;
        let fresh = self.open(tab).await?;
        let page = fresh.active.clone();
        *slot = Some(fresh);
        Ok(page)
    }

    /// A new connection, active on `tab` (or on a new tab), collecting its console.
    async fn open(&self, tab: Option<&TargetId>) -> ToolResult<Connection> {
        let port = self.desktop.devtools_port();
        let generation = self.desktop.browser_generation();
        let mut fresh = Connection::open(port, generation, CONNECT_PATIENCE, &self.downloads, tab)
            .await
            .map_err(|err| {
                tracing::warn!(error = %err, "cannot reach the browser");
                unavailable()
            })?;
        let page = fresh.active.clone();
        fresh
            .activate(page, &self.console)
            .await
            .map_err(|e| self.failed(e))?;
        Ok(fresh)
    }

    /// Maps a DevTools error; a broken connection is dropped so the next call reconnects.
    fn failed(&self, err: CdpError) -> ToolError {
        match err {
            CdpError::Timeout => {
                ToolError::new(ErrorCode::UpstreamTimeout, "the browser did not answer in time")
            }
            CdpError::ChromeMessage(message) => ToolError::new(
                ErrorCode::UpstreamError,
                format!("the browser refused: {message}"),
            ),
            CdpError::Chrome(err) => ToolError::invalid(format!("the browser refused: {}", err.message)),
            CdpError::Ws(_) | CdpError::NoResponse | CdpError::ChannelSendError(_) | CdpError::Io(_) => {
                tracing::warn!(error = %err, "lost the browser connection");
                if let Ok(mut slot) = self.connection.try_lock() {
                    *slot = None;
                }
                unavailable()
            }
            other => ToolError::Internal(anyhow::Error::new(other).context("browser action")),
        }
    }

    /// Runs `action` under the action timeout, mapping its errors.
    async fn bounded<T>(
        &self,
        limit: Duration,
        action: impl std::future::Future<Output = chromiumoxide::Result<T>>,
    ) -> ToolResult<T> {
        // A killed browser's socket is not always seen closing, so watch the supervisor
        // too: a new browser generation means this action will never be answered.
        let generation = self.desktop.browser_generation();
        let replaced = async {
            while self.desktop.browser_generation() == generation {
                tokio::time::sleep(DEATH_POLL).await;
            }
        };
        let outcome = tokio::select! {
            outcome = tokio::time::timeout(limit, action) => outcome,
            _ = replaced => return Err(unavailable()),
        };
        match outcome {
            Ok(result) => result.map_err(|err| self.failed(err)),
            Err(_) => Err(ToolError::new(
                ErrorCode::UpstreamTimeout,
                format!(
                    "the browser did not finish within {} s (the page may still be loading); view the page to see its state",
                    limit.as_secs()
                ),
            )),
        }
    }

    /// Kills the browser and waits for the supervisor's new one to answer.
    pub async fn restart(&self) -> ToolResult<()> {
        *self.connection.lock().await = None;
        self.desktop.restart_browser();
        // The old process needs a moment to die, or the first connect still finds it.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let deadline = std::time::Instant::now() + RESTART_PATIENCE;
        loop {
            match self.connection().await {
                Ok(_) => return Ok(()),
                Err(err) if std::time::Instant::now() >= deadline => return Err(err),
                Err(_) => {}
            }
        }
    }
}

fn unavailable() -> ToolError {
    ToolError::new(
        ErrorCode::BrowserUnavailable,
        "the browser is not answering (it is starting, or restarting after a crash); try again in a few seconds",
    )
}
