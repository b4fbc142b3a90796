//! The interactive terminal: a real bash on a real PTY, over a real WebSocket.

use crate::support;

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use support::{spawn_app, TOKEN};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tool_api_contract::shell::{TerminalClientMessage, TerminalServerMessage};

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(url: &str, token: Option<&str>) -> Result<Socket, tokio_tungstenite::tungstenite::Error> {
    let mut request = url.into_client_request().unwrap();
    if let Some(token) = token {
        request
            .headers_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
    }
    Ok(tokio_tungstenite::connect_async(request).await?.0)
}

async fn send(socket: &mut Socket, message: &TerminalClientMessage) {
    let text = serde_json::to_string(message).unwrap();
    socket.send(Message::Text(text.into())).await.unwrap();
}

/// Reads frames until the terminal output contains `needle`; returns the output so far.
async fn read_until(socket: &mut Socket, needle: &str) -> String {
    let mut seen = String::new();
    let deadline = tokio::time::sleep(Duration::from_secs(10));
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            frame = socket.next() => match frame {
                Some(Ok(Message::Binary(bytes))) => seen.push_str(&String::from_utf8_lossy(&bytes)),
                Some(Ok(Message::Text(text))) => seen.push_str(&text),
                Some(Ok(_)) => {}
                other => panic!("socket ended ({other:?}) before {needle:?}; saw {seen:?}"),
            },
            _ = &mut deadline => panic!("no {needle:?} within 10 s; saw {seen:?}"),
        }
        if seen.contains(needle) {
            return seen;
        }
    }
}

#[tokio::test]
async fn the_terminal_echoes_input_resizes_and_reports_exit() {
    let app = spawn_app().await;
    let url = app.client.terminal_url(80, 24);
    let mut socket = connect(&url, Some(TOKEN)).await.unwrap();

    // Raw bytes and JSON input both reach the shell; the arithmetic proves bash ran it.
    socket
        .send(Message::Binary(b"echo typed-$((40+2))\n".to_vec().into()))
        .await
        .unwrap();
    read_until(&mut socket, "typed-42").await;
    send(
        &mut socket,
        &TerminalClientMessage::Input {
            data: "echo json-$((6*7))\n".into(),
        },
    )
    .await;
    read_until(&mut socket, "json-42").await;

    send(
        &mut socket,
        &TerminalClientMessage::Resize { cols: 100, rows: 40 },
    )
    .await;
    send(
        &mut socket,
        &TerminalClientMessage::Input {
            data: "stty size\n".into(),
        },
    )
    .await;
    read_until(&mut socket, "40 100").await;

    socket.send(Message::Text("not json".into())).await.unwrap();
    let reply = read_until(&mut socket, "\"type\":\"error\"").await;
    assert!(reply.contains("unreadable control message"));

    send(
        &mut socket,
        &TerminalClientMessage::Input {
            data: "exit 7\n".into(),
        },
    )
    .await;
    let tail = read_until(&mut socket, "\"type\":\"exit\"").await;
    let exit_json = &tail[tail.find("{\"type\":\"exit\"").unwrap()..];
    let exit: TerminalServerMessage = serde_json::from_str(exit_json.lines().next().unwrap()).unwrap();
    assert_eq!(exit, TerminalServerMessage::Exit { code: Some(7) });
}

#[tokio::test]
async fn the_terminal_needs_the_token_and_sane_parameters() {
    let app = spawn_app().await;
    let url = app.client.terminal_url(80, 24);
    let refused = connect(&url, None).await.expect_err("no token, no terminal");
    assert!(refused.to_string().contains("401"), "{refused}");

    let zero = app.client.terminal_url(0, 24);
    let refused = connect(&zero, Some(TOKEN)).await.expect_err("zero columns");
    assert!(refused.to_string().contains("422"), "{refused}");

    let missing = format!("{url}&cwd=does-not-exist");
    let refused = connect(&missing, Some(TOKEN)).await.expect_err("missing cwd");
    assert!(refused.to_string().contains("404"), "{refused}");
}
