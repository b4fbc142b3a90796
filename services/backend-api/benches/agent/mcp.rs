//! The MCP benchmarks: over Streamable HTTP (listing and calls, straight and as a run's
//! step) and over stdio in the session's sandbox.

use super::*;

/// A hub over an embedded store holding `servers`.
async fn hub_of(dir: &std::path::Path, servers: Vec<(&str, McpTransport)>) -> McpHub {
    let store = Arc::new(EmbeddedStore::open(dir).unwrap());
    let now = chrono::Utc::now();
    for (name, transport) in servers {
        let server = McpServer {
            name: McpServerName::parse(name).unwrap(),
            transport,
            enabled: true,
            created_at: now,
            updated_at: now,
        };
        store.insert(&server).await.unwrap();
    }
    McpHub::new(store, McpConfig::default())
}

/// `CALLS` echo calls through the hub; their times.
async fn echo_calls(hub: &McpHub, server: &str, site: Option<&McpSite>) -> Vec<Duration> {
    let message = json!({ "message": "hi" }).as_object().unwrap().clone();
    let mut times = Vec::new();
    for _ in 0..MCP_CALLS {
        let started = Instant::now();
        hub.call(server, "echo", message.clone(), site).await.unwrap();
        times.push(started.elapsed());
    }
    times
}

/// MCP over Streamable HTTP: listing one server and five at once (first, then cached:
/// the servers read from the embedded store, the lists reused), an `echo` call straight
/// through the adapter, and the same call as a run's step (the session's run goes on
/// with the scripted `echo` calls).
pub(super) async fn mcp(app: &TestApp, token: &str, session: &str, everything: &Everything) {
    let dir = tempfile::tempdir().unwrap();
    let http = || McpTransport::http(&everything.url, Default::default()).unwrap();
    let hub = hub_of(dir.path(), vec![("everything", http())]).await;
    let started = Instant::now();
    let status = hub.status(None).await;
    let first_list = started.elapsed();
    assert!(status[0].error.is_none(), "{status:?}");
    let mut cached = Vec::new();
    for _ in 0..MCP_CALLS {
        let started = Instant::now();
        hub.status(None).await;
        cached.push(started.elapsed());
    }
    let mut direct = echo_calls(&hub, "everything", None).await;
    let mut steps = step_times(app, token, session, "echo through MCP", MCP_CALLS).await;
    let (step, call) = (percentile(&mut steps, 0.5), percentile(&mut direct, 0.5));
    println!(
        "MCP list tools (HTTP):           first {:.1} ms (connect + list), then p50 {:.3} ms (cached)",
        ms(first_list),
        ms(percentile(&mut cached, 0.5))
    );
    println!(
        "MCP echo call (HTTP), adapter:   p50 {:.2} ms of {MCP_CALLS}",
        ms(call)
    );
    println!(
        "  the same call as a run's step:  p50 {:.2} ms (backend overhead {:.2} ms)",
        ms(step),
        ms(step.saturating_sub(call))
    );

    let dir = tempfile::tempdir().unwrap();
    let names = ["one", "two", "three", "four", "five"];
    let five = hub_of(dir.path(), names.iter().map(|name| (*name, http())).collect()).await;
    let started = Instant::now();
    let status = five.status(None).await;
    let first = started.elapsed();
    assert!(
        status.iter().all(|s| s.error.is_none() && !s.tools.is_empty()),
        "{status:?}"
    );
    let started = Instant::now();
    five.status(None).await;
    println!(
        "MCP list tools, 5 servers (HTTP): first {:.1} ms (target ≤ 300), then {:.3} ms (cached)",
        ms(first),
        ms(started.elapsed())
    );
}

/// An MCP stdio server in the session's sandbox (the reference server, uploaded and
/// unpacked there): started and listed, then echo calls relayed through tool-api.
pub(super) async fn mcp_stdio(session: &str, manager: &Manager) {
    let tool_api = manager.tool_api(session).await;
    let dir = tempfile::tempdir().unwrap();
    tool_api
        .upload("mcp.tar.gz", true, packed_everything(dir.path()))
        .await
        .unwrap();
    let request = ExecRequest {
        command: UNPACK_EVERYTHING.into(),
        timeout_secs: Some(60.0),
        ..Default::default()
    };
    let unpacked = tool_api.exec("bench-mcp", &request).await.unwrap();
    assert_eq!(unpacked.exit_code, Some(0), "{}", unpacked.output);
    let stdio = McpTransport::Stdio {
        command: "node".into(),
        args: vec![EVERYTHING_IN_SANDBOX.into(), "stdio".into()],
        env: Default::default(),
    };
    let hub = hub_of(dir.path(), vec![("local", stdio)]).await;
    let site = McpSite {
        session: SessionId::parse(session).unwrap(),
        sandbox: SandboxAccess {
            tool_api_url: tool_api.base_url().to_owned(),
            tool_api_token: tool_api.token().to_owned(),
            shell: SandboxAccess::AGENT_SHELL.to_owned(),
            size: SandboxSize::default(),
        },
    };
    let started = Instant::now();
    let status = hub.status(Some(&site)).await;
    let first = started.elapsed();
    assert!(status[0].error.is_none(), "{status:?}");
    let mut calls = echo_calls(&hub, "local", Some(&site)).await;
    println!(
        "MCP stdio in the sandbox:        start + list {:.1} ms; echo call p50 {:.2} ms of {MCP_CALLS} (relayed by tool-api)",
        ms(first),
        ms(percentile(&mut calls, 0.5))
    );
}
