//! The desktop and the browser tools on real Xvfb, x11vnc and Chromium. One desktop serves
//! the whole sequence (a Chromium per test would only slow the suite down).

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

#[tokio::test]
async fn desktop_vnc_and_browser_tools() {
    let desktop = spawn_desktop().await;
    vnc_is_reached_through_the_relay(&desktop).await;
    browser_fills_a_form(&desktop).await;
    browser_reports_errors_clearly(&desktop).await;
    tabs_open_switch_and_close(&desktop).await;
    downloads_land_in_the_workspace(&desktop).await;
    a_killed_browser_is_restarted(&desktop).await;
}

/// A view of a document without its elements (as a new document is until its parser
/// has begun) describes an empty page instead of failing with a 500.
#[tokio::test]
async fn a_document_without_elements_is_viewed_as_empty() {
    let desktop = spawn_desktop().await;
    let client = &desktop.app.client;
    open_site(&desktop).await;
    let removed = client
        .evaluate("document.documentElement.remove(); true")
        .await
        .unwrap();
    assert_eq!(removed.exception, None);
    let empty = client
        .view_page(&ViewRequest {
            no_screenshot: true,
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!((empty.text.as_str(), empty.page_height), ("", 0.0), "{empty:?}");
    assert!(empty.elements.is_empty() && empty.url.starts_with(&desktop.site));
}

/// The desktop starts on first need, stops when idle (never under an open VNC stream),
/// and a stop keeps the browser's profile.
#[tokio::test]
async fn the_desktop_starts_when_needed_and_stops_when_idle() {
    // Idle for 3 s: longer than any gap between this test's calls on a loaded machine.
    let desktop = spawn_desktop_with(|settings| settings.desktop.idle_stop_secs = 3.0).await;
    let client = &desktop.app.client;
    let processes = client.info().await.unwrap().desktop.unwrap().processes;
    assert!(processes.iter().all(|p| p.pid.is_none()), "{processes:?}");

    // A browser call on a stopped desktop waits for it instead of failing.
    let started = Instant::now();
    let page = open_site(&desktop).await;
    assert_eq!(page.title, "Order form");
    eprintln!("cold desktop → first page: {:?}", started.elapsed());
    client
        .evaluate("localStorage.setItem('note', 'hello'); 1")
        .await
        .unwrap();
    // Chromium writes local storage to disk in batches, within about 5 s, from its
    // storage process, which a stop right after the write can end first (seen under
    // load): what the stop keeps is what was written before that. So the page stays in
    // use a while longer, then the desktop is left idle.
    let written = Instant::now();
    while written.elapsed() < Duration::from_secs(7) {
        client.evaluate("1").await.unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // It reads as stopped as soon as the stop begins; its processes then end.
    wait_for_state(client, DesktopState::Stopped).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let processes = client.info().await.unwrap().desktop.unwrap().processes;
        let ended = |p: &ProcessInfo| p.state == ProcessState::Stopped && p.pid.is_none();
        if processes.iter().all(ended) {
            break;
        }
        assert!(Instant::now() < deadline, "{processes:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // A screenshot starts it again, with the profile as it was.
    let shot = client
        .screenshot(&ScreenshotRequest {
            format: ImageFormat::Png,
            quality: None,
        })
        .await
        .unwrap();
    assert_eq!(&base64_decode(&shot.image)[..4], b"\x89PNG");
    open_site(&desktop).await;
    let kept = client.evaluate("localStorage.getItem('note')").await.unwrap();
    assert_eq!(kept.result, "hello");

    // A person watching over VNC keeps it up, however long nothing else happens.
    let mut stream = client.vnc().await.unwrap();
    assert_eq!(handshake(&mut stream).await, (1280, 800));
    tokio::time::sleep(Duration::from_secs(5)).await;
    let health = client.health().await.unwrap();
    assert_eq!(health.desktop.unwrap().state, DesktopState::Ready, "{health:?}");
    drop(stream);
    wait_for_state(client, DesktopState::Stopped).await;

    // Started and stopped on request.
    let info = client.start_desktop().await.unwrap();
    assert_eq!(info.readiness.state, DesktopState::Ready, "{info:?}");
    let info = client.stop_desktop().await.unwrap();
    assert_eq!(info.readiness.state, DesktopState::Stopped, "{info:?}");
    assert_eq!(client.health().await.unwrap().status, Readiness::Ready);
}

/// Below its memory floor the desktop refuses to start and says why; the tools still work.
#[tokio::test]
async fn a_sandbox_too_small_for_the_desktop_says_so() {
    let desktop = spawn_desktop_with(|settings| settings.desktop.min_memory_mb = 1 << 30).await;
    let client = &desktop.app.client;
    let err = client.start_desktop().await.unwrap_err();
    assert_eq!(err.code(), Some(ErrorCode::DesktopUnavailable), "{err}");
    assert!(err.to_string().contains("memory limit"), "{err}");
    let err = client.vnc().await.unwrap_err();
    assert_eq!(err.code(), Some(ErrorCode::DesktopUnavailable), "{err}");
    let health = client.health().await.unwrap();
    assert_eq!(health.status, Readiness::Ready);
    assert_eq!(health.desktop.unwrap().state, DesktopState::Stopped);
}

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

async fn vnc_is_reached_through_the_relay(desktop: &DesktopApp) {
    let client = &desktop.app.client;
    // The first connection starts the stopped desktop and waits for its VNC server.
    let mut stream = client.vnc().await.unwrap();
    assert_eq!(handshake(&mut stream).await, (1280, 800));

    let stranger = ToolApiClient::new(client.base_url(), "not-the-token-0123456789");
    let err = stranger.vnc().await.unwrap_err();
    assert_eq!(err.code(), Some(ErrorCode::Unauthorized), "{err}");
    let plain = client
        .request(reqwest::Method::GET, "/v1/desktop/vnc")
        .send()
        .await
        .unwrap();
    assert_eq!(plain.status(), 400, "a request that does not ask to upgrade");
}

async fn browser_fills_a_form(desktop: &DesktopApp) {
    let client = &desktop.app.client;
    let page = open_site(desktop).await;
    assert_eq!(page.title, "Order form");

    let view = client.view_page(&ViewRequest::default()).await.unwrap();
    assert!(view.text.contains("Order"), "{}", view.text);
    let png = base64_decode(view.screenshot.as_deref().unwrap());
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let find = |label: &str| {
        view.elements
            .iter()
            .find(|e| e.text.contains(label))
            .unwrap_or_else(|| panic!("no element {label:?} in {:?}", view.elements))
            .index
    };
    let (name, colour, send) = (find("Name"), find("Red"), find("Send order"));
    // The picture alone keeps that numbering, even where a view would number others.
    let numbering = "[...document.querySelectorAll('[data-sandpiper-index]')]\
        .map(e => e.dataset.sandpiperIndex + e.tagName).join()";
    let before = client.evaluate(numbering).await.unwrap().result;
    assert_ne!(before, "", "the view numbered elements");
    for direction in [ScrollDirection::Down, ScrollDirection::Up] {
        client
            .scroll(&ScrollRequest {
                direction,
                to_end: true,
            })
            .await
            .unwrap();
        let shot = client
            .screenshot(&ScreenshotRequest {
                format: ImageFormat::Jpeg,
                quality: Some(50),
            })
            .await
            .unwrap();
        assert_eq!(&base64_decode(&shot.image)[..2], b"\xff\xd8");
        assert_eq!(shot.title, "Order form");
        assert_eq!(client.evaluate(numbering).await.unwrap().result, before);
    }
    let link = view.elements.iter().find(|e| e.tag == "a").unwrap();
    assert!(link.href.as_deref().unwrap().ends_with("/second"));
    assert!(view.elements.iter().all(|e| e.width > 0.0 && e.height > 0.0));

    client
        .type_text(&TypeRequest {
            index: name,
            text: "Ada".into(),
            press_enter: false,
            append: false,
        })
        .await
        .unwrap();
    client
        .select_option(&SelectRequest {
            index: colour,
            option: "Green".into(),
        })
        .await
        .unwrap();
    client
        .click(&ClickRequest {
            index: Some(send),
            ..Default::default()
        })
        .await
        .unwrap();
    let result = client
        .evaluate("document.getElementById('result').textContent")
        .await
        .unwrap();
    assert_eq!(result.result, "Ordered for Ada in g");

    // Typing replaces the value unless asked to append; Enter reaches the page.
    client
        .type_text(&TypeRequest {
            index: name,
            text: "Grace".into(),
            press_enter: true,
            append: false,
        })
        .await
        .unwrap();
    let value = client
        .evaluate("document.getElementById('name').value")
        .await
        .unwrap();
    assert_eq!(value.result, "Grace");
    let result = client
        .evaluate("document.getElementById('result').textContent")
        .await
        .unwrap();
    assert_eq!(result.result, "Enter pressed");

    let console = client.console_log().await.unwrap();
    assert!(
        console
            .messages
            .iter()
            .any(|m| m.level == "warning" && m.text == "sent"),
        "{console:?}"
    );

    let scrolled = client
        .scroll(&ScrollRequest {
            direction: ScrollDirection::Down,
            to_end: true,
        })
        .await
        .unwrap();
    assert_eq!(scrolled.title, "Order form");
    let bottom = client
        .view_page(&ViewRequest {
            no_screenshot: true,
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(bottom.scroll_y > 1000.0, "{}", bottom.scroll_y);
    assert!(bottom.screenshot.is_none());
    let jpeg = client
        .view_page(&ViewRequest {
            format: ImageFormat::Jpeg,
            quality: Some(50),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(
        &base64_decode(jpeg.screenshot.as_deref().unwrap())[..2],
        b"\xff\xd8"
    );

    // Click by coordinates, go to the second page, and back.
    client
        .scroll(&ScrollRequest {
            direction: ScrollDirection::Up,
            to_end: true,
        })
        .await
        .unwrap();
    let view = client
        .view_page(&ViewRequest {
            no_screenshot: true,
            ..Default::default()
        })
        .await
        .unwrap();
    let link = view.elements.iter().find(|e| e.tag == "a").unwrap();
    client
        .click(&ClickRequest {
            index: None,
            x: Some(link.x + link.width / 2.0),
            y: Some(link.y + link.height / 2.0),
        })
        .await
        .unwrap();
    wait_for_title(desktop, "Second").await;
    let back = client.back().await.unwrap();
    wait_for_title(desktop, "Order form").await;
    assert!(back.url.starts_with(&desktop.site));
}

async fn browser_reports_errors_clearly(desktop: &DesktopApp) {
    let client = &desktop.app.client;
    open_site(desktop).await;
    let view = client
        .view_page(&ViewRequest {
            no_screenshot: true,
            ..Default::default()
        })
        .await
        .unwrap();
    let vanish = view.elements.iter().find(|e| e.text == "Vanish").unwrap().index;
    client
        .click(&ClickRequest {
            index: Some(vanish),
            ..Default::default()
        })
        .await
        .unwrap();
    let again = client
        .click(&ClickRequest {
            index: Some(vanish),
            ..Default::default()
        })
        .await;
    expect_code(again, ErrorCode::StaleElement);
    expect_code(
        client
            .click(&ClickRequest {
                index: Some(9999),
                ..Default::default()
            })
            .await,
        ErrorCode::StaleElement,
    );
    expect_code(
        client.click(&ClickRequest::default()).await,
        ErrorCode::InvalidInput,
    );
    let not_select = client
        .select_option(&SelectRequest {
            index: 0,
            option: "x".into(),
        })
        .await;
    expect_code(not_select, ErrorCode::WrongKind);
    expect_code(client.press_key("Hyper+q").await, ErrorCode::InvalidInput);
    let bad_scheme = client
        .navigate(&NavigateRequest {
            url: "javascript:alert(1)".into(),
            timeout_secs: None,
        })
        .await;
    expect_code(bad_scheme, ErrorCode::InvalidInput);

    let refused = NavigateRequest {
        url: "http://127.0.0.1:9/".into(),
        timeout_secs: None,
    };
    expect_code(client.navigate(&refused).await, ErrorCode::UpstreamError);

    // The error page stays until the slow page answers; its error is not this page's.
    let started = Instant::now();
    let slow = NavigateRequest {
        url: format!("{}/slow", desktop.site),
        timeout_secs: Some(1.0),
    };
    expect_code(client.navigate(&slow).await, ErrorCode::UpstreamTimeout);
    assert!(started.elapsed() < Duration::from_secs(5));

    let thrown = client
        .evaluate("(() => { throw new Error('boom') })()")
        .await
        .unwrap();
    assert!(thrown.exception.unwrap().contains("boom"));
    let awaited = client
        .evaluate("new Promise(r => setTimeout(() => r({a: [1, 2]}), 50))")
        .await
        .unwrap();
    assert_eq!(awaited.result, serde_json::json!({"a": [1, 2]}));
}

async fn tabs_open_switch_and_close(desktop: &DesktopApp) {
    let client = &desktop.app.client;
    let before = client.tabs().await.unwrap().tabs;
    let first = before.iter().find(|t| t.active).unwrap().clone();
    let second = client
        .open_tab(Some(&format!("{}/second", desktop.site)))
        .await
        .unwrap();
    wait_for_title(desktop, "Second").await;
    let tabs = client.tabs().await.unwrap().tabs;
    assert_eq!(tabs.len(), before.len() + 1, "{tabs:?}");
    assert!(tabs.iter().any(|t| t.tab_id == second.tab_id && t.active));

    let console = client.console_log().await.unwrap();
    assert!(
        console
            .messages
            .iter()
            .any(|m| m.level == "exception" && m.text.contains("undefinedFn")),
        "{console:?}"
    );

    let switched = client.switch_tab(&first.tab_id).await.unwrap();
    assert_eq!(switched.tab_id, first.tab_id);
    let left = client.close_tab(&second.tab_id).await.unwrap();
    assert_eq!(left.tabs.len(), before.len());
    assert!(left.tabs.iter().any(|t| t.tab_id == first.tab_id && t.active));
    expect_code(client.switch_tab("no-such-tab").await, ErrorCode::NotFound);
}

async fn downloads_land_in_the_workspace(desktop: &DesktopApp) {
    let client = &desktop.app.client;
    let page = NavigateRequest {
        url: format!("{}/downloads", desktop.site),
        timeout_secs: None,
    };
    client.navigate(&page).await.unwrap();
    let view = client
        .view_page(&ViewRequest {
            no_screenshot: true,
            ..Default::default()
        })
        .await
        .unwrap();
    let link = view
        .elements
        .iter()
        .find(|e| e.text == "Get the report")
        .unwrap()
        .index;
    client
        .click(&ClickRequest {
            index: Some(link),
            ..Default::default()
        })
        .await
        .unwrap();
    let saved = desktop.app.path("Downloads/report.txt");
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::fs::read_to_string(&saved).ok().as_deref() != Some("quarterly numbers\n") {
        assert!(
            Instant::now() < deadline,
            "no {} after the click",
            saved.display()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn a_killed_browser_is_restarted(desktop: &DesktopApp) {
    let client = &desktop.app.client;
    let info = client.info().await.unwrap().desktop.unwrap();
    let browser = info.processes.iter().find(|p| p.name == "browser").unwrap();
    assert_eq!(browser.state, ProcessState::Running);
    let pid = browser.pid.unwrap() as i32;
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGKILL).unwrap();

    // The next action fails promptly with a clear error, or finds the new browser.
    let started = Instant::now();
    let during = client
        .view_page(&ViewRequest {
            no_screenshot: true,
            ..Default::default()
        })
        .await;
    assert!(started.elapsed() < Duration::from_secs(16));
    if let Err(err) = during {
        assert_eq!(err.code(), Some(ErrorCode::BrowserUnavailable), "{err}");
    }

    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let info = client.info().await.unwrap().desktop.unwrap();
        let browser = info.processes.iter().find(|p| p.name == "browser").unwrap();
        if browser.restarts >= 1 && browser.state == ProcessState::Running && info.readiness.browser {
            assert!(browser.last_exit.as_deref().unwrap().contains("9"), "{browser:?}");
            break;
        }
        assert!(Instant::now() < deadline, "browser not restarted: {info:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let page = open_site(desktop).await;
    assert_eq!(page.title, "Order form");

    // An explicit restart works too and leaves a working browser.
    client.restart_browser().await.unwrap();
    let page = open_site(desktop).await;
    assert_eq!(page.title, "Order form");
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
