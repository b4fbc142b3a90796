//! The sandbox's terminal through the backend: tickets (which only open the terminal,
//! and which a bad size does not use up) are checked without any sandbox; then, with the
//! real sandbox-manager and a sandbox, a shell answers typed input, follows a resize,
//! holds the agent while any terminal is open (until its shell exits or the browser
//! leaves), and reports its exit status.

use crate::support;

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use support::live::{
    assert_agent_held, assert_run_completes, open, refused, terminal_ticket, ticket, Live, Socket,
};
use support::TestApp;
use tokio_tungstenite::tungstenite::Message;
use tool_api_client::contract::files::ReadFileRequest;

#[tokio::test]
async fn terminal_tickets_are_refused_before_any_sandbox_is_contacted() {
    // No sandbox-manager: a ticket that passed every check would end in 503.
    let app = TestApp::spawn(&[("http.cors_origins", "https://app.example.org")]).await;
    let (ada, _, _) = app.register("ada@example.org").await;
    let (bob, _, _) = app.register("bob@example.org").await;
    let session = app.new_session(&ada).await;
    let url = |ticket: &str, size: &str| format!("/api/v1/sessions/{session}/terminal?ticket={ticket}{size}");

    // Only the session's owner, signed in, gets a ticket.
    for (token, status) in [
        (Some(&bob), StatusCode::NOT_FOUND),
        (None, StatusCode::UNAUTHORIZED),
    ] {
        app.expect(
            status,
            Method::POST,
            &format!("/api/v1/sessions/{session}/terminal/tickets"),
            token.map(String::as_str),
            None,
        )
        .await;
    }
    assert_eq!(
        refused(&app, &format!("/api/v1/sessions/{session}/terminal"), None).await,
        (StatusCode::UNAUTHORIZED, "unauthorized".into())
    );

    // A desktop ticket does not open the terminal, nor the other way round; both are spent.
    let desktop = ticket(&app, &ada, &session, "control").await;
    assert_eq!(
        refused(&app, &url(&desktop, ""), None).await,
        (StatusCode::FORBIDDEN, "forbidden".into())
    );
    let terminal = terminal_ticket(&app, &ada, &session).await;
    assert_eq!(
        refused(
            &app,
            &format!("/api/v1/sessions/{session}/vnc?ticket={terminal}"),
            None
        )
        .await,
        (StatusCode::FORBIDDEN, "forbidden".into())
    );
    assert_eq!(
        refused(&app, &url(&terminal, ""), None).await,
        (StatusCode::UNAUTHORIZED, "unauthorized".into())
    );

    // A size no PTY takes, a foreign page: refused, and the ticket is still good.
    let terminal = terminal_ticket(&app, &ada, &session).await;
    for size in ["&cols=0", "&rows=1001", "&cols=80&rows=0", "&cols=70000"] {
        assert_eq!(
            refused(&app, &url(&terminal, size), None).await,
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid".into()),
            "{size}"
        );
    }
    assert_eq!(
        refused(&app, &url(&terminal, "&cols=lots"), None).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        refused(&app, &url(&terminal, ""), Some("https://evil.example.com")).await,
        (StatusCode::FORBIDDEN, "forbidden".into())
    );
    assert_eq!(
        refused(&app, &url(&terminal, ""), Some("https://app.example.org")).await,
        (StatusCode::SERVICE_UNAVAILABLE, "unavailable".into()),
        "only the missing sandbox stops a good ticket"
    );
}

/// Reads from the relay until the screen so far contains `wanted`; returns it all.
async fn read_until(socket: &mut Socket, wanted: &str) -> String {
    let mut screen = String::new();
    let read = async {
        while let Some(message) = socket.next().await {
            match message.unwrap() {
                Message::Binary(data) => screen.push_str(&String::from_utf8_lossy(&data)),
                Message::Text(text) => panic!("a control message before {wanted:?}: {text}"),
                _ => {}
            }
            if screen.contains(wanted) {
                return;
            }
        }
        panic!("the terminal closed before {wanted:?}");
    };
    if tokio::time::timeout(Duration::from_secs(15), read).await.is_err() {
        panic!("no {wanted:?} within 15 s; the screen: {screen:?}");
    }
    screen
}

async fn connect(app: &TestApp, token: &str, session: &str, size: &str) -> Socket {
    let ticket = terminal_ticket(app, token, session).await;
    let path = format!("/api/v1/sessions/{session}/terminal?ticket={ticket}{size}");
    open(app, &path, None)
        .await
        .unwrap_or_else(|refusal| panic!("a terminal: {refusal:?}"))
}

#[tokio::test]
async fn a_shell_in_the_sandbox_answers_resizes_and_holds_the_agent() {
    let Live {
        llm,
        manager,
        app,
        token,
        session,
    } = Live::start("Done after your terminal session.").await;

    // Typed input (binary) and input in a control message both reach the shell, which
    // runs in the workspace at the size asked for.
    let mut shell = connect(&app, &token, &session, "&cols=100&rows=30").await;
    shell
        .send(Message::Binary("echo $((6 * 7)); pwd; stty size\r".into()))
        .await
        .unwrap();
    let screen = read_until(&mut shell, "30 100").await;
    assert!(screen.contains("42"), "{screen:?}");
    assert!(screen.contains("/home/sandbox/workspace"), "{screen:?}");
    let resize = json!({ "type": "resize", "cols": 132, "rows": 40 }).to_string();
    shell.send(Message::Text(resize.into())).await.unwrap();
    let typed = json!({ "type": "input", "data": "stty size\r" }).to_string();
    shell.send(Message::Text(typed.into())).await.unwrap();
    read_until(&mut shell, "40 132").await;

    // What the person does lands in the sandbox's workspace.
    shell
        .send(Message::Binary("echo typed-by-hand > by-hand.txt\r".into()))
        .await
        .unwrap();
    let sandbox = manager.tool_api(&session).await;
    let mut written = None;
    for _ in 0..50 {
        let request = ReadFileRequest {
            path: "by-hand.txt".into(),
            ..Default::default()
        };
        if let Ok(file) = sandbox.read_file(&request).await {
            written = Some(file.content);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(written.as_deref(), Some("typed-by-hand\n"));

    // The agent waits while the terminal is open.
    let mut events = app.events(&token, &session, None).await;
    app.post_message(&token, &session, "Carry on when I'm done").await;
    assert_agent_held(
        &llm,
        "the agent asked the model while the person had the terminal",
    )
    .await;

    // A second terminal holds the agent too. `exit 3` in the first: the exit message,
    // then the relay closes — and the agent still waits for the second.
    let mut second = connect(&app, &token, &session, "").await;
    shell.send(Message::Binary("exit 3\r".into())).await.unwrap();
    let ending = tokio::time::timeout(Duration::from_secs(15), async {
        let mut exit = None;
        while let Some(Ok(message)) = shell.next().await {
            match message {
                Message::Text(text) => exit = Some(serde_json::from_str::<Value>(&text).unwrap()),
                Message::Close(_) => break,
                _ => {}
            }
        }
        exit
    })
    .await
    .expect("the relay closes after the shell exits");
    assert_eq!(ending, Some(json!({ "type": "exit", "code": 3 })));
    assert_agent_held(&llm, "the agent went on while a terminal was still open").await;

    // The browser leaving the second terminal lets the agent go on.
    second.close(None).await.unwrap();
    drop(second);
    assert_run_completes(&mut events, "Done after your terminal session.").await;
}
