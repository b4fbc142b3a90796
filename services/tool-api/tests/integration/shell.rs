//! Shell sessions through HTTP against the real server and real processes.

use crate::support;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use support::sse::SseReader;
use support::{alive, expect_code, output_of, spawn_app, spawn_app_with};
use tool_api_contract::shell::{CommandState, ExecRequest, ShellSnapshot};
use tool_api_contract::ErrorCode;

fn run(command: &str) -> ExecRequest {
    ExecRequest {
        command: command.into(),
        ..Default::default()
    }
}

fn run_for(command: &str, timeout_secs: f64) -> ExecRequest {
    ExecRequest {
        timeout_secs: Some(timeout_secs),
        ..run(command)
    }
}

#[tokio::test]
async fn exec_returns_output_and_exit_code() {
    let app = spawn_app().await;
    let done = app
        .client
        .exec("main", &run("echo hi; echo oops >&2; exit 3"))
        .await
        .unwrap();
    assert_eq!(done.state, CommandState::Exited);
    assert_eq!(done.exit_code, Some(3));
    assert_eq!(done.output, "hi\noops\n");
    assert_eq!(done.command, "echo hi; echo oops >&2; exit 3");
    assert!(done.finished_at_ms.unwrap() >= done.started_at_ms);
    assert!(!done.truncated);
}

#[tokio::test]
async fn exec_uses_cwd_env_and_the_workspace_by_default() {
    let app = spawn_app().await;
    std::fs::create_dir(app.path("sub")).unwrap();
    let here = app.client.exec("a", &run("pwd")).await.unwrap();
    assert_eq!(here.output.trim(), app.root().display().to_string());

    let request = ExecRequest {
        command: "pwd; echo $GREETING".into(),
        cwd: Some("sub".into()),
        env: BTreeMap::from([("GREETING".into(), "hello there".into())]),
        timeout_secs: None,
    };
    let there = app.client.exec("a", &request).await.unwrap();
    assert_eq!(
        there.output,
        format!("{}\nhello there\n", app.path("sub").display())
    );

    let missing = ExecRequest {
        cwd: Some("nope".into()),
        ..run("true")
    };
    expect_code(app.client.exec("a", &missing).await, ErrorCode::NotFound);
    std::fs::write(app.path("file"), "x").unwrap();
    let file = ExecRequest {
        cwd: Some("file".into()),
        ..run("true")
    };
    expect_code(app.client.exec("a", &file).await, ErrorCode::WrongKind);
}

#[tokio::test]
async fn a_command_that_outlives_its_wait_goes_on_and_is_viewed_later() {
    let app = spawn_app().await;
    let started = Instant::now();
    let first = app
        .client
        .exec("slow", &run_for("echo begin; sleep 3; echo end", 1.0))
        .await
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "exec must answer after its wait"
    );
    assert_eq!(first.state, CommandState::Running);
    assert_eq!(first.output, "begin\n");
    assert_eq!(first.exit_code, None);

    // A second command in the same session is refused while the first runs.
    expect_code(
        app.client.exec("slow", &run("true")).await,
        ErrorCode::SessionBusy,
    );

    let viewed = app.client.view("slow", false).await.unwrap();
    assert_eq!(viewed.state, CommandState::Running);
    let listed = app.client.list_sessions().await.unwrap();
    assert!(listed
        .sessions
        .iter()
        .any(|s| s.session == "slow" && s.state == CommandState::Running));

    let done = app.client.wait("slow", Some(5.0)).await.unwrap();
    assert_eq!(done.state, CommandState::Exited);
    assert_eq!(done.output, "begin\nend\n");
    assert_eq!(
        app.client.view("slow", false).await.unwrap().output,
        "begin\nend\n"
    );

    // The console keeps every command with its prompt.
    app.client.exec("slow", &run("echo again")).await.unwrap();
    let console = app.client.view("slow", true).await.unwrap();
    assert_eq!(
        console.output,
        "$ echo begin; sleep 3; echo end\nbegin\nend\n$ echo again\nagain\n"
    );
}

#[tokio::test]
async fn input_reaches_a_waiting_command() {
    let app = spawn_app().await;
    let asking = app
        .client
        .exec("ask", &run_for("read -r name; echo \"hello $name\"", 0.1))
        .await
        .unwrap();
    assert_eq!(asking.state, CommandState::Running);
    app.client.write_input("ask", "Ada", true).await.unwrap();
    let done = app.client.wait("ask", Some(5.0)).await.unwrap();
    assert_eq!(done.output, "hello Ada\n");
    assert_eq!(done.exit_code, Some(0));
    expect_code(
        app.client.write_input("ask", "late", true).await,
        ErrorCode::NotRunning,
    );

    // Without Enter the input stays on the line until more comes.
    app.client
        .exec("ask", &run_for("read -r line; echo \"[$line]\"", 0.1))
        .await
        .unwrap();
    app.client.write_input("ask", "par", false).await.unwrap();
    assert_eq!(
        app.client.view("ask", false).await.unwrap().state,
        CommandState::Running
    );
    app.client.write_input("ask", "tial", true).await.unwrap();
    assert_eq!(
        app.client.wait("ask", Some(5.0)).await.unwrap().output,
        "[partial]\n"
    );
}

#[tokio::test]
async fn kill_ends_the_command_and_its_children() {
    let app = spawn_app().await;
    let script = "sleep 300 & echo $!; (sleep 300; echo never) & echo $!; sleep 300";
    app.client.exec("k", &run_for(script, 0.5)).await.unwrap();
    let output = output_of(&app.client, "k", 2).await;
    let children: Vec<u32> = output.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(children.len(), 2, "{output:?}");
    assert!(children.iter().all(|&pid| alive(pid)));

    let started = Instant::now();
    let killed = app.client.kill("k").await.unwrap();
    let killed_pid = killed.pid;
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(killed.state, CommandState::Killed);
    assert_eq!(killed.signal, Some(15));
    assert!(!alive(killed.pid));
    for pid in children {
        assert!(!alive(pid), "child {pid} survived the kill");
    }
    // Killing again is harmless; the session is reusable.
    assert_eq!(app.client.kill("k").await.unwrap().state, CommandState::Killed);
    let next = app.client.exec("k", &run("echo next")).await.unwrap();
    assert_eq!(next.output, "next\n");
    assert_ne!(next.pid, killed_pid, "a killed session gets a fresh shell");

    // A process that ignores SIGTERM is killed anyway.
    app.client
        .exec("stubborn", &run_for("trap '' TERM; echo armed; sleep 300", 0.2))
        .await
        .unwrap();
    output_of(&app.client, "stubborn", 1).await;
    let killed = app.client.kill("stubborn").await.unwrap();
    assert_eq!(killed.state, CommandState::Killed);
    assert_eq!(killed.signal, Some(9));

    // Deleting a session ends its idle shell too.
    app.client.delete_session("k").await.unwrap();
    expect_code(app.client.view("k", false).await, ErrorCode::NotFound);
    let deadline = Instant::now() + Duration::from_secs(3);
    while alive(next.pid) {
        assert!(
            Instant::now() < deadline,
            "the deleted session's shell {} is still alive",
            next.pid
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn fifty_sessions_run_at_once() {
    let app = spawn_app().await;
    let started = Instant::now();
    let runs = (0..60).map(|i| {
        let client = app.client.clone();
        async move {
            let request = ExecRequest {
                command: "sleep 0.5; echo $N".into(),
                env: BTreeMap::from([("N".into(), i.to_string())]),
                ..Default::default()
            };
            (i, client.exec(&format!("s{i}"), &request).await.unwrap())
        }
    });
    let results = futures::future::join_all(runs).await;
    // Sixty half-second sleeps in parallel, not one after another.
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    for (i, result) in results {
        assert_eq!(result.output, format!("{i}\n"));
        assert_eq!(result.exit_code, Some(0));
    }
    assert_eq!(app.client.list_sessions().await.unwrap().sessions.len(), 60);
}

#[tokio::test]
async fn output_is_bounded_with_a_marker() {
    let app = spawn_app_with(|s| s.limits.shell_buffer_bytes = 64 << 10).await;
    let done = app
        .client
        .exec(
            "big",
            &run("head -c 300000 /dev/zero | tr '\\0' a; echo; echo tail"),
        )
        .await
        .unwrap();
    assert!(done.truncated);
    assert!(done.output.starts_with("[… "), "{}", &done.output[..80]);
    assert!(done.output.ends_with("aaa\ntail\n"));
    assert!(done.output.len() < (64 << 10) + 100);
    assert!(done.offset > 300_000);
}

#[tokio::test]
async fn live_output_streams_and_resumes() {
    let app = spawn_app().await;
    let script = "for i in 1 2 3; do echo line$i; sleep 0.2; done";
    app.client.exec("live", &run_for(script, 0.0)).await.unwrap();
    let mut reader = SseReader::new(app.client.stream_output("live", None).await.unwrap());
    let mut text = String::new();
    let mut ids = Vec::new();
    let exit = loop {
        let event = reader.next().await.expect("stream ended before exit");
        match event.event.as_str() {
            "output" => {
                text.push_str(&serde_json::from_str::<String>(&event.data).unwrap());
                ids.push(event.id.unwrap().parse::<u64>().unwrap());
            }
            "exit" => break serde_json::from_str::<ShellSnapshot>(&event.data).unwrap(),
            other => panic!("unexpected event {other}"),
        }
    };
    assert_eq!(text, "line1\nline2\nline3\n");
    assert_eq!(exit.exit_code, Some(0));
    assert!(reader.next().await.is_none(), "the stream ends after exit");

    // Resuming from the first event's id replays exactly what came after it.
    let response = app
        .client
        .request(reqwest::Method::GET, "/v1/shell/sessions/live/stream")
        .header("Last-Event-ID", ids[0].to_string())
        .send()
        .await
        .unwrap();
    let mut reader = SseReader::new(response);
    let mut rest = String::new();
    while let Some(event) = reader.next().await {
        if event.event == "output" {
            rest.push_str(&serde_json::from_str::<String>(&event.data).unwrap());
        }
    }
    assert_eq!(format!("line1\n{rest}"), text);
}

#[tokio::test]
async fn bad_requests_get_clear_errors() {
    let app = spawn_app().await;
    expect_code(
        app.client.exec("bad id", &run("true")).await,
        ErrorCode::InvalidInput,
    );
    expect_code(
        app.client.exec(&"x".repeat(65), &run("true")).await,
        ErrorCode::InvalidInput,
    );
    expect_code(app.client.exec("s", &run("")).await, ErrorCode::InvalidInput);
    expect_code(
        app.client.exec("s", &run("echo a\0b")).await,
        ErrorCode::InvalidInput,
    );
    expect_code(
        app.client.exec("s", &run_for("true", -1.0)).await,
        ErrorCode::InvalidInput,
    );
    let bad_env = ExecRequest {
        env: BTreeMap::from([("A=B".into(), "x".into())]),
        ..run("true")
    };
    expect_code(app.client.exec("s", &bad_env).await, ErrorCode::InvalidInput);
    expect_code(app.client.view("never-used", false).await, ErrorCode::NotFound);
    expect_code(app.client.wait("never-used", None).await, ErrorCode::NotFound);
    expect_code(app.client.kill("never-used").await, ErrorCode::NotFound);
    expect_code(
        app.client.stream_output("never-used", None).await,
        ErrorCode::NotFound,
    );

    // A huge timeout is capped, not an error, and a quick command still answers at once.
    let quick = app.client.exec("s", &run_for("echo ok", 1e300)).await.unwrap();
    assert_eq!(quick.output, "ok\n");

    for body in [
        "{",
        "{\"command\": 5}",
        "{\"command\":\"true\",\"timeout_secs\":1e400}",
        "[]",
    ] {
        let response = app
            .client
            .request(reqwest::Method::POST, "/v1/shell/sessions/s/exec")
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 400, "{body}");
        let error: tool_api_contract::ErrorBody = response.json().await.unwrap();
        assert_eq!(error.error.code, ErrorCode::MalformedRequest);
    }
}

#[tokio::test]
async fn session_limit_evicts_idle_sessions_and_refuses_when_all_run() {
    let app = spawn_app_with(|s| s.limits.max_shell_sessions = 2).await;
    app.client.exec("a", &run("true")).await.unwrap();
    app.client.exec("b", &run_for("sleep 5", 0.0)).await.unwrap();
    // "a" is idle, so it makes room for "c".
    app.client.exec("c", &run_for("sleep 5", 0.0)).await.unwrap();
    expect_code(app.client.view("a", false).await, ErrorCode::NotFound);
    expect_code(app.client.exec("d", &run("true")).await, ErrorCode::LimitReached);
    app.client.kill("b").await.unwrap();
    app.client.exec("d", &run("true")).await.unwrap();
}

#[tokio::test]
async fn a_session_keeps_its_directory_and_variables_like_a_terminal() {
    let app = spawn_app().await;
    std::fs::create_dir(app.path("project")).unwrap();
    app.client
        .exec(
            "t",
            &run("cd project && export MODE=fast && greet() { echo \"hi $1\"; }"),
        )
        .await
        .unwrap();
    let after = app
        .client
        .exec("t", &run("pwd; echo $MODE; greet you"))
        .await
        .unwrap();
    assert_eq!(
        after.output,
        format!("{}\nfast\nhi you\n", app.path("project").display())
    );

    // Per-command variables do not leak into the session.
    let scoped = ExecRequest {
        env: BTreeMap::from([("ONLY_ONCE".into(), "yes".into())]),
        ..run("echo $ONLY_ONCE; bash -c 'echo child:$ONLY_ONCE'")
    };
    assert_eq!(
        app.client.exec("t", &scoped).await.unwrap().output,
        "yes\nchild:yes\n"
    );
    assert_eq!(
        app.client
            .exec("t", &run("echo [$ONLY_ONCE]"))
            .await
            .unwrap()
            .output,
        "[]\n"
    );

    // A syntax error fails the command, not the session.
    let broken = app.client.exec("t", &run("echo \"unclosed")).await.unwrap();
    assert_eq!(broken.exit_code, Some(2));
    assert_eq!(broken.state, CommandState::Exited);
    assert_eq!(
        app.client
            .exec("t", &run("echo still here"))
            .await
            .unwrap()
            .output,
        "still here\n"
    );

    // `exit` ends the shell; the next command gets a fresh one in the workspace.
    let exited = app.client.exec("t", &run("exit 4")).await.unwrap();
    assert_eq!(exited.exit_code, Some(4));
    let fresh = app.client.exec("t", &run("pwd; echo [$MODE]")).await.unwrap();
    assert_eq!(fresh.output, format!("{}\n[]\n", app.root().display()));
}

#[tokio::test]
async fn input_a_command_never_reads_is_not_run_as_a_command() {
    let app = spawn_app().await;
    app.client.exec("i", &run_for("sleep 0.3", 0.0)).await.unwrap();
    app.client.write_input("i", "touch INJECTED", true).await.unwrap();
    app.client.wait("i", Some(5.0)).await.unwrap();
    app.client.exec("i", &run("true")).await.unwrap();
    assert!(
        !app.path("INJECTED").exists(),
        "unread input must not reach the shell"
    );
}

#[tokio::test]
async fn a_status_marker_lookalike_in_output_does_not_end_the_command() {
    let app = spawn_app().await;
    let done = app
        .client
        .exec("m", &run("printf '\\036SP0000:0\\037'; echo after"))
        .await
        .unwrap();
    assert_eq!(done.output, "\u{1e}SP0000:0\u{1f}after\n");
    assert_eq!(done.exit_code, Some(0));
}
