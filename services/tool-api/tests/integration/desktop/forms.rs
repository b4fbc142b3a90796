//! Steps of the sequence: a form filled through the browser's tools, and the errors
//! they report.

use super::*;

pub(super) async fn browser_fills_a_form(desktop: &DesktopApp) {
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

pub(super) async fn browser_reports_errors_clearly(desktop: &DesktopApp) {
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
