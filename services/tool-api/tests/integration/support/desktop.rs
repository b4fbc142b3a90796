//! A tool-api with a desktop on this host (Xvfb, matchbox, x11vnc, Chromium from the
//! distribution), on a display, ports and browser profile of its own so tests can run side
//! by side, and a small web site for the browser to work on.

use std::sync::atomic::{AtomicU16, Ordering};
use std::time::Duration;

use axum::response::Html;
use axum::routing::get;
use tool_api::config::Settings;
use tool_api_contract::info::{DesktopState, Readiness};

use super::{spawn_app_with, TestApp};

pub struct DesktopApp {
    pub app: TestApp,
    /// Base URL of the test site.
    pub site: String,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts the server with a desktop that starts on first need, and checks that it has
/// not started yet while the tools are ready.
pub async fn spawn_desktop() -> DesktopApp {
    spawn_desktop_with(|_| {}).await
}

pub async fn spawn_desktop_with(adjust: impl FnOnce(&mut Settings)) -> DesktopApp {
    static NEXT: AtomicU16 = AtomicU16::new(0);
    let display = 100 + (std::process::id() % 300) as u16 * 3 + NEXT.fetch_add(1, Ordering::SeqCst);
    let app = spawn_app_with(|settings| {
        settings.desktop.enabled = true;
        settings.desktop.display = display;
        settings.desktop.vnc_port = free_port();
        settings.desktop.cdp_port = free_port();
        settings.desktop.browser_profile = Some(settings.workspace.join(".browser-profile"));
        // Chromium refuses its own sandbox as root; the image runs it as a normal user.
        settings.desktop.browser_sandbox = !nix::unistd::getuid().is_root();
        // The suites run side by side on a busy machine, where a desktop once took more
        // than the default 20 s to start: how fast it starts is not what these check.
        settings.desktop.start_timeout_secs = 90.0;
        adjust(settings);
    })
    .await;
    let health = app.client.health().await.unwrap();
    assert_eq!(health.status, Readiness::Ready, "tools are ready at once");
    assert_eq!(health.desktop.unwrap().state, DesktopState::Stopped, "{health:?}");
    DesktopApp {
        app,
        site: serve_site().await,
    }
}

const FORM: &str = r#"<!doctype html>
<html><head><title>Order form</title></head>
<body>
  <h1>Order</h1>
  <label for="name">Name</label> <input id="name" placeholder="Your name">
  <select id="colour"><option value="r">Red</option><option value="g">Green</option></select>
  <button id="send" onclick="send()">Send order</button>
  <button id="vanish" onclick="this.remove()">Vanish</button>
  <a href="/second">Second page</a>
  <p id="result"></p>
  <div style="height: 3000px"></div>
  <p>Bottom of the page</p>
  <script>
    console.log('form ready', 42);
    function send() {
      const name = document.getElementById('name').value;
      const colour = document.getElementById('colour').value;
      document.getElementById('result').textContent = 'Ordered for ' + name + ' in ' + colour;
      console.warn('sent');
    }
    document.getElementById('name').addEventListener('keydown', (e) => {
      if (e.key === 'Enter') document.getElementById('result').textContent = 'Enter pressed';
    });
  </script>
</body></html>"#;

async fn serve_site() -> String {
    let site = axum::Router::new()
        .route("/", get(|| async { Html(FORM) }))
        .route(
            "/second",
            get(|| async {
                Html("<title>Second</title><p>The second page</p><script>undefinedFn()</script>")
            }),
        )
        .route(
            "/downloads",
            get(|| async { Html("<title>Files</title><a href=\"/report\">Get the report</a>") }),
        )
        .route(
            "/report",
            get(|| async {
                (
                    [
                        ("content-type", "text/plain"),
                        ("content-disposition", "attachment; filename=\"report.txt\""),
                    ],
                    "quarterly numbers\n",
                )
            }),
        )
        .route(
            "/slow",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(30)).await;
                Html("late")
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, site).await });
    format!("http://{address}")
}
