//! The live desktop: tickets and the WebSocket relay. Refusals (no ticket, unknown,
//! replayed, expired, another session's, another person's, for a deleted session, a
//! foreign page) are checked
//! without any sandbox, which shows they happen before one is contacted. Then, with the
//! real sandbox-manager and a sandbox: a real RFB handshake through the relay in both
//! modes, a click that reaches the page only in control mode, and the agent paused while
//! the person has the desktop; removing the sandbox closes the browser's side. Asking
//! whether the desktop runs starts nothing: no sandbox, no desktop.

use crate::support;

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use reqwest::{Method, StatusCode};
use serde_json::json;
use support::live::{assert_agent_held, assert_run_completes, connect, refused, ticket, Live, Socket};
use support::TestApp;
use tokio_tungstenite::tungstenite::Message;
use tool_api_client::contract::browser::NavigateRequest;
use tool_api_client::contract::files::WriteFileRequest;
use tool_api_client::contract::info::DesktopState;

#[tokio::test]
async fn tickets_are_refused_before_any_sandbox_is_contacted() {
    // No sandbox-manager: a ticket that passed every check would end in 503.
    let app = TestApp::spawn(&[
        ("http.cors_origins", "https://app.example.org"),
        ("http.vnc_ticket_secs", "3"),
    ])
    .await;
    let (ada, _, _) = app.register("ada@example.org").await;
    let (bob, _, _) = app.register("bob@example.org").await;
    let session = app.new_session(&ada).await;
    let other = app.new_session(&ada).await;
    let bobs = app.new_session(&bob).await;
    let url = |session: &str, ticket: &str| format!("/api/v1/sessions/{session}/vnc?ticket={ticket}");

    // Bad requests for a ticket.
    for (body, status) in [
        (json!({ "mode": "drive" }), StatusCode::UNPROCESSABLE_ENTITY),
        (json!({}), StatusCode::UNPROCESSABLE_ENTITY),
    ] {
        app.expect(
            status,
            Method::POST,
            &format!("/api/v1/sessions/{session}/vnc/tickets"),
            Some(&ada),
            Some(body),
        )
        .await;
    }
    app.expect(
        StatusCode::NOT_FOUND,
        Method::POST,
        &format!("/api/v1/sessions/{session}/vnc/tickets"),
        Some(&bob),
        Some(json!({ "mode": "view" })),
    )
    .await;
    app.expect(
        StatusCode::UNAUTHORIZED,
        Method::POST,
        &format!("/api/v1/sessions/{session}/vnc/tickets"),
        None,
        Some(json!({ "mode": "view" })),
    )
    .await;

    // Missing and unknown tickets.
    assert_eq!(
        refused(&app, &format!("/api/v1/sessions/{session}/vnc"), None).await,
        (StatusCode::UNAUTHORIZED, "unauthorized".into())
    );
    assert_eq!(
        refused(&app, &url(&session, "not-a-ticket"), None).await,
        (StatusCode::UNAUTHORIZED, "unauthorized".into())
    );

    // A page from elsewhere is refused, and that does not use the ticket up.
    let view = ticket(&app, &ada, &session, "view").await;
    assert_eq!(
        refused(&app, &url(&session, &view), Some("https://evil.example.com")).await,
        (StatusCode::FORBIDDEN, "forbidden".into())
    );
    // The ticket passes every check from the front end's origin: only the missing
    // sandbox stops it (503) — and it is used up.
    assert_eq!(
        refused(&app, &url(&session, &view), Some("https://app.example.org")).await,
        (StatusCode::SERVICE_UNAVAILABLE, "unavailable".into())
    );
    assert_eq!(
        refused(&app, &url(&session, &view), None).await,
        (StatusCode::UNAUTHORIZED, "unauthorized".into()),
        "a ticket works once"
    );

    // Another session's ticket, and someone else's session.
    let for_other = ticket(&app, &ada, &other, "control").await;
    assert_eq!(
        refused(&app, &url(&session, &for_other), None).await,
        (StatusCode::FORBIDDEN, "forbidden".into())
    );
    let bobs_ticket = ticket(&app, &bob, &bobs, "view").await;
    assert_eq!(
        refused(&app, &url(&session, &bobs_ticket), None).await,
        (StatusCode::FORBIDDEN, "forbidden".into())
    );
    // A ticket whose session is gone by the time it is used (its person no longer owns it).
    let doomed = app.new_session(&ada).await;
    let for_doomed = ticket(&app, &ada, &doomed, "view").await;
    app.expect(
        StatusCode::NO_CONTENT,
        Method::DELETE,
        &format!("/api/v1/sessions/{doomed}"),
        Some(&ada),
        None,
    )
    .await;
    assert_eq!(
        refused(&app, &url(&doomed, &for_doomed), None).await,
        (StatusCode::NOT_FOUND, "not_found".into())
    );

    // Whether the desktop runs: the owner's to ask; no manager, no sandbox.
    let state_of = |session: &str| format!("/api/v1/sessions/{session}/desktop");
    let state = app
        .expect(StatusCode::OK, Method::GET, &state_of(&session), Some(&ada), None)
        .await;
    assert_eq!(state, json!({ "state": "no_sandbox" }));
    app.expect(
        StatusCode::NOT_FOUND,
        Method::GET,
        &state_of(&session),
        Some(&bob),
        None,
    )
    .await;
    app.expect(
        StatusCode::UNAUTHORIZED,
        Method::GET,
        &state_of(&session),
        None,
        None,
    )
    .await;
    app.expect(
        StatusCode::NOT_FOUND,
        Method::GET,
        &state_of("not-a-session"),
        Some(&ada),
        None,
    )
    .await;

    // Expired (this server's tickets live 3 s).
    let late = app
        .expect(
            StatusCode::CREATED,
            Method::POST,
            &format!("/api/v1/sessions/{session}/vnc/tickets"),
            Some(&ada),
            Some(json!({ "mode": "view" })),
        )
        .await;
    assert_eq!(late["expires_in_secs"], 3);
    tokio::time::sleep(Duration::from_millis(3500)).await;
    assert_eq!(
        refused(&app, &url(&session, late["ticket"].as_str().unwrap()), None).await,
        (StatusCode::UNAUTHORIZED, "unauthorized".into())
    );

    // Not a WebSocket request at all.
    let plain = app
        .expect(
            StatusCode::BAD_REQUEST,
            Method::GET,
            &url(&session, "x"),
            None,
            None,
        )
        .await;
    assert_eq!(plain["error"]["code"], "malformed_request");
}

/// The client's half of RFB 3.8 through the relay: no password is asked for.
async fn rfb_handshake(socket: &mut Socket) -> (u16, u16) {
    let mut rfb = Rfb {
        socket,
        buffer: Vec::new(),
    };
    assert_eq!(rfb.read(12).await, b"RFB 003.008\n");
    rfb.send(b"RFB 003.008\n").await;
    assert_eq!(rfb.read(2).await, [1, 1], "one security type: none");
    rfb.send(&[1]).await;
    assert_eq!(rfb.read(4).await, [0, 0, 0, 0], "security result: ok");
    rfb.send(&[0]).await; // ClientInit (the relay makes it shared anyway)
    let init = rfb.read(24).await;
    let width = u16::from_be_bytes([init[0], init[1]]);
    let height = u16::from_be_bytes([init[2], init[3]]);
    let name_length = u32::from_be_bytes([init[20], init[21], init[22], init[23]]) as usize;
    rfb.read(name_length).await;
    assert!(rfb.buffer.is_empty());
    (width, height)
}

struct Rfb<'a> {
    socket: &'a mut Socket,
    buffer: Vec<u8>,
}

impl Rfb<'_> {
    async fn read(&mut self, n: usize) -> Vec<u8> {
        while self.buffer.len() < n {
            let message = tokio::time::timeout(Duration::from_secs(10), self.socket.next())
                .await
                .expect("the desktop answers within 10 s")
                .expect("the relay is open")
                .expect("a WebSocket message");
            match message {
                Message::Binary(bytes) => self.buffer.extend_from_slice(&bytes),
                // Keep-alives, answered by the WebSocket library.
                Message::Ping(_) | Message::Pong(_) => {}
                other => panic!("RFB comes in binary messages, not {other:?}"),
            }
        }
        self.buffer.drain(..n).collect()
    }

    async fn send(&mut self, bytes: &[u8]) {
        self.socket
            .send(Message::Binary(bytes.to_vec().into()))
            .await
            .unwrap();
    }
}

async fn click_center(socket: &mut Socket) {
    let (x, y) = (640u16.to_be_bytes(), 450u16.to_be_bytes());
    for mask in [0u8, 1, 0] {
        let pointer = [5, mask, x[0], x[1], y[0], y[1]];
        socket
            .send(Message::Binary(pointer.to_vec().into()))
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn the_relay_speaks_rfb_in_both_modes_and_only_control_reaches_the_desktop() {
    let Live {
        llm,
        manager,
        app,
        token,
        session,
    } = Live::start("Done while you were away.").await;
    let desktop_state = || async {
        let path = format!("/api/v1/sessions/{session}/desktop");
        let answer = app
            .expect(StatusCode::OK, Method::GET, &path, Some(&token), None)
            .await;
        answer["state"].as_str().unwrap().to_owned()
    };

    // Asked before anything used the session, the state creates no sandbox.
    assert_eq!(desktop_state().await, "no_sandbox");
    let sandboxes = manager.client().list(&Default::default()).await.unwrap();
    assert!(sandboxes.iter().all(|s| s.session_id != session), "{sandboxes:?}");

    // A page that records a click in its title.
    let tickets = app
        .expect(
            StatusCode::CREATED,
            Method::POST,
            &format!("/api/v1/sessions/{session}/vnc/tickets"),
            Some(&token),
            Some(json!({ "mode": "view" })),
        )
        .await;
    assert_eq!(tickets["expires_in_secs"], 30, "tickets live 30 s by default");
    let mut watcher = connect(&app, &token, &session, "view").await;
    let sandbox = manager.tool_api(&session).await;
    sandbox
        .write_file(&WriteFileRequest {
            path: "click.html".into(),
            content: "<title>waiting</title><body style='margin:0;height:100vh' \
                      onmousedown=\"document.title='clicked'\"><h1>Click anywhere</h1></body>"
                .into(),
            append: false,
        })
        .await
        .unwrap();
    sandbox
        .navigate(&NavigateRequest {
            url: "file:///home/sandbox/workspace/click.html".into(),
            timeout_secs: None,
        })
        .await
        .unwrap();
    let title = || async { sandbox.evaluate("document.title").await.unwrap().result };
    assert_eq!(desktop_state().await, "running");

    // View: the handshake works, a click is dropped, and the connection is still there
    // afterwards (the screen can be read), so the click was dropped, not the watcher.
    let (width, height) = rfb_handshake(&mut watcher).await;
    assert_eq!((width, height), (1280, 800));
    click_center(&mut watcher).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(title().await, "waiting", "a watcher's click reached the page");
    let [w0, w1] = width.to_be_bytes();
    let [h0, h1] = height.to_be_bytes();
    let mut rfb = Rfb {
        socket: &mut watcher,
        buffer: Vec::new(),
    };
    rfb.send(&[3, 0, 0, 0, 0, 0, w0, w1, h0, h1]).await;
    assert_eq!(rfb.read(4).await[0], 0, "a FramebufferUpdate answers the request");
    drop(rfb);
    watcher.close(None).await.unwrap();

    // Control: the click goes through, and the agent waits while the person drives.
    let mut driver = connect(&app, &token, &session, "control").await;
    rfb_handshake(&mut driver).await;
    click_center(&mut driver).await;
    let mut clicked = false;
    for _ in 0..50 {
        if title().await == "clicked" {
            clicked = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(clicked, "the controller's click did not reach the page");

    let mut events = app.events(&token, &session, None).await;
    app.post_message(&token, &session, "Carry on when I'm done").await;
    assert_agent_held(&llm, "the agent asked the model while the person had the desktop").await;
    driver.close(None).await.unwrap();
    drop(driver);
    assert_run_completes(&mut events, "Done while you were away.").await;
    assert_eq!(llm.requests().len(), 1);

    // A stopped desktop is reported so, and asking does not start it again.
    sandbox.stop_desktop().await.unwrap();
    assert_eq!(desktop_state().await, "stopped");
    assert_eq!(desktop_state().await, "stopped");
    let health = sandbox.health().await.unwrap();
    assert_eq!(health.desktop.unwrap().state, DesktopState::Stopped);

    // When the desktop goes away, the browser's side is closed too.
    let mut watcher = connect(&app, &token, &session, "view").await;
    rfb_handshake(&mut watcher).await;
    manager.remove_container_of(&session);
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match watcher.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(
        ended.is_ok(),
        "the relay stayed open after the sandbox was removed"
    );
}
