//! Two backend replicas sharing one MongoDB-wire server and Redis, with the scripted
//! model and a real sandbox: a session's run lives in one replica, and what reaches the
//! other — a message, a stop, a person taking the desktop — acts on it there. A replica
//! killed mid-command leaves runs that another settles once the lease runs out; a
//! replica that restarts leaves the other's runs alone.

use crate::support;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::live::connect;
use support::manager::Manager;
use support::process::BackendProcess;
use support::servers::ServerProcess;
use support::{SseStream, TestApp};
use tool_api_client::contract::shell::{CommandState, ExecRequest};

/// How long a sandbox step may take (the first one starts a container).
const WAIT: Duration = Duration::from_secs(120);

/// The shared stores, the sandbox-manager and the scripted model the replicas use.
struct Deployment {
    llm: FakeLlm,
    manager: Manager,
    _mongodb: ServerProcess,
    _redis: ServerProcess,
    dir: tempfile::TempDir,
    settings: Vec<(&'static str, String)>,
}

impl Deployment {
    async fn start(replies: Vec<Reply>, lease_secs: &str) -> Self {
        let (mongodb, redis) = (ServerProcess::mongodb(), ServerProcess::redis());
        let llm = FakeLlm::start(replies).await;
        let manager = Manager::start();
        let mut settings = llm.settings();
        settings.extend(manager.settings());
        settings.extend([
            ("mongodb_uri", mongodb.mongodb_uri()),
            ("redis_url", redis.redis_url()),
            ("agent.lease_secs", lease_secs.to_owned()),
        ]);
        Self {
            llm,
            manager,
            _mongodb: mongodb,
            _redis: redis,
            dir: tempfile::tempdir().unwrap(),
            settings,
        }
    }

    fn overrides(&self) -> Vec<(&str, &str)> {
        self.settings.iter().map(|(k, v)| (*k, v.as_str())).collect()
    }

    /// A replica in this process.
    async fn replica(&self) -> TestApp {
        TestApp::spawn_on(self.dir.path(), &self.overrides()).await
    }

    /// A replica in a process of its own.
    async fn process(&self) -> BackendProcess {
        BackendProcess::start(self.dir.path(), &self.overrides()).await
    }
}

fn shell(command: &str) -> Reply {
    Reply::tool("shell_exec", json!({ "command": command, "timeout_secs": 600 }))
}

/// A command that runs until the test opens its gate (`open_gate`), so that what the test
/// does meanwhile reaches the run while the command still runs, however slow the machine.
fn gated(gate: &str) -> Reply {
    shell(&format!("until [ -e /tmp/{gate} ]; do sleep 0.05; done"))
}

/// Opens the gate of the gated command running in the session's sandbox, once it runs.
async fn open_gate(deployment: &Deployment, session: &str, gate: &str) {
    deployment.manager.until_shell_runs(session, "agent").await;
    let request = ExecRequest {
        command: format!("touch /tmp/{gate}"),
        ..Default::default()
    };
    let tool_api = deployment.manager.tool_api(session).await;
    tool_api.exec("gate", &request).await.unwrap();
}

fn running_statuses(events: &[Value]) -> usize {
    events
        .iter()
        .filter(|e| e["type"] == "status" && e["status"] == "running")
        .count()
}

/// Whether the text of the model's `n`-th request (from 0) holds `text`.
fn request_mentions(llm: &FakeLlm, n: usize, text: &str) -> bool {
    llm.requests()[n]["messages"].to_string().contains(text)
}

async fn until_calling(stream: &mut SseStream) -> Vec<Value> {
    stream
        .until(WAIT, |e| e["type"] == "tool" && e["status"] == "calling")
        .await
}

async fn until_status(stream: &mut SseStream, status: &str) -> Vec<Value> {
    stream
        .until(WAIT, |e| e["type"] == "status" && e["status"] == status)
        .await
}

#[tokio::test]
async fn a_runs_messages_stop_and_take_over_reach_it_from_the_other_replica() {
    let deployment = Deployment::start(
        vec![
            // Two messages at two replicas at once.
            gated("both"),
            Reply::Text("read both"),
            // A message to A while B runs.
            gated("follow-up"),
            Reply::Text("read the follow-up"),
            // A take-over through A.
            gated("take-over"),
            Reply::Text("after the take-over"),
            // A stop through A.
            shell("sleep 600"),
            // A restart of A while B runs.
            shell("sleep 600"),
        ],
        "2",
    )
    .await;
    let llm = &deployment.llm;
    let (mut a, b) = (deployment.replica().await, deployment.replica().await);
    let (token, _, _) = a.register("ada@example.org").await;
    let id = a.new_session(&token).await;
    let mut stream = b.events(&token, &id, None).await;

    // Two messages sent to both replicas at once start exactly one run, which reads both.
    let (first, second) = tokio::join!(
        a.post_message(&token, &id, "first message, to A"),
        b.post_message(&token, &id, "second message, to B"),
    );
    assert_ne!(first, second);
    open_gate(&deployment, &id, "both").await;
    let turn = until_status(&mut stream, "completed").await;
    assert_eq!(running_statuses(&turn), 1, "{turn:#?}");
    assert_eq!(llm.requests().len(), 2);
    assert!(request_mentions(llm, 1, "first message, to A"));
    assert!(request_mentions(llm, 1, "second message, to B"));

    // A message to A while the run is on B joins that run.
    b.post_message(&token, &id, "start on B").await;
    let mut turn = until_calling(&mut stream).await;
    a.post_message(&token, &id, "follow-up through A").await;
    open_gate(&deployment, &id, "follow-up").await;
    turn.extend(until_status(&mut stream, "completed").await);
    assert_eq!(running_statuses(&turn), 1, "{turn:#?}");
    assert_eq!(llm.requests().len(), 4);
    assert!(request_mentions(llm, 3, "follow-up through A"));

    // A person taking the desktop through A pauses B's run before its next request.
    b.post_message(&token, &id, "work, then let me take over").await;
    until_calling(&mut stream).await;
    let desktop = connect(&a, &token, &id, "control").await;
    // A announces its holds to B at once and again every second (`HOLD_REFRESH`).
    tokio::time::sleep(Duration::from_millis(1500)).await;
    open_gate(&deployment, &id, "take-over").await;
    stream
        .until(WAIT, |e| e["type"] == "tool" && e["status"] == "called")
        .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(llm.requests().len(), 5, "B's run went on under the person's hold");
    let released = Instant::now();
    drop(desktop);
    until_status(&mut stream, "completed").await;
    assert!(
        released.elapsed() < Duration::from_secs(2),
        "{:?}",
        released.elapsed()
    );
    assert_eq!(llm.requests().len(), 6);

    // A stop sent to A ends B's run without waiting for its command, which is killed.
    b.post_message(&token, &id, "sleep long").await;
    until_calling(&mut stream).await;
    deployment.manager.until_shell_runs(&id, "agent").await;
    let stopped = a.stop_run(&token, &id).await;
    assert_eq!(stopped["status"], "completed");
    let turn = until_status(&mut stream, "completed").await;
    let closed = turn
        .iter()
        .find(|e| e["type"] == "tool" && e["status"] == "called")
        .expect("the stopped call's `called`");
    assert_eq!(closed["view"]["message"], "stopped");
    let tool_api = deployment.manager.tool_api(&id).await;
    assert_ne!(
        tool_api.view("agent", false).await.unwrap().state,
        CommandState::Running
    );

    // A restart of A leaves B's running session running, past the lease time.
    b.post_message(&token, &id, "sleep long again").await;
    until_calling(&mut stream).await;
    a.stop().await;
    let a = deployment.replica().await;
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert_eq!(a.session(&token, &id).await["status"], "running");
    let stopped = a.stop_run(&token, &id).await;
    assert_eq!(stopped["status"], "completed");
    let turn = until_status(&mut stream, "completed").await;
    assert!(turn.iter().all(|e| e["type"] != "error"), "{turn:#?}");
}

/// Every `calling` in the log is followed by exactly one `called` (call ids repeat from
/// turn to turn with the scripted model).
fn calls_all_closed(log: &[Value]) -> Result<(), String> {
    let mut open = HashSet::new();
    for event in log.iter().filter(|e| e["type"] == "tool") {
        let id = event["call_id"].as_str().unwrap();
        let fresh = match event["status"].as_str() {
            Some("calling") => open.insert(id),
            _ => open.remove(id),
        };
        if !fresh {
            return Err(format!("{id} {} twice in a row", event["status"]));
        }
    }
    match open.is_empty() {
        true => Ok(()),
        false => Err(format!("never closed: {open:?}")),
    }
}

#[tokio::test]
async fn a_replica_killed_mid_command_leaves_runs_another_settles_within_the_lease() {
    const KILLS: usize = 20;
    let lease = Duration::from_secs(1);
    let deployment = Deployment::start(vec![shell("sleep 600"); KILLS], "1").await;
    let a = deployment.replica().await;
    let (token, _, _) = a.register("ada@example.org").await;
    let id = a.new_session(&token).await;
    let mut stream = a.events(&token, &id, None).await;
    let mut log = Vec::new();
    let mut slowest = Duration::ZERO;
    let mut stopped = 0;
    for kill in 0..KILLS {
        let mut b = deployment.process().await;
        let owner = TestApp::client_of(&b.base);
        owner.post_message(&token, &id, &format!("run {kill} on B")).await;
        log.extend(until_calling(&mut stream).await);
        deployment.manager.until_shell_runs(&id, "agent").await;
        b.kill();
        let killed = Instant::now();
        // Every other time the person also presses stop, through the replica left.
        let stop = async {
            if kill % 2 == 1 {
                let path = format!("/api/v1/sessions/{id}/stop");
                a.expect(StatusCode::OK, Method::POST, &path, Some(&token), None)
                    .await;
            }
        };
        let ended =
            |e: &Value| e["type"] == "status" && (e["status"] == "failed" || e["status"] == "completed");
        let (turn, ()) = tokio::join!(stream.until(WAIT, ended), stop);
        let took = killed.elapsed();
        slowest = slowest.max(took);
        assert!(
            took < lease + Duration::from_secs(1),
            "kill {kill}: settled after {took:?}"
        );
        let closed = turn
            .iter()
            .find(|e| e["type"] == "tool" && e["status"] == "called")
            .unwrap_or_else(|| panic!("kill {kill}: the interrupted call was not closed: {turn:#?}"));
        let why = closed["view"]["message"].as_str().unwrap();
        match turn.last().unwrap()["status"].as_str() {
            Some("failed") => {
                assert!(why.contains("interrupted"), "{closed}");
                assert!(turn.iter().any(|e| e["type"] == "error"), "{turn:#?}");
            }
            _ => {
                assert_eq!(why, "stopped", "{turn:#?}");
                stopped += 1;
            }
        }
        log.extend(turn);
    }
    eprintln!(
        "{KILLS} kills, each settled within {slowest:?} (lease {lease:?}); \
         {stopped} ended by the person's stop, the others by a replica's settlement"
    );

    // Nothing stuck, nothing closed twice, and the killed command is not running on.
    assert_ne!(a.session(&token, &id).await["status"], "running");
    calls_all_closed(&log).unwrap();
    let tool_api = deployment.manager.tool_api(&id).await;
    assert_ne!(
        tool_api.view("agent", false).await.unwrap().state,
        CommandState::Running
    );
}

/// Jobs across replicas: a person's limit holds when jobs end on two replicas at once,
/// and a job whose replica is killed mid-command fails with its session on the other,
/// which then starts the next queued one.
#[tokio::test]
async fn jobs_keep_their_limit_across_replicas_and_outlive_a_killed_one() {
    let deployment = Deployment::start(
        vec![
            // The first job, on B: killed with B.
            shell("sleep 600"),
            // The second, started on A once the first failed.
            shell("sleep 600"),
        ],
        "1",
    )
    .await;
    let mut settings = deployment.overrides();
    settings.push(("jobs.max_running_per_person", "1"));
    let a = TestApp::spawn_on(deployment.dir.path(), &settings).await;
    let mut b = BackendProcess::start(deployment.dir.path(), &settings).await;
    let on_b = TestApp::client_of(&b.base);
    let (token, _, _) = a.register("ada@example.org").await;
    let key = a.jobs_key(&token).await;

    let first = on_b.create_job(&key, json!({ "prompt": "first" })).await;
    let first = first["id"].as_str().unwrap().to_owned();
    on_b.until_job(&key, &first, "running").await;
    // Two more at once, one through each replica: both wait for the first.
    let (second, third) = tokio::join!(
        a.create_job(&key, json!({ "prompt": "second" })),
        on_b.create_job(&key, json!({ "prompt": "third" })),
    );
    let (second, third) = (second["id"].as_str().unwrap(), third["id"].as_str().unwrap());
    assert_eq!(a.job(&key, second).await["status"], "queued");
    assert_eq!(a.job(&key, third).await["status"], "queued");
    let session = a.job(&key, &first).await["session_id"]
        .as_str()
        .unwrap()
        .to_owned();
    deployment.manager.until_shell_runs(&session, "agent").await;

    // B dies: A, which follows B's job too, fails it with its session and starts the
    // next in line, and only that one.
    b.kill();
    let killed = Instant::now();
    let failed = a.until_job(&key, &first, "failed").await;
    assert!(
        killed.elapsed() < Duration::from_secs(3),
        "{:?}",
        killed.elapsed()
    );
    assert!(
        failed["error"].as_str().unwrap().contains("interrupted"),
        "{failed:#}"
    );
    // The two were made at once: either may be first in line.
    let deadline = Instant::now() + WAIT;
    let statuses = loop {
        let statuses = [
            a.job(&key, second).await["status"].clone(),
            a.job(&key, third).await["status"].clone(),
        ];
        if statuses.contains(&json!("running")) {
            break statuses;
        }
        assert!(
            Instant::now() < deadline,
            "neither queued job started: {statuses:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    tokio::time::sleep(Duration::from_secs(1)).await;
    let now = [
        a.job(&key, second).await["status"].clone(),
        a.job(&key, third).await["status"].clone(),
    ];
    assert_eq!(now, statuses, "one runs, the other waits");
    assert!(statuses.contains(&json!("queued")), "{statuses:?}");
}
