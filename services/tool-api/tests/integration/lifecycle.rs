//! The tool-api binary as the sandbox runs it: children are reaped while it serves, and a
//! SIGTERM kills every process group it started (shells, MCP stdio servers) before it
//! exits.

use crate::support;

use std::time::{Duration, Instant};

use support::alive;
use tool_api_client::ToolApiClient;
use tool_api_contract::shell::ExecRequest;

/// Processes whose parent is `parent`, with their state letter.
fn children_of(parent: u32) -> Vec<(u32, char)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some(rest) = stat.rsplit_once(')').map(|(_, rest)| rest.to_owned()) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.get(1).and_then(|p| p.parse::<u32>().ok()) == Some(parent) {
            let pid = entry.file_name().to_string_lossy().parse().unwrap_or(0);
            found.push((pid, fields[0].chars().next().unwrap_or('?')));
        }
    }
    found
}

#[tokio::test]
async fn reaps_children_and_kills_every_group_on_sigterm() {
    let workspace = tempfile::tempdir().unwrap();
    let (mut server, address) = support::spawn_binary(workspace.path());
    let client = ToolApiClient::new(format!("http://{address}"), support::TOKEN);

    for i in 0..20 {
        let done = client
            .exec(
                "reap",
                &ExecRequest {
                    command: format!("echo {i}"),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        assert_eq!(done.output, format!("{i}\n"));
    }
    let zombies: Vec<_> = children_of(server.id())
        .into_iter()
        .filter(|(_, state)| *state == 'Z')
        .collect();
    assert!(zombies.is_empty(), "zombie children: {zombies:?}");

    let mut pids = Vec::new();
    for session in ["one", "two"] {
        let request = ExecRequest {
            command: "sleep 300 & echo $!; echo $$; sleep 300".into(),
            timeout_secs: Some(0.3),
            ..Default::default()
        };
        client.exec(session, &request).await.unwrap();
        let output = support::output_of(&client, session, 2).await;
        pids.extend(output.lines().map(|l| l.parse::<u32>().unwrap()));
    }
    assert_eq!(pids.len(), 4);
    // A shell finds none of the server's secrets in its environment.
    let env = ExecRequest {
        command: "env".into(),
        ..Default::default()
    };
    let shown = client.exec("env", &env).await.unwrap().output;
    assert!(shown.contains("PATH="), "{shown}");
    assert!(
        !shown.contains("SANDBOX_TOKEN") && !shown.contains(support::TOKEN),
        "{shown}"
    );
    // An MCP stdio server too; it finds none of the server's secrets in its environment.
    let script = r#"sleep 300 & echo "{\"sleeper\":$!,\"token\":\"${SANDBOX_TOKEN:-}\"}"; exec cat"#;
    let relay = client.mcp_stdio(&support::mcp::shell(script)).await.unwrap();
    pids.push(relay.pid());
    let (_sink, mut stream) = relay.split();
    let started = support::mcp::next_message(&mut stream).await.unwrap();
    assert_eq!(started["token"], "", "{started}");
    pids.push(started["sleeper"].as_u64().unwrap() as u32);
    assert!(pids.iter().all(|&pid| alive(pid)));

    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(server.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = server.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "server did not exit on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    std::thread::sleep(Duration::from_millis(200));
    for pid in pids {
        assert!(!alive(pid), "process {pid} outlived the server");
    }
}
