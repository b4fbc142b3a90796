//! Commands: output and exit code, directory and variables, a command outliving its
//! wait, input reaching a waiting command, and kill ending it with its children.

use super::*;

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
