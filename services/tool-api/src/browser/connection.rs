//! The DevTools connection to the desktop's Chromium: connect (with a short wait while it
//! starts), keep the active tab, collect that tab's console, notice when the browser died.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::browser::{SetDownloadBehaviorBehavior, SetDownloadBehaviorParams};
use chromiumoxide::cdp::browser_protocol::target::TargetId;
use chromiumoxide::cdp::js_protocol::runtime::{EventConsoleApiCalled, EventExceptionThrown};
use chromiumoxide::{Browser, Page};
use futures::StreamExt;
use tokio::task::JoinHandle;
use tool_api_contract::browser::ConsoleMessage;

use crate::clock::now_ms;

/// How long attaching to an existing tab may take after connecting.
const ATTACH_PATIENCE: Duration = Duration::from_secs(3);
/// How many console messages are kept for the active tab.
const CONSOLE_CAPACITY: usize = 500;

pub type Console = Arc<Mutex<VecDeque<ConsoleMessage>>>;

/// The browser's DevTools WebSocket address, asked with this service's HTTP client:
/// given an `http://` address, chromiumoxide would build an HTTP client of its own, whose
/// TLS set-up needs a process-wide provider this service has no use for.
async fn debugger_url(port: u16) -> anyhow::Result<String> {
    #[derive(serde::Deserialize)]
    struct Version {
        #[serde(rename = "webSocketDebuggerUrl")]
        url: String,
    }
    let version: Version = reqwest::get(format!("http://127.0.0.1:{port}/json/version"))
        .await?
        .error_for_status()?
        .json()
        .await?;
    Ok(version.url)
}

pub struct Connection {
    /// The desktop's browser generation this connection was made to.
    generation: u32,
    pub browser: Browser,
    pub active: Page,
    handler: JoinHandle<()>,
    console_task: Option<JoinHandle<()>>,
}

impl Connection {
    /// Connects to DevTools on `port`, retrying until `patience` runs out (the browser may
    /// be starting), and makes downloads land in `downloads`.
    /// `tab` picks an existing tab to make active; without it the agent gets a new tab.
    pub async fn open(
        port: u16,
        generation: u32,
        patience: Duration,
        downloads: &std::path::Path,
        tab: Option<&TargetId>,
    ) -> anyhow::Result<Self> {
        let deadline = Instant::now() + patience;
        let (browser, mut handler) = loop {
            let connected = match debugger_url(port).await {
                Ok(url) => Browser::connect(url).await.map_err(anyhow::Error::from),
                Err(err) => Err(err),
            };
            match connected {
                Ok(connected) => break connected,
                Err(err) if Instant::now() >= deadline => return Err(err),
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        };
        let handler = tokio::spawn(async move {
            // The stream ends when the WebSocket closes, i.e. when the browser is gone.
            while let Some(event) = handler.next().await {
                if let Err(err) = event {
                    tracing::debug!(error = %err, "DevTools connection");
                }
            }
        });
        let behaviour = SetDownloadBehaviorParams::builder()
            .behavior(SetDownloadBehaviorBehavior::Allow)
            .download_path(downloads.to_string_lossy())
            .build()
            .map_err(anyhow::Error::msg)?;
        browser.execute(behaviour).await?;
        let active = match tab {
            Some(tab) => attached(&browser, tab).await?,
            None => browser.new_page("about:blank").await?,
        };
        Ok(Self {
            generation,
            browser,
            active,
            handler,
            console_task: None,
        })
    }

    /// False once the connection broke, or its browser was replaced (a killed browser's
    /// socket is not always noticed as closed).
    pub fn is_alive(&self, generation: u32) -> bool {
        !self.handler.is_finished() && self.generation == generation
    }

    /// Makes `page` the active tab and collects its console into `console`.
    pub async fn activate(&mut self, page: Page, console: &Console) -> chromiumoxide::Result<()> {
        page.bring_to_front().await?;
        if let Some(task) = self.console_task.take() {
            task.abort();
        }
        console.lock().unwrap_or_else(|p| p.into_inner()).clear();
        let mut calls = page.event_listener::<EventConsoleApiCalled>().await?;
        let mut exceptions = page.event_listener::<EventExceptionThrown>().await?;
        let console = console.clone();
        self.console_task = Some(tokio::spawn(async move {
            loop {
                let message = tokio::select! {
                    Some(call) = calls.next() => ConsoleMessage {
                        level: format!("{:?}", call.r#type).to_lowercase(),
                        text: call.args.iter().map(describe).collect::<Vec<_>>().join(" "),
                        timestamp_ms: now_ms(),
                    },
                    Some(thrown) = exceptions.next() => ConsoleMessage {
                        level: "exception".into(),
                        text: thrown
                            .exception_details
                            .exception
                            .as_ref()
                            .and_then(|e| e.description.clone())
                            .unwrap_or_else(|| thrown.exception_details.text.clone()),
                        timestamp_ms: now_ms(),
                    },
                    else => return,
                };
                let mut log = console.lock().unwrap_or_else(|p| p.into_inner());
                if log.len() == CONSOLE_CAPACITY {
                    log.pop_front();
                }
                log.push_back(message);
            }
        }));
        self.active = page;
        Ok(())
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.handler.abort();
        if let Some(task) = self.console_task.take() {
            task.abort();
        }
    }
}

/// The page of tab `tab`, once this connection has attached to it (tabs that exist when a
/// connection opens are attached in the background, a moment later).
async fn attached(browser: &Browser, tab: &TargetId) -> anyhow::Result<Page> {
    let deadline = Instant::now() + ATTACH_PATIENCE;
    loop {
        if let Some(page) = browser.pages().await?.into_iter().find(|p| p.target_id() == tab) {
            return Ok(page);
        }
        anyhow::ensure!(Instant::now() < deadline, "tab {tab:?} was not attached");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A console argument as the DevTools console would print it.
fn describe(arg: &chromiumoxide::cdp::js_protocol::runtime::RemoteObject) -> String {
    match &arg.value {
        Some(serde_json::Value::String(text)) => text.clone(),
        Some(value) => value.to_string(),
        None => arg
            .description
            .clone()
            .unwrap_or_else(|| format!("{:?}", arg.r#type).to_lowercase()),
    }
}
