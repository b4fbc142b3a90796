//! The desktop and the browser tools on real Xvfb, x11vnc and Chromium.
//!
//! # Layout
//!
//! - `sequence.rs`: one desktop serves the whole sequence of the browser's tools (a
//!   Chromium per test would only slow the suite down): VNC through the relay, tabs,
//!   downloads and a killed browser restarted, with the steps of `forms.rs`;
//! - `forms.rs`: the steps that fill a form and read the browser's errors;
//! - `on_demand.rs`: the desktop started when needed and stopped when idle, a document
//!   without elements, and a sandbox too small for the desktop.
//!
//! This file holds the helpers they share.

mod forms;
mod on_demand;
mod sequence;

use crate::support;

use std::time::{Duration, Instant};

use support::desktop::{spawn_desktop, spawn_desktop_with, DesktopApp};
use support::expect_code;
use support::vnc::handshake;
use tool_api_client::ToolApiClient;
use tool_api_contract::browser::{
    ClickRequest, ImageFormat, NavigateRequest, PageSummary, ScreenshotRequest, ScrollDirection,
    ScrollRequest, SelectRequest, TypeRequest, ViewRequest,
};
use tool_api_contract::info::{DesktopState, ProcessInfo, ProcessState, Readiness};
use tool_api_contract::ErrorCode;

/// Loads the test site's form in the active tab.
async fn open_site(desktop: &DesktopApp) -> PageSummary {
    desktop
        .app
        .client
        .navigate(&NavigateRequest {
            url: desktop.site.clone(),
            timeout_secs: None,
        })
        .await
        .unwrap()
}

async fn wait_for_state(client: &ToolApiClient, state: DesktopState) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let health = client.health().await.unwrap();
        if health.desktop.unwrap().state == state {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the desktop never got {state:?}: {health:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn wait_for_title(desktop: &DesktopApp, title: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let page = desktop.app.client.evaluate("document.title").await.unwrap();
        if page.result == title {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "title stayed {:?}, wanted {title:?}",
            page.result
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.decode(text).unwrap()
}
