//! Sessions: fifty at once, the limit evicting idle ones, a session keeping its directory
//! and variables, input a command never reads, and a status-marker look-alike in output.

use super::*;

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
