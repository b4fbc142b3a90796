//! A request's `Connect-Timeout-Ms`, as E2B's envd keeps it: a Start's process is killed
//! when it passes and its stream ends with `deadline_exceeded` (the SDK's
//! `TimeoutException`); a Connect's stream ends then and the process goes on.

use serde_json::json;

use super::wire::{open_stream, output, run};
use crate::support::{alive, eventually, spawn_app};

#[tokio::test]
async fn a_start_past_its_deadline_is_killed_and_a_connect_only_lets_go() {
    let app = spawn_app().await;
    let mut request = run("sleep 300 & echo $!; wait");
    request["tag"] = json!("bounded");
    // Time enough to re-attach first, on a loaded machine too.
    let mut bounded = open_stream(
        &app,
        "process.Process/Start",
        request,
        &[("Connect-Timeout-Ms", "8000")],
    )
    .await;
    bounded.next().await.expect("the start event");
    let child = bounded.next().await.expect("the child's pid");
    let child: u32 = output(&[child], "stdout").trim().parse().unwrap();
    // A client that re-attaches for 100 ms lets go; the process is not its to end.
    let (_, end) = open_stream(
        &app,
        "process.Process/Connect",
        json!({ "process": { "tag": "bounded" } }),
        &[("Connect-Timeout-Ms", "100")],
    )
    .await
    .collect()
    .await;
    assert_eq!(end["error"]["code"], "deadline_exceeded", "{end}");
    assert!(alive(child), "a connect's deadline ended the process");

    let (events, end) = bounded.collect().await;
    assert_eq!(end["error"]["code"], "deadline_exceeded", "{end}");
    assert!(
        events.iter().all(|e| e["event"]["end"].is_null()),
        "the deadline, not the kill, ends the stream: {events:?}"
    );
    eventually("the deadline killed the process's group", || !alive(child)).await;
}

#[tokio::test]
async fn no_deadline_or_zero_lets_a_command_run_and_a_bad_one_is_refused() {
    let app = spawn_app().await;
    let (events, end) = open_stream(
        &app,
        "process.Process/Start",
        run("sleep 0.3; echo done"),
        &[("Connect-Timeout-Ms", "0")],
    )
    .await
    .collect()
    .await;
    assert_eq!((output(&events, "stdout").as_str(), end), ("done\n", json!({})));
    for bad in ["soon", "-5", "12345678901"] {
        let (events, end) = open_stream(
            &app,
            "process.Process/Start",
            run("echo never"),
            &[("Connect-Timeout-Ms", bad)],
        )
        .await
        .collect()
        .await;
        assert!(events.is_empty(), "{bad}: {events:?}");
        assert_eq!(end["error"]["code"], "invalid_argument", "{bad}: {end}");
    }
}
