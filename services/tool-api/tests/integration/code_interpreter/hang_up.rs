//! Cells that end without their client: a client that hangs up interrupts its cell (a
//! cell deaf to the interrupt costs its kernel after the grace, also when the next cell
//! reached the kernel first), and a kernel that dies mid-cell is replaced; the context
//! works on either way.

use std::time::{Duration, Instant};

use futures::StreamExt;
use reqwest::Method;
use serde_json::json;
use tool_api_client::ToolApiClient;

use super::{main_text, of, run, started};

/// Starts `code` and hangs up once it runs.
async fn hang_up_during(client: &ToolApiClient, code: &str) {
    drop(taken(client, code).await);
}

/// Starts `code`, which prints `ready` once it runs; its output from then on (dropping it
/// hangs up). Waiting for the cell's own code, not for the kernel to take the cell, keeps
/// the interrupt out of the kernel's handling of the request, which a loaded machine
/// stretches: there an interrupt can cost the kernel rather than the cell.
async fn taken(client: &ToolApiClient, code: &str) -> impl futures::Stream {
    let response = client
        .request(Method::POST, "/e2b/code/execute")
        .json(&json!({ "code": code }))
        .send()
        .await
        .unwrap();
    let mut body = response.bytes_stream();
    let mut seen = String::new();
    while !seen.contains("ready") {
        let chunk = body.next().await.expect("the cell's first output").unwrap();
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
    body
}

/// The main result of `code`, which must come within a minute.
async fn soon(client: &ToolApiClient, code: &str) -> Vec<serde_json::Value> {
    tokio::time::timeout(Duration::from_secs(60), run(client, code))
        .await
        .expect("the abandoned cell no longer holds the kernel")
}

#[tokio::test]
async fn a_hung_up_client_or_a_dead_kernel_leaves_the_context_working() {
    let sandbox = started().await;
    let client = &sandbox.client;
    run(client, "kept = 7").await;

    // The next cell runs at once, in the same kernel with its state.
    hang_up_during(client, "import time\nprint('ready', flush=True)\ntime.sleep(600)").await;
    let begun = Instant::now();
    let next = soon(client, "kept + 1").await;
    assert_eq!(main_text(&next).as_deref(), Some("8"), "{next:?}");
    assert!(begun.elapsed() < Duration::from_secs(30), "{:?}", begun.elapsed());

    // A cell that ignores the interrupt costs its kernel after the grace (5 s).
    hang_up_during(
        client,
        "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nprint('ready', flush=True)\ntime.sleep(600)",
    )
    .await;
    let after = soon(client, "kept").await;
    assert_eq!(of(&after, "error")[0]["name"], "NameError", "{after:?}");
    assert_eq!(main_text(&soon(client, "40 + 2").await).as_deref(), Some("42"));

    // The server notices a client gone only when it writes to it, so the next cell may
    // take the kernel first: it waits out the deaf cell's grace, not the deaf cell.
    run(client, "kept = 7").await;
    let deaf = taken(
        client,
        "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nprint('ready', flush=True)\ntime.sleep(600)",
    )
    .await;
    let next = tokio::spawn({
        let client = client.clone();
        async move { soon(&client, "kept").await }
    });
    // Enough for the next cell to be waiting for the kernel (it is, under any load, by
    // the time the hang-up is noticed at the next keep-alive).
    tokio::time::sleep(Duration::from_millis(500)).await;
    drop(deaf);
    let after = next.await.unwrap();
    assert_eq!(of(&after, "error")[0]["name"], "NameError", "{after:?}");

    // A kernel that dies mid-cell is reported and replaced; its state is gone.
    run(client, "kept = 7").await;
    let died = run(client, "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)").await;
    let [error] = &of(&died, "error")[..] else {
        panic!("{died:?}")
    };
    assert_eq!(error["name"], "KernelRestarted");
    assert!(error["value"].as_str().unwrap().contains("signal 9"), "{error}");
    let after = run(client, "kept").await;
    assert_eq!(of(&after, "error")[0]["name"], "NameError", "{after:?}");
}
