//! The sandbox desktop: Xvfb, a window manager, x11vnc and Chromium, each supervised and
//! restarted when it exits. x11vnc and DevTools listen on the sandbox's loopback only.
//!
//! The person watches and takes over through VNC, relayed by `GET /v1/desktop/vnc`; the
//! agent drives the browser through DevTools (see `crate::browser`). DevTools is not
//! reachable from outside the sandbox unless `cdp_public_port` asks for a relay.
//!
//! The desktop costs ≈250 MiB while most turns never look at it, so by default it starts on
//! first need — a browser call, a VNC connection, `POST /v1/desktop/start` — and stops
//! again once nothing has used it for `idle_stop_secs`. Whoever needs it holds an
//! [`InUse`] while they do (a watched VNC stream holds one for as long as it is open), so
//! it never stops under someone. The browser's profile lives in the home directory and
//! outlasts a stop: Chromium is asked to exit and writes its storage as it goes; cookies
//! reach the disk within 30 s of being set (its commit interval), well inside the idle
//! time.

mod probes;
mod process;
mod programs;
mod relay;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tool_api_contract::info::{DesktopInfo, DesktopReadiness, DesktopState, ProcessState};
use tool_api_contract::ErrorCode;

use self::process::Supervised;
use self::programs::Programs;
use crate::config::{DesktopSettings, DesktopStart};
use crate::error::{ToolError, ToolResult};

/// Between readiness checks while a caller waits for the desktop.
const READY_POLL: Duration = Duration::from_millis(20);

/// The part of the desktop a caller needs answering.
#[derive(Debug, Clone, Copy)]
pub enum Part {
    Vnc,
    Browser,
    Everything,
}

pub struct Desktop {
    settings: DesktopSettings,
    x_socket: PathBuf,
    xvfb: Arc<Supervised>,
    window_manager: Arc<Supervised>,
    browser: Arc<Supervised>,
    vnc: Arc<Supervised>,
    /// The x11vnc run (its generation) whose banner was seen. x11vnc takes 100–250 ms
    /// to greet each new client and flips X key autorepeat for it, so the banner is checked
    /// once per run; after that the supervisor knows whether the process still runs.
    vnc_greeted: Mutex<Option<u32>>,
    /// The processes' supervisors while the desktop is started; starts and stops take
    /// turns on it.
    run: Arc<tokio::sync::Mutex<Option<Run>>>,
    /// Mirrors `run.is_some()` for the readiness probe, which must not wait on a stop.
    running: AtomicBool,
    in_use: AtomicUsize,
    last_use: Mutex<Instant>,
    http: reqwest::Client,
}

/// One start of the desktop. The browser stops first and on its own token: Chromium
/// that loses its X server dies without writing its profile.
struct Run {
    stop_browser: CancellationToken,
    stop_rest: CancellationToken,
    browser: JoinHandle<()>,
    rest: Vec<JoinHandle<()>>,
}

/// Keeps the desktop from stopping while held; the idle time counts from its drop.
pub struct InUse(Arc<Desktop>);

impl Drop for InUse {
    fn drop(&mut self) {
        *lock(&self.0.last_use) = Instant::now();
        self.0.in_use.fetch_sub(1, Ordering::SeqCst);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Desktop {
    /// Checks the settings and prepares the desktop; it starts now only with
    /// `start = always`, else on first need.
    pub fn new(settings: &DesktopSettings, home: &Path, downloads: &Path) -> anyhow::Result<Arc<Self>> {
        if !(settings.start_timeout_secs.is_finite() && settings.start_timeout_secs > 0.0) {
            bail!("TOOL_API_DESKTOP__START_TIMEOUT_SECS must be a number of seconds above 0");
        }
        if !(settings.idle_stop_secs.is_finite() && settings.idle_stop_secs >= 0.0) {
            bail!("TOOL_API_DESKTOP__IDLE_STOP_SECS must be a number of seconds, 0 to keep the desktop");
        }
        let Programs {
            x_socket,
            xvfb,
            window_manager,
            vnc,
            browser,
        } = Programs::new(settings, home)?;
        std::fs::create_dir_all(downloads).context("creating the Downloads directory")?;

        let desktop = Arc::new(Self {
            settings: settings.clone(),
            x_socket,
            xvfb,
            window_manager,
            browser,
            vnc,
            vnc_greeted: Mutex::new(None),
            run: Arc::default(),
            running: AtomicBool::new(false),
            in_use: AtomicUsize::new(0),
            last_use: Mutex::new(Instant::now()),
            http: reqwest::Client::new(),
        });
        Ok(desktop)
    }

    /// Whether the desktop starts with the tool-api and stays up.
    pub fn always_on(&self) -> bool {
        self.settings.start == DesktopStart::Always
    }

    /// Marks the desktop as needed until the returned guard is dropped.
    pub fn hold(self: &Arc<Self>) -> InUse {
        self.in_use.fetch_add(1, Ordering::SeqCst);
        InUse(self.clone())
    }

    /// Starts the desktop unless it runs; returns at once (see [`Desktop::ready`]).
    ///
    /// Errors: `503 desktop_unavailable` when the sandbox's memory limit is below what the
    /// desktop needs.
    pub async fn start(&self) -> ToolResult<()> {
        let mut run = self.run.lock().await;
        if run.is_some() {
            return Ok(());
        }
        let limit = crate::system::memory().limit_bytes;
        let needed = self.settings.min_memory_mb << 20;
        if limit < needed {
            return Err(ToolError::new(
                ErrorCode::DesktopUnavailable,
                format!(
                    "this sandbox's memory limit ({} MiB) is below the {} MiB the desktop and \
                     browser need; start the sandbox with a higher memory limit to use them",
                    limit >> 20,
                    self.settings.min_memory_mb
                ),
            ));
        }
        *lock(&self.last_use) = Instant::now();
        let stop_rest = CancellationToken::new();
        let stop_browser = stop_rest.child_token();
        let mut rest = vec![tokio::spawn(self.xvfb.clone().run(stop_rest.clone()))];
        for dependent in [&self.window_manager, &self.vnc] {
            rest.push(tokio::spawn(
                self.after_display(dependent.clone(), stop_rest.clone()),
            ));
        }
        if let Some(port) = self.settings.cdp_public_port {
            rest.push(tokio::spawn(relay::serve(
                port,
                self.settings.cdp_port,
                stop_rest.clone(),
            )));
        }
        let browser = tokio::spawn(self.after_display(self.browser.clone(), stop_browser.clone()));
        *run = Some(Run {
            stop_browser,
            stop_rest,
            browser,
            rest,
        });
        self.running.store(true, Ordering::SeqCst);
        tracing::info!("desktop starting");
        Ok(())
    }

    /// Supervises `process` once the X server answers: everything else draws on it.
    fn after_display(
        &self,
        process: Arc<Supervised>,
        stopping: CancellationToken,
    ) -> impl std::future::Future<Output = ()> + Send + 'static {
        let socket = self.x_socket.clone();
        async move {
            while !probes::display(&socket).await {
                tokio::select! {
                    _ = tokio::time::sleep(READY_POLL) => {}
                    _ = stopping.cancelled() => return,
                }
            }
            process.run(stopping).await;
        }
    }

    /// Starts the desktop if needed and waits until `part` answers; the guard keeps it up.
    ///
    /// Errors: `503 desktop_unavailable` when it cannot start or does not answer within
    /// `start_timeout_secs`.
    pub async fn ready(self: &Arc<Self>, part: Part) -> ToolResult<InUse> {
        let held = self.hold();
        self.start().await?;
        let deadline = Instant::now() + Duration::from_secs_f64(self.settings.start_timeout_secs);
        loop {
            let readiness = self.readiness().await;
            let answers = readiness.display
                && match part {
                    Part::Vnc => readiness.vnc,
                    Part::Browser => readiness.browser,
                    Part::Everything => readiness.vnc && readiness.browser,
                };
            if answers {
                return Ok(held);
            }
            if Instant::now() >= deadline {
                return Err(ToolError::new(
                    ErrorCode::DesktopUnavailable,
                    format!(
                        "the desktop did not come up within {} s; GET /v1/info lists its processes and how they last ended",
                        self.settings.start_timeout_secs
                    ),
                ));
            }
            tokio::time::sleep(READY_POLL).await;
        }
    }

    /// Stops every desktop process (the browser first) and waits until they are gone.
    /// The desktop reads as stopped from the start: a watcher whose stream ends must not
    /// take the processes still ending for a desktop starting, and reconnect.
    /// The stop runs in a task of its own, holding the slot until the processes are
    /// gone: a caller that goes away (a client hanging up) cannot leave them half
    /// stopped, nor let a start begin before they are.
    pub async fn stop(&self) {
        let mut slot = self.run.clone().lock_owned().await;
        let Some(run) = slot.take() else {
            return;
        };
        self.running.store(false, Ordering::SeqCst);
        let stopping = tokio::spawn(async move {
            run.stop_browser.cancel();
            let _ = run.browser.await;
            run.stop_rest.cancel();
            for task in run.rest {
                let _ = task.await;
            }
            drop(slot);
            tracing::info!("desktop stopped");
        });
        let _ = stopping.await;
    }

    /// Stops the desktop whenever nothing has held it for `idle_stop_secs`, until
    /// `shutdown`. Does nothing when it is always on or the idle stop is off.
    pub fn stop_when_idle(self: &Arc<Self>, shutdown: CancellationToken) {
        let idle = self.settings.idle_stop_secs;
        if self.always_on() || idle <= 0.0 {
            return;
        }
        let idle = Duration::from_secs_f64(idle);
        let check = (idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(15));
        let desktop = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(check) => {}
                    _ = shutdown.cancelled() => return,
                }
                let Some(desktop) = desktop.upgrade() else { return };
                let idle_for = lock(&desktop.last_use).elapsed();
                if desktop.running.load(Ordering::SeqCst)
                    && desktop.in_use.load(Ordering::SeqCst) == 0
                    && idle_for >= idle
                {
                    tracing::info!(idle_secs = idle_for.as_secs(), "stopping the idle desktop");
                    desktop.stop().await;
                }
            }
        });
    }

    pub async fn readiness(&self) -> DesktopReadiness {
        if !self.running.load(Ordering::SeqCst) {
            return DesktopReadiness {
                state: DesktopState::Stopped,
                display: false,
                vnc: false,
                browser: false,
            };
        }
        let (display, vnc, browser) = tokio::join!(
            probes::display(&self.x_socket),
            self.vnc_ready(),
            probes::devtools(&self.http, self.settings.cdp_port),
        );
        DesktopReadiness {
            state: if display && vnc && browser {
                DesktopState::Ready
            } else {
                DesktopState::Starting
            },
            display,
            vnc,
            browser,
        }
    }

    async fn vnc_ready(&self) -> bool {
        if self.vnc.info().state != ProcessState::Running {
            return false;
        }
        let generation = self.vnc.generation();
        if *lock(&self.vnc_greeted) == Some(generation) {
            return true;
        }
        let answered = probes::vnc(self.settings.vnc_port).await;
        if answered {
            *lock(&self.vnc_greeted) = Some(generation);
        }
        answered
    }

    pub async fn info(&self) -> DesktopInfo {
        DesktopInfo {
            screen: self.settings.screen.clone(),
            display: format!(":{}", self.settings.display),
            readiness: self.readiness().await,
            processes: [&self.xvfb, &self.window_manager, &self.vnc, &self.browser]
                .iter()
                .map(|p| p.info())
                .collect(),
        }
    }

    /// Where x11vnc listens (on 127.0.0.1 inside the sandbox).
    pub fn vnc_port(&self) -> u16 {
        self.settings.vnc_port
    }

    /// Where the browser serves DevTools (inside the sandbox).
    pub fn devtools_port(&self) -> u16 {
        self.settings.cdp_port
    }

    /// Changes whenever a browser process ends (crash, kill or stop), so a DevTools
    /// connection can tell that it belongs to a browser that is gone.
    pub fn browser_generation(&self) -> u32 {
        self.browser.generation()
    }

    /// Kills the browser; its supervisor starts a fresh one.
    pub fn restart_browser(&self) {
        self.browser.kill();
    }
}
