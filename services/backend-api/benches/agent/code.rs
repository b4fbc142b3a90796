//! The code interpreter benchmark: through the backend and straight to tool-api.

use super::*;

/// The code interpreter through the backend and straight to tool-api, for a second person
/// (the first holds as many sandboxes as the quota allows).
pub(super) async fn code(app: &TestApp, manager: &Manager) {
    let (token, _, _) = app.register("coder@example.org").await;
    let token = token.as_str();
    wait_for_warm_pool(manager).await;
    let id = app.new_session(token).await;
    let mut stream = app.events(token, &id, None).await;
    app.post_message(token, &id, "print once").await;
    let (_, posted) = logged(&mut stream, |e| e["type"] == "message").await;
    let first = between(posted, called(&mut stream).await);
    stream
        .until(Duration::from_secs(30), |e| {
            e["type"] == "status" && e["status"] == "completed"
        })
        .await;
    println!(
        "first code_run, warm pool:       {:.0} ms message → result (the kernel starts with the first cell)",
        ms(first)
    );
    let mut steps = step_times(app, token, &id, "print many times", CELLS).await;
    let sandbox = manager.tool_api(&id).await;
    let cell = |code: &str| CodeRunRequest {
        code: code.into(),
        ..Default::default()
    };
    let mut direct = Vec::new();
    for _ in 0..CELLS {
        let started = Instant::now();
        sandbox.code_run(&cell("print(1)")).await.unwrap();
        direct.push(started.elapsed());
    }
    println!(
        "code_run print(1):               p50 {:.2} ms end to end (target ≤ 30), tool-api direct p50 {:.2} ms",
        ms(percentile(&mut steps, 0.5)),
        ms(percentile(&mut direct, 0.5))
    );
    let started = Instant::now();
    let imported = sandbox.code_run(&cell("import pandas")).await.unwrap();
    assert_eq!(imported.error, None, "{imported:?}");
    println!("import pandas, warm kernel:      {:.0} ms", ms(started.elapsed()));
    let restarted = sandbox.code_restart().await.unwrap();
    println!(
        "kernel cold start (restart):     {} ms to ready (target ≤ 1500)",
        restarted.ready_ms
    );
}
