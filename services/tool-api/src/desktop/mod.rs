//! The sandbox desktop: Xvfb, a window manager, x11vnc and Chromium, each supervised and
//! restarted when it exits. x11vnc and DevTools listen on the sandbox's loopback only.
//!
//! The person watches and takes over through VNC, relayed by `GET /v1/desktop/vnc`; the agent drives the browser through
//! DevTools (see `crate::browser`). DevTools is not reachable from outside the sandbox
//! unless `cdp_public_port` asks for a relay.

mod probes;
mod process;
mod relay;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tool_api_contract::info::{DesktopInfo, DesktopReadiness, ProcessState};

use self::process::{ProcessSpec, Supervised};
use crate::config::DesktopSettings;

pub struct Desktop {
    settings: DesktopSettings,
    x_socket: PathBuf,
    browser: Arc<Supervised>,
    vnc: Arc<Supervised>,
    /// The x11vnc start (its restart count) whose banner was seen. x11vnc takes 100–250 ms
    /// to greet each new client and flips X key autorepeat for it, so the banner is checked
    /// once per start; after that the supervisor knows whether the process still runs.
    vnc_greeted: std::sync::Mutex<Option<u32>>,
    processes: Vec<Arc<Supervised>>,
    tasks: std::sync::Mutex<Vec<JoinHandle<()>>>,
    stopping: CancellationToken,
    http: reqwest::Client,
}

impl Desktop {
    /// Checks the settings and starts supervising the desktop processes.
    pub fn start(settings: &DesktopSettings, home: &Path, downloads: &Path) -> anyhow::Result<Arc<Self>> {
        let (width, height) = parse_screen(&settings.screen)?;
        let display = format!(":{}", settings.display);
        let x_socket = PathBuf::from(format!("/tmp/.X11-unix/X{}", settings.display));
        let x_lock = PathBuf::from(format!("/tmp/.X{}-lock", settings.display));
        let with_display = vec![("DISPLAY".to_owned(), display.clone())];
        let profile = home.join(".config/sandpiper-browser");

        let xvfb = Supervised::new(ProcessSpec {
            name: "xvfb",
            program: "Xvfb".into(),
            args: strings([
                &display,
                "-screen",
                "0",
                &settings.screen,
                "-nolisten",
                "tcp",
                "-ac",
                "-dpi",
                "96",
            ]),
            env: vec![],
            // A crashed Xvfb leaves its lock and socket; a new one refuses to start over them.
            prepare: Some(Box::new({
                let (lock, socket) = (x_lock.clone(), x_socket.clone());
                move || {
                    let _ = std::fs::remove_file(&lock);
                    let _ = std::fs::remove_file(&socket);
                }
            })),
        });
        let window_manager = Supervised::new(ProcessSpec {
            name: "window_manager",
            program: "matchbox-window-manager".into(),
            args: strings(["-use_titlebar", "no"]),
            env: with_display.clone(),
            prepare: None,
        });
        let vnc = Supervised::new(ProcessSpec {
            name: "vnc",
            program: "x11vnc".into(),
            args: strings([
                "-display",
                &display,
                "-rfbport",
                &settings.vnc_port.to_string(),
                "-localhost",
                "-nopw",
                "-forever",
                "-shared",
                "-noxdamage",
                "-noipv6",
                "-quiet",
            ]),
            env: with_display.clone(),
            prepare: None,
        });
        let mut browser_args = strings([
            format!("--remote-debugging-port={}", settings.cdp_port),
            "--remote-debugging-address=127.0.0.1".into(),
            format!("--user-data-dir={}", profile.display()),
            "--no-first-run".into(),
            "--no-default-browser-check".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-features=Translate,MediaRouter".into(),
            "--password-store=basic".into(),
            "--disable-session-crashed-bubble".into(),
            "--hide-crash-restore-bubble".into(),
            "--window-position=0,0".into(),
            format!("--window-size={width},{height}"),
            "--start-maximized".into(),
        ]);
        if !settings.browser_sandbox {
            browser_args.push("--no-sandbox".into());
        }
        browser_args.push("about:blank".into());
        let browser = Supervised::new(ProcessSpec {
            name: "browser",
            program: settings.browser_command.clone(),
            args: browser_args,
            env: with_display,
            // A killed Chromium leaves its profile locked; the next one would hand its
            // window to the dead one and exit.
            prepare: Some(Box::new({
                let profile = profile.clone();
                move || {
                    for lock in ["SingletonLock", "SingletonSocket", "SingletonCookie"] {
                        let _ = std::fs::remove_file(profile.join(lock));
                    }
                }
            })),
        });
        std::fs::create_dir_all(downloads).context("creating the Downloads directory")?;

        let desktop = Arc::new(Self {
            settings: settings.clone(),
            x_socket,
            browser: browser.clone(),
            vnc: vnc.clone(),
            vnc_greeted: std::sync::Mutex::new(None),
            processes: vec![xvfb.clone(), window_manager.clone(), vnc.clone(), browser.clone()],
            tasks: std::sync::Mutex::new(Vec::new()),
            stopping: CancellationToken::new(),
            http: reqwest::Client::new(),
        });
        let mut tasks = vec![tokio::spawn(xvfb.run(desktop.stopping.clone()))];
        for dependent in [window_manager, vnc, browser] {
            let desktop = desktop.clone();
            tasks.push(tokio::spawn(async move {
                // Everything else draws on the X server: start it only once X answers.
                while !probes::display(&desktop.x_socket).await {
                    tokio::select! {
                        _ = tokio::time::sleep(std::time::Duration::from_millis(25)) => {}
                        _ = desktop.stopping.cancelled() => return,
                    }
                }
                dependent.run(desktop.stopping.clone()).await;
            }));
        }
        if let Some(port) = settings.cdp_public_port {
            tasks.push(tokio::spawn(relay::serve(
                port,
                settings.cdp_port,
                desktop.stopping.clone(),
            )));
        }
        *desktop.tasks.lock().unwrap_or_else(|p| p.into_inner()) = tasks;
        Ok(desktop)
    }

    pub async fn readiness(&self) -> DesktopReadiness {
        let (display, vnc, browser) = tokio::join!(
            probes::display(&self.x_socket),
            self.vnc_ready(),
            probes::devtools(&self.http, self.settings.cdp_port),
        );
        DesktopReadiness {
            display,
            vnc,
            browser,
        }
    }

    async fn vnc_ready(&self) -> bool {
        let process = self.vnc.info();
        if process.state != ProcessState::Running {
            return false;
        }
        let greeted = || self.vnc_greeted.lock().unwrap_or_else(|p| p.into_inner());
        if *greeted() == Some(process.restarts) {
            return true;
        }
        let answered = probes::vnc(self.settings.vnc_port).await;
        if answered {
            *greeted() = Some(process.restarts);
        }
        answered
    }

    pub async fn info(&self) -> DesktopInfo {
        DesktopInfo {
            screen: self.settings.screen.clone(),
            display: format!(":{}", self.settings.display),
            readiness: self.readiness().await,
            processes: self.processes.iter().map(|p| p.info()).collect(),
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

    /// Changes whenever the browser process is started anew, so a DevTools connection can
    /// tell that it belongs to a browser that is gone.
    pub fn browser_generation(&self) -> u32 {
        self.browser.info().restarts
    }

    /// Kills the browser; its supervisor starts a fresh one.
    pub fn restart_browser(&self) {
        self.browser.kill();
    }

    /// Stops every desktop process and waits for the supervisors to finish.
    pub async fn shutdown(&self) {
        self.stopping.cancel();
        let tasks = std::mem::take(&mut *self.tasks.lock().unwrap_or_else(|p| p.into_inner()));
        for task in tasks {
            let _ = task.await;
        }
    }
}

fn strings<S: Into<String>, const N: usize>(items: [S; N]) -> Vec<String> {
    items.into_iter().map(Into::into).collect()
}

/// `1280x800x24` → (1280, 800), with sane bounds.
fn parse_screen(screen: &str) -> anyhow::Result<(u32, u32)> {
    let parts: Vec<u32> = screen
        .split('x')
        .map(|p| p.parse())
        .collect::<Result<_, _>>()
        .unwrap_or_default();
    match parts[..] {
        [w, h, depth]
            if (320..=7680).contains(&w) && (200..=4320).contains(&h) && [16, 24].contains(&depth) =>
        {
            Ok((w, h))
        }
        _ => bail!("screen {screen:?} must be WIDTHxHEIGHTxDEPTH, e.g. 1280x800x24 (depth 16 or 24)"),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_screen;

    #[test]
    fn screen_sizes_are_parsed_and_bounded() {
        assert_eq!(parse_screen("1280x800x24").unwrap(), (1280, 800));
        for bad in ["1280x800", "axbxc", "99999x800x24", "1280x800x8", ""] {
            assert!(parse_screen(bad).is_err(), "{bad}");
        }
    }
}
