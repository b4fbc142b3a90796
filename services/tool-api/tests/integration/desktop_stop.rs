//! How a desktop that is being stopped looks to whoever watches it.
//!
//! A watcher whose VNC stream ends asks for the desktop's state to tell a dropped
//! connection (the desktop runs: reconnect) from a stop (say it ended). A stop ends the
//! browser first and the X server last, so for a while some of the desktop is still up;
//! were that reported as `starting`, the watcher would reconnect, and its connection
//! would start the desktop again right after the stop.

use crate::support;

use support::desktop::spawn_desktop;
use support::vnc::handshake;
use tokio::io::AsyncReadExt;
use tool_api_contract::info::DesktopState;

/// From the moment a stop begins, the desktop reads as stopped, never as starting: not
/// while its processes end, and not when the watcher's stream closes.
#[tokio::test]
async fn a_desktop_being_stopped_never_reads_as_starting() {
    let desktop = spawn_desktop().await;
    let client = desktop.app.client.clone();
    let started = client.start_desktop().await.unwrap();
    assert_eq!(started.readiness.state, DesktopState::Ready, "{started:?}");
    let mut stream = client.vnc().await.unwrap();
    handshake(&mut stream).await;

    let stopping = tokio::spawn({
        let client = client.clone();
        async move { client.stop_desktop().await.unwrap() }
    });
    let mut seen = Vec::new();
    while !stopping.is_finished() {
        let state = client.health().await.unwrap().desktop.unwrap().state;
        if seen.last() != Some(&state) {
            seen.push(state);
        }
    }
    let stopped = stopping.await.unwrap();
    assert_eq!(stopped.readiness.state, DesktopState::Stopped);
    assert!(
        !seen.contains(&DesktopState::Starting),
        "a stopping desktop read as starting: {seen:?}"
    );

    // The stream ended with x11vnc; what its watcher then reads is the stop.
    let mut rest = Vec::new();
    stream.read_to_end(&mut rest).await.unwrap_or_default();
    let after = client.health().await.unwrap().desktop.unwrap().state;
    assert_eq!(after, DesktopState::Stopped);
}

/// A stop whose caller hangs up halfway (its request future dropped) still ends every
/// process: none is left running with the desktop reading as stopped.
#[tokio::test]
async fn a_stop_whose_caller_hangs_up_still_ends_every_process() {
    let desktop = spawn_desktop().await;
    let client = desktop.app.client.clone();
    client.start_desktop().await.unwrap();
    // Chromium takes longer than this to write its profile and go.
    let hung_up = client
        .request(reqwest::Method::POST, "/v1/desktop/stop")
        .timeout(std::time::Duration::from_millis(50))
        .send()
        .await;
    assert!(hung_up.is_err(), "the stop answered within 50 ms: {hung_up:?}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let info = client.info().await.unwrap().desktop.unwrap();
        let ended = |p: &tool_api_contract::info::ProcessInfo| p.pid.is_none();
        if info.processes.iter().all(ended) {
            assert_eq!(info.readiness.state, DesktopState::Stopped);
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "processes outlived a stop whose caller hung up: {:?}",
            info.processes
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}
