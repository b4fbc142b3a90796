//! `process.Process` over the wire: commands as E2B's SDK runs them, their output, input,
//! signals and PTYs, on real processes.

use serde_json::{json, Value};

use super::wire::{b64, end_event, open_stream, output, run, unary, RpcStream};
use crate::support::{alive, eventually, spawn_app, TestApp};

/// Reads a stream's start event and returns the pid.
async fn started(stream: &mut RpcStream) -> u32 {
    let first = stream.next().await.expect("a start event");
    first["event"]["start"]["pid"]
        .as_u64()
        .expect("the first event is start") as u32
}

async fn select(app: &TestApp, method: &str, pid: u32) -> (u16, Value) {
    unary(
        app,
        &format!("process.Process/{method}"),
        json!({ "process": { "pid": pid } }),
    )
    .await
}

#[tokio::test]
async fn a_command_streams_its_output_and_exit() {
    let app = spawn_app().await;
    let stream = open_stream(
        &app,
        "process.Process/Start",
        run("echo out; echo err >&2; exit 3"),
        &[],
    )
    .await;
    let (events, end) = stream.collect().await;
    assert!(events[0]["event"]["start"]["pid"].as_u64().unwrap() > 1);
    assert_eq!(output(&events, "stdout"), "out\n");
    // A login shell on a test host may first print what its own profile complains of
    // (a pyenv rehash racing another one, say); the sandbox's profile says nothing.
    let stderr = output(&events, "stderr");
    assert!(stderr == "err\n" || stderr.ends_with("\nerr\n"), "{stderr:?}");
    let exit = end_event(&events);
    assert_eq!(exit["exitCode"], 3);
    assert_eq!(exit["exited"], true);
    assert_eq!(exit["status"], "exit status 3");
    assert_eq!(end, json!({}));
}

#[tokio::test]
async fn variables_layer_request_over_init_and_cwd_defaults_to_home() {
    let app = spawn_app().await;
    let init = app
        .request(reqwest::Method::POST, "/e2b/envd/init")
        .json(&json!({ "envVars": { "FROM_INIT": "init", "BOTH": "init" } }))
        .send()
        .await
        .unwrap();
    assert_eq!(init.status(), 204);
    let mut request = run("echo \"$FROM_INIT $BOTH\"; pwd");
    request["process"]["envs"] = json!({ "BOTH": "request" });
    let (events, _) = open_stream(&app, "process.Process/Start", request, &[])
        .await
        .collect()
        .await;
    let home = std::env::var("HOME").unwrap();
    assert_eq!(output(&events, "stdout"), format!("init request\n{home}\n"));

    let mut elsewhere = run("pwd");
    elsewhere["process"]["cwd"] = json!(app.root().display().to_string());
    let (events, _) = open_stream(&app, "process.Process/Start", elsewhere, &[])
        .await
        .collect()
        .await;
    assert_eq!(output(&events, "stdout"), format!("{}\n", app.root().display()));
}

#[tokio::test]
async fn stdin_takes_input_until_closed() {
    let app = spawn_app().await;
    let mut request = run("cat");
    request["stdin"] = json!(true);
    let mut stream = open_stream(&app, "process.Process/Start", request, &[]).await;
    let pid = started(&mut stream).await;
    let (status, _) = unary(
        &app,
        "process.Process/SendInput",
        json!({ "process": { "pid": pid }, "input": { "stdin": b64(b"hello\n") } }),
    )
    .await;
    assert_eq!(status, 200);
    let echoed = stream.next().await.unwrap();
    assert_eq!(output(&[echoed], "stdout"), "hello\n");
    assert_eq!(select(&app, "CloseStdin", pid).await.0, 200);
    let (events, _) = stream.collect().await;
    assert_eq!(end_event(&events)["exitCode"], 0);

    // Without stdin, input is refused.
    let mut stream = open_stream(&app, "process.Process/Start", run("sleep 30"), &[]).await;
    let pid = started(&mut stream).await;
    let (status, error) = unary(
        &app,
        "process.Process/SendInput",
        json!({ "process": { "pid": pid }, "input": { "stdin": b64(b"x") } }),
    )
    .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (400, Some("failed_precondition")),
        "{error}"
    );
    assert_eq!(select(&app, "SendSignal", pid).await.0, 400, "no signal given");
    let (status, _) = unary(
        &app,
        "process.Process/SendSignal",
        json!({ "process": { "pid": pid }, "signal": "SIGNAL_SIGKILL" }),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(end_event(&stream.collect().await.0)["status"], "signal: killed");
}

#[tokio::test]
async fn stream_input_writes_each_message_in_order() {
    let app = spawn_app().await;
    let mut request = run("cat");
    request["stdin"] = json!(true);
    let mut stream = open_stream(&app, "process.Process/Start", request, &[]).await;
    let pid = started(&mut stream).await;
    let mut body = super::wire::envelope(0, &json!({ "start": { "process": { "pid": pid } } }));
    for chunk in [&b"ab"[..], b"c\n"] {
        body.extend(super::wire::envelope(
            0,
            &json!({ "data": { "input": { "stdin": b64(chunk) } } }),
        ));
    }
    body.extend(super::wire::envelope(0, &json!({ "keepalive": {} })));
    let response = app
        .request(reqwest::Method::POST, "/e2b/envd/process.Process/StreamInput")
        .header("content-type", "application/connect+json")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let answer = response.bytes().await.unwrap();
    assert_eq!(answer[0], 0, "a response message, then the end: {answer:?}");
    assert_eq!(&answer[answer.len() - 7..], &[2, 0, 0, 0, 2, b'{', b'}']);
    assert_eq!(select(&app, "CloseStdin", pid).await.0, 200);
    let (events, _) = stream.collect().await;
    assert_eq!(output(&events, "stdout"), "abc\n");
}

#[tokio::test]
async fn processes_are_listed_reattached_by_tag_and_killed_with_their_group() {
    let app = spawn_app().await;
    let mut request = run("sleep 300 & echo $!; wait");
    request["tag"] = json!("sleeper");
    let mut stream = open_stream(&app, "process.Process/Start", request, &[]).await;
    let pid = started(&mut stream).await;
    let child: u32 = output(&[stream.next().await.unwrap()], "stdout")
        .trim()
        .parse()
        .unwrap();
    assert!(alive(child));

    let (status, listed) = unary(&app, "process.Process/List", json!({})).await;
    assert_eq!(status, 200);
    let entry = listed["processes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["pid"] == pid)
        .cloned()
        .expect("the process is listed");
    assert_eq!(entry["tag"], "sleeper");
    assert_eq!(entry["config"]["cmd"], "/bin/bash");
    assert_eq!(entry["config"]["args"][0], "-l");

    let mut attached = open_stream(
        &app,
        "process.Process/Connect",
        json!({ "process": { "tag": "sleeper" } }),
        &[],
    )
    .await;
    assert_eq!(started(&mut attached).await, pid);
    let (status, _) = unary(
        &app,
        "process.Process/SendSignal",
        json!({ "process": { "pid": pid }, "signal": "SIGNAL_SIGTERM" }),
    )
    .await;
    assert_eq!(status, 200);
    for events in [stream.collect().await.0, attached.collect().await.0] {
        let exit = end_event(&events);
        assert_eq!(
            (exit["exitCode"].as_i64(), exit["exited"].as_bool()),
            (Some(-1), Some(false))
        );
        assert_eq!(exit["status"], "signal: terminated");
    }
    // The group's signal reaches the background `sleep` too; it ends on its own time.
    eventually("the signal reached the whole group", || !alive(child)).await;
    let (_, listed) = unary(&app, "process.Process/List", json!({})).await;
    assert!(listed["processes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["pid"] != pid));
    let kill = json!({ "process": { "pid": pid }, "signal": "SIGNAL_SIGKILL" });
    let (status, error) = unary(&app, "process.Process/SendSignal", kill).await;
    assert_eq!(
        (status, error["code"].as_str()),
        (404, Some("not_found")),
        "the SDK's kill() says false"
    );
}

#[tokio::test]
async fn a_pty_process_takes_input_and_resizes() {
    let app = spawn_app().await;
    let request = json!({
        "process": { "cmd": "/bin/bash", "args": ["-i", "-l"], "envs": { "TERM": "xterm-256color" } },
        "pty": { "size": { "cols": 80, "rows": 24 } }
    });
    let mut stream = open_stream(&app, "process.Process/Start", request, &[]).await;
    let pid = started(&mut stream).await;
    let resize = json!({ "process": { "pid": pid }, "pty": { "size": { "cols": 100, "rows": 30 } } });
    assert_eq!(unary(&app, "process.Process/Update", resize).await.0, 200);
    let input = json!({ "process": { "pid": pid }, "input": { "pty": b64(b"stty size; exit 7\n") } });
    assert_eq!(unary(&app, "process.Process/SendInput", input).await.0, 200);
    let (events, _) = stream.collect().await;
    assert!(
        output(&events, "pty").contains("30 100"),
        "{}",
        output(&events, "pty")
    );
    assert_eq!(output(&events, "stdout"), "", "a PTY's output is all `pty` data");
    assert_eq!(end_event(&events)["exitCode"], 7);

    let mut plain = open_stream(&app, "process.Process/Start", run("sleep 30"), &[]).await;
    let pid = started(&mut plain).await;
    let resize = json!({ "process": { "pid": pid }, "pty": { "size": { "cols": 100, "rows": 30 } } });
    assert_eq!(
        unary(&app, "process.Process/Update", resize).await.1["code"],
        "failed_precondition"
    );
    assert_eq!(
        unary(
            &app,
            "process.Process/SendSignal",
            json!({ "process": { "pid": pid }, "signal": 9 })
        )
        .await
        .0,
        200
    );
}

#[tokio::test]
async fn keepalives_come_when_asked_for() {
    let app = spawn_app().await;
    let mut request = run("cat");
    request["stdin"] = json!(true);
    let mut stream = open_stream(
        &app,
        "process.Process/Start",
        request,
        &[("Keepalive-Ping-Interval", "1")],
    )
    .await;
    let pid = started(&mut stream).await;
    assert_eq!(
        stream.next().await.unwrap(),
        json!({ "event": { "keepalive": {} } })
    );
    assert_eq!(select(&app, "CloseStdin", pid).await.0, 200);
    assert_eq!(end_event(&stream.collect().await.0)["exitCode"], 0);
}

#[tokio::test]
async fn bad_requests_end_with_connect_errors() {
    let app = spawn_app().await;
    let (_, end) = open_stream(
        &app,
        "process.Process/Connect",
        json!({ "process": { "pid": 999999 } }),
        &[],
    )
    .await
    .collect()
    .await;
    assert_eq!(end["error"]["code"], "not_found", "{end}");
    let (_, end) = open_stream(
        &app,
        "process.Process/Start",
        run("true"),
        &[("E2b-User", "root")],
    )
    .await
    .collect()
    .await;
    assert_eq!(end["error"]["code"], "permission_denied", "{end}");
    assert!(
        end["error"]["message"].as_str().unwrap().contains("no root"),
        "{end}"
    );
    let missing = json!({ "process": { "cmd": "/no/such/program" } });
    let (events, end) = open_stream(&app, "process.Process/Start", missing, &[])
        .await
        .collect()
        .await;
    assert!(events.is_empty());
    assert_eq!(end["error"]["code"], "invalid_argument", "{end}");
    let mut nowhere = run("true");
    nowhere["process"]["cwd"] = json!("/no/such/dir");
    let (_, end) = open_stream(&app, "process.Process/Start", nowhere, &[])
        .await
        .collect()
        .await;
    assert_eq!(end["error"]["code"], "invalid_argument", "{end}");
    let (status, listed) = unary(&app, "process.Process/List", json!({})).await;
    assert_eq!(
        (status, listed["processes"].as_array().map(Vec::len)),
        (200, Some(0))
    );
    let (status, error) = unary(&app, "process.Process/SendSignal", json!({ "process": "nope" })).await;
    assert_eq!((status, error["code"].as_str()), (400, Some("invalid_argument")));

    // A stream request without a whole envelope ends its stream with the error.
    let response = app
        .request(reqwest::Method::POST, "/e2b/envd/process.Process/Start")
        .header("content-type", "application/connect+json")
        .body(vec![0u8, 0, 0, 0, 9, b'{'])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let body = response.bytes().await.unwrap();
    assert_eq!(body[0], 0x02, "only the end-of-stream envelope: {body:?}");
    let end: Value = serde_json::from_slice(&body[5..]).unwrap();
    assert_eq!(end["error"]["code"], "invalid_argument", "{end}");
}
