//! MCP stdio servers through the typed client's relay: the published reference server
//! (`server-everything`, Node.js) end to end, then the edges with small shell scripts —
//! lines both ways, a missing command, a process that exits at once, a line over the
//! limit, a client that leaves, a sandbox running its most servers, and programs a user
//! other than root could have changed (backend-api's `mcp_sandbox` plants one in a real
//! sandbox).

use crate::support;

use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use serde_json::json;
use support::mcp::{self, next_message, shell, Session};
use support::{alive, eventually, expect_code, spawn_app, spawn_app_with};
use tool_api_client::{ClientError, StdioClose};
use tool_api_contract::mcp::StdioStart;
use tool_api_contract::ErrorCode;

#[tokio::test]
async fn the_reference_server_initializes_lists_its_tools_and_echoes() {
    let app = spawn_app().await;
    let script = mcp::servers_dir().join("node_modules").join(mcp::EVERYTHING);
    let relay = app
        .client
        .mcp_stdio(&mcp::everything(script.to_str().unwrap()))
        .await
        .unwrap();
    assert!(alive(relay.pid()));
    mcp::exercise_everything(&mut Session::new(relay)).await;
}

#[tokio::test]
async fn messages_are_lines_in_the_workspace_with_the_given_environment() {
    let app = spawn_app().await;
    let script =
        r#"printf '{"cwd":"%s","greeting":"%s","path":"%s"}\n' "$(pwd -P)" "$GREETING" "$PATH"; exec cat"#;
    let mut start = shell(script);
    start.env.insert("GREETING".into(), "hello".into());
    start
        .env
        .insert("PATH".into(), app.root().to_str().unwrap().into());
    let (mut sink, mut stream) = app.client.mcp_stdio(&start).await.unwrap().split();

    // PATH is the system's directories, whatever the tool-api's or the start's is.
    let first = next_message(&mut stream).await.unwrap();
    let workspace = app.root().canonicalize().unwrap();
    let system = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
    assert_eq!(
        first,
        json!({"cwd": workspace, "greeting": "hello", "path": system})
    );

    // A message with line breaks (JSON whitespace) still reaches stdin as one line; an
    // empty one becomes a blank line, which does not come back.
    for message in ["{\n  \"a\": 1\r\n}\n", "", r#"{"b":2}"#] {
        sink.send(message.into()).await.unwrap();
    }
    assert_eq!(next_message(&mut stream).await.unwrap(), json!({"a": 1}));
    assert_eq!(next_message(&mut stream).await.unwrap(), json!({"b": 2}));
}

#[tokio::test]
async fn a_command_that_is_not_there_is_refused_with_a_clear_message() {
    let app = spawn_app().await;
    let start = StdioStart {
        command: "no-such-mcp-server".into(),
        ..Default::default()
    };
    match app.client.mcp_stdio(&start).await.map(|relay| relay.pid()) {
        Err(ClientError::StdioStart(message)) => assert!(
            message.starts_with("no-such-mcp-server: command not found"),
            "{message}"
        ),
        other => panic!("expected a start error, got {other:?}"),
    }
    // The failed start gave its slot back.
    let relay = app.client.mcp_stdio(&shell("exec cat")).await.unwrap();
    assert!(alive(relay.pid()));
}

#[tokio::test]
async fn a_program_a_user_other_than_root_may_change_is_not_started() {
    use std::os::unix::fs::PermissionsExt;

    let app = spawn_app().await;
    // In the workspace (under /tmp here): a program that would answer if it ran.
    let planted = app.path("server");
    std::fs::write(&planted, "#!/bin/sh\necho '{\"planted\":true}'\nexec cat\n").unwrap();
    std::fs::set_permissions(&planted, std::fs::Permissions::from_mode(0o755)).unwrap();
    for (command, says) in [
        (
            planted.to_str().unwrap(),
            "can be changed by a user other than root",
        ),
        ("./server", "./server: a relative path"),
    ] {
        let start = StdioStart {
            command: command.into(),
            ..Default::default()
        };
        match app.client.mcp_stdio(&start).await.map(|relay| relay.pid()) {
            Err(ClientError::StdioStart(message)) => assert!(message.contains(says), "{message}"),
            other => panic!("{command} must not start, got {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_server_that_exits_closes_the_relay_with_its_status_and_stderr() {
    let app = spawn_app().await;
    let relay = app
        .client
        .mcp_stdio(&shell("echo boom >&2; exit 3"))
        .await
        .unwrap();
    let (_sink, mut stream) = relay.split();
    let reason = stream.close_reason();
    assert!(next_message(&mut stream).await.is_none());
    assert_eq!(
        reason.get(),
        Some(&StdioClose {
            code: 1000,
            reason: "exited with status 3: boom".into()
        })
    );
}

#[tokio::test]
async fn a_line_over_the_limit_closes_the_relay_and_stops_the_server() {
    let app = spawn_app_with(|settings| settings.limits.mcp_stdio_message_max_bytes = 1000).await;
    let script = r#"echo '{"short":true}'; head -c 5000 /dev/zero | tr '\0' x; echo; exec sleep 300"#;
    let relay = app.client.mcp_stdio(&shell(script)).await.unwrap();
    let pid = relay.pid();
    let (_sink, mut stream) = relay.split();
    assert_eq!(next_message(&mut stream).await.unwrap(), json!({"short": true}));
    assert!(next_message(&mut stream).await.is_none());
    let close = stream.close_reason().get().cloned().unwrap();
    assert_eq!(close.code, 1009, "{close:?}");
    assert!(
        close
            .reason
            .starts_with("wrote a message over the 1000 byte limit, so it was stopped"),
        "{close:?}"
    );
    eventually("the server stopped", || !alive(pid)).await;
}

#[tokio::test]
async fn leaving_kills_the_server_and_what_it_started() {
    let app = spawn_app().await;
    let relay = app
        .client
        .mcp_stdio(&shell(r#"sleep 300 & echo "{\"sleeper\":$!}"; exec cat"#))
        .await
        .unwrap();
    let pid = relay.pid();
    let (sink, mut stream) = relay.split();
    let sleeper = next_message(&mut stream).await.unwrap()["sleeper"]
        .as_u64()
        .unwrap() as u32;
    assert!(alive(pid) && alive(sleeper));
    drop((sink, stream));
    eventually("the server and its child were killed", || {
        !alive(pid) && !alive(sleeper)
    })
    .await;
}

#[tokio::test]
async fn a_sandbox_runs_sixteen_servers_and_refuses_the_seventeenth() {
    let app = spawn_app().await;
    let cat = shell("exec cat");
    let mut relays = Vec::new();
    for _ in 0..16 {
        relays.push(app.client.mcp_stdio(&cat).await.unwrap());
    }
    let refused = app.client.mcp_stdio(&cat).await.map(|relay| relay.pid());
    let message = expect_code(refused, ErrorCode::LimitReached);
    assert!(message.contains("16 MCP stdio servers"), "{message}");

    // One leaves; its slot is free again once tool-api has seen it go.
    drop(relays.pop());
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        match app.client.mcp_stdio(&cat).await {
            Ok(relay) => break assert!(alive(relay.pid())),
            Err(err) if err.code() == Some(ErrorCode::LimitReached) => {
                assert!(Instant::now() < deadline, "no slot freed within 5 s");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(err) => panic!("{err}"),
        }
    }
}

#[tokio::test]
async fn binary_frames_are_refused_with_a_reason() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    use tokio_tungstenite::tungstenite::Message;

    let app = spawn_app().await;
    let url = format!("{}/v1/mcp/stdio", app.base.replacen("http", "ws", 1));
    let mut request = url.into_client_request().unwrap();
    request.headers_mut().insert(
        "authorization",
        format!("Bearer {}", support::TOKEN).parse().unwrap(),
    );
    let (mut socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let start = serde_json::to_string(&shell("exec cat")).unwrap();
    socket.send(Message::Text(start.into())).await.unwrap();
    let started = socket.next().await.unwrap().unwrap();
    assert!(
        started.to_text().unwrap().contains(r#""type":"started""#),
        "{started:?}"
    );
    socket.send(Message::Binary(b"{}".to_vec().into())).await.unwrap();
    match socket.next().await.unwrap().unwrap() {
        Message::Close(Some(frame)) => {
            assert_eq!(u16::from(frame.code), 1003);
            assert!(frame.reason.contains("text frame"), "{frame:?}");
        }
        other => panic!("expected a close frame, got {other:?}"),
    }
}
