//! The browser's tools in sequence on one desktop.

use super::forms::{browser_fills_a_form, browser_reports_errors_clearly};
use super::*;

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
