//! Readiness probes: each asks a desktop part the way its real client would, with a short
//! timeout, so "ready" means "a client connecting now gets served".

use std::path::Path;
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::net::{TcpStream, UnixStream};

const PROBE_TIMEOUT: Duration = Duration::from_millis(500);

/// The X server accepts connections on its socket.
pub async fn display(socket: &Path) -> bool {
    tokio::time::timeout(PROBE_TIMEOUT, UnixStream::connect(socket))
        .await
        .is_ok_and(|connected| connected.is_ok())
}

/// The VNC server greets with its `RFB 003.00x` banner.
pub async fn vnc(port: u16) -> bool {
    let banner = async {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).await?;
        let mut banner = [0u8; 12];
        stream.read_exact(&mut banner).await?;
        Ok::<_, std::io::Error>(banner)
    };
    matches!(tokio::time::timeout(PROBE_TIMEOUT, banner).await, Ok(Ok(banner)) if banner.starts_with(b"RFB "))
}

/// The browser's DevTools HTTP endpoint answers `/json/version`.
pub async fn devtools(http: &reqwest::Client, port: u16) -> bool {
    let url = format!("http://127.0.0.1:{port}/json/version");
    let response = http.get(url).timeout(PROBE_TIMEOUT).send().await;
    response.is_ok_and(|r| r.status().is_success())
}
