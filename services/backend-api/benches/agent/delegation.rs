//! The delegation benchmark: a `delegate` call's cost with a sub-agent that answers at once.

use super::*;

/// A delegation's cost with a sub-agent that answers at once, for a third person (the
/// others hold their quota's sandboxes): in the session's sandbox, then in one of its own.
pub(super) async fn delegation(app: &TestApp, manager: &Manager) {
    let (token, _, _) = app.register("delegating@example.org").await;
    let id = app.new_session(&token).await;
    for (place, own_sandbox) in [("the session's sandbox", false), ("its own sandbox", true)] {
        let mut overheads = Vec::new();
        for _ in 0..DELEGATIONS {
            if own_sandbox {
                wait_for_warm_pool(manager).await;
            }
            let seq = app.post_message(&token, &id, "delegate").await;
            let mut stream = app.events(&token, &id, Some(seq)).await;
            let delegate =
                |status: &'static str| move |e: &Value| e["name"] == "delegate" && e["status"] == status;
            let (_, calling) = logged(&mut stream, delegate("calling")).await;
            let (done, called) = logged(&mut stream, delegate("called")).await;
            assert_eq!(done["view"]["kind"], "delegation", "{done}");
            overheads.push(between(calling, called));
            stream
                .until(Duration::from_secs(60), |e| {
                    e["type"] == "status" && e["status"] != "running"
                })
                .await;
        }
        println!(
            "delegation, sub-agent in {place}: p50 {:.1} ms, max {:.1} ms  (target ≤ 100 with a warm pool)",
            ms(percentile(&mut overheads, 0.5)),
            ms(*overheads.last().unwrap())
        );
    }
}
