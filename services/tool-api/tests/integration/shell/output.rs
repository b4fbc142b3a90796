//! Output: bounded with a marker, streamed live and resumed; and bad requests' errors.

use super::*;

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
