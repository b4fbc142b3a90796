//! Optional relay of the browser's DevTools port to all interfaces. Headful Chromium binds
//! DevTools to 127.0.0.1 whatever it is told, so reaching it from outside the container
//! (when an operator asks for it) takes a relay.

use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;

pub async fn serve(public_port: u16, inner_port: u16, stopping: CancellationToken) {
    let listener = match TcpListener::bind(("0.0.0.0", public_port)).await {
        Ok(listener) => listener,
        Err(err) => {
            tracing::error!(port = public_port, error = %err, "cannot relay DevTools");
            return;
        }
    };
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stopping.cancelled() => return,
        };
        let Ok((mut outside, _)) = accepted else { continue };
        tokio::spawn(async move {
            if let Ok(mut inside) = TcpStream::connect(("127.0.0.1", inner_port)).await {
                let _ = tokio::io::copy_bidirectional(&mut outside, &mut inside).await;
            }
        });
    }
}
