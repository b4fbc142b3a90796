//! The desktop's four programs and their command lines: Xvfb on its own display, the
//! window manager, x11vnc on the sandbox's loopback and Chromium with DevTools, each under
//! a supervisor of its own (see `process`). Built once from the settings; the desktop
//! starts and stops them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::bail;

use super::process::{ProcessSpec, Supervised};
use crate::config::DesktopSettings;

pub(super) struct Programs {
    /// The X server's socket: whoever draws on it waits until it answers.
    pub x_socket: PathBuf,
    pub xvfb: Arc<Supervised>,
    pub window_manager: Arc<Supervised>,
    pub vnc: Arc<Supervised>,
    pub browser: Arc<Supervised>,
}

impl Programs {
    /// Checks the screen size and builds each program's command line.
    pub fn new(settings: &DesktopSettings, home: &Path) -> anyhow::Result<Self> {
        let (width, height) = parse_screen(&settings.screen)?;
        let display = format!(":{}", settings.display);
        let x_socket = PathBuf::from(format!("/tmp/.X11-unix/X{}", settings.display));
        let x_lock = PathBuf::from(format!("/tmp/.X{}-lock", settings.display));
        let with_display = vec![("DISPLAY".to_owned(), display.clone())];
        let profile = settings
            .browser_profile
            .clone()
            .unwrap_or_else(|| home.join(".config/sandpiper-browser"));

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
        Ok(Self {
            x_socket,
            xvfb,
            window_manager,
            vnc,
            browser,
        })
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
