//! A sandbox's life through the API: one hardened sandbox per session that only its token
//! opens, a create that finishes though its client left, and volume storage kept across a
//! restart and a stop, removed by a delete.

use super::*;

#[tokio::test(flavor = "multi_thread")]
async fn a_session_gets_one_hardened_sandbox_that_only_its_token_opens() {
    // The operator's search settings, as a deployment that once passed them on still has
    // them in the manager's environment: none may reach a sandbox.
    let operator = [
        ("SEARCH_PROVIDER", "brave"),
        ("SEARCH_API_KEY", "sk-operator-key-7d1e"),
    ];
    let manager = Manager::start_with(&[], &operator);
    let client = &manager.client;
    let sandbox = client.create(&request("s-1", "alice")).await.unwrap();
    assert_eq!(sandbox.state, SandboxState::Ready);
    assert_eq!(
        (sandbox.session_id.as_str(), sandbox.owner.as_str()),
        ("s-1", "alice")
    );
    assert_eq!(sandbox.image, support::image());

    // The tool-api answers through the URL with the token, and refuses without it.
    let access = sandbox.tool_api.clone().unwrap();
    assert!(access.url.starts_with("http://127.0.0.1:"), "{}", access.url);
    let tools = ToolApiClient::new(&access.url, &access.token);
    let info = tools.info().await.unwrap();
    assert!(!info.version.is_empty());
    assert_eq!(
        info.storage, None,
        "a tmpfs home is sized by its mount, not a quota"
    );
    let anonymous = reqwest::get(format!("{}/v1/info", access.url)).await.unwrap();
    assert_eq!(anonymous.status(), 401);
    let wrong = ToolApiClient::new(&access.url, "not-the-token-of-this-one")
        .info()
        .await;
    assert_eq!(
        wrong.unwrap_err().code(),
        Some(tool_api_client::contract::ErrorCode::Unauthorized)
    );
    // The VNC server speaks RFB through the tool-api, the only published port.
    let mut banner = [0u8; 12];
    let mut stream = tools.vnc().await.unwrap();
    tokio::io::AsyncReadExt::read_exact(&mut stream, &mut banner)
        .await
        .unwrap();
    assert!(banner.starts_with(b"RFB 003."), "{banner:?}");

    // Asking again for the session returns the same sandbox (200, not a new one).
    let again = client
        .request(reqwest::Method::POST, "/v1/sandboxes")
        .json(&request("s-1", "alice"));
    let again = again.send().await.unwrap();
    assert_eq!(again.status(), 200);
    let again: sandbox_manager_client::contract::Sandbox = again.json().await.unwrap();
    assert_eq!(again.id, sandbox.id);
    assert_eq!(again.tool_api, sandbox.tool_api);
    // Another owner cannot take the session's sandbox.
    let (status, code_) = code(client.create(&request("s-1", "mallory")).await.unwrap_err());
    assert_eq!((status, code_), (409, ErrorCode::Conflict));

    // Hardening, as the engine reports it.
    let inspect: Value =
        serde_json::from_str(&docker(&["inspect", &manager.container_name(&sandbox.id)])).unwrap();
    let c = &inspect[0];
    let host = &c["HostConfig"];
    assert_eq!(c["Config"]["User"], "1000:1000");
    assert_eq!(host["Init"], true);
    assert_eq!(host["CapDrop"], serde_json::json!(["ALL"]));
    assert_eq!(host["ReadonlyRootfs"], true);
    let security: Vec<&str> = host["SecurityOpt"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(security.contains(&"no-new-privileges"), "{security:?}");
    let seccomp = security
        .iter()
        .find(|o| o.starts_with("seccomp="))
        .expect("a seccomp profile");
    assert!(
        seccomp.contains("\"unshare\""),
        "the Chromium profile allows unshare"
    );
    assert_eq!(host["Memory"], 2048_i64 * 1024 * 1024);
    assert_eq!(host["NanoCpus"], 1_500_000_000_i64);
    assert_eq!(host["PidsLimit"], 256);
    assert!(host["Tmpfs"]["/tmp"].as_str().unwrap().contains("size=512m"));
    assert!(host["Tmpfs"]["/home/sandbox"]
        .as_str()
        .unwrap()
        .contains("uid=1000"));
    let published: Vec<&String> = host["PortBindings"].as_object().unwrap().keys().collect();
    assert_eq!(published, ["8080/tcp"], "the tool-api's port only");
    for binding in host["PortBindings"]["8080/tcp"].as_array().unwrap() {
        assert_eq!(binding["HostIp"], "127.0.0.1");
    }
    for binding in c["NetworkSettings"]["Ports"]["8080/tcp"].as_array().unwrap() {
        assert_eq!(binding["HostIp"], "127.0.0.1", "published on loopback only");
    }
    let labels = &c["Config"]["Labels"];
    assert_eq!(labels["org.sandpiper.sandbox"], sandbox.id.as_str());
    assert_eq!(labels["org.sandpiper.session"], "s-1");
    assert_eq!(labels["org.sandpiper.manager"], manager.namespace.as_str());
    assert_eq!(
        host["NetworkMode"],
        network_id(&manager.network(NetworkMode::Internet)),
        "joined by id"
    );
    let env: Vec<&str> = c["Config"]["Env"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        !env.iter().any(|v| v.starts_with("SEARCH_")),
        "no operator secret enters a sandbox: {env:?}"
    );
    let every_environ = "env; cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n'; true";
    let seen = support::sh(&tools, every_environ).await;
    assert!(
        !seen.contains("SEARCH_") && !seen.contains("sk-operator-key"),
        "{seen}"
    );
    // Chromium's own sandbox is on: no --no-sandbox anywhere in the sandbox.
    let browsers = support::sh(
        &tools,
        "ps -eo args | grep -c '^/usr/lib/chromium/chromium' || true",
    )
    .await;
    assert!(browsers.trim().parse::<u32>().unwrap() > 0, "Chromium runs");
    let unsandboxed = "ps -eo args | grep '^/usr/lib/chromium/chromium' | grep -c -- --no-sandbox || true";
    assert_eq!(
        support::sh(&tools, unsandboxed).await.trim(),
        "0",
        "Chromium's own sandbox is on"
    );

    // Get, list with filters, keep-alive, logs.
    assert_eq!(client.get(&sandbox.id).await.unwrap().id, sandbox.id);
    let by_owner = |owner: &str| ListQuery {
        owner: Some(owner.into()),
        ..Default::default()
    };
    assert_eq!(client.list(&by_owner("alice")).await.unwrap().len(), 1);
    assert!(client.list(&by_owner("bob")).await.unwrap().is_empty());
    let ready = ListQuery {
        state: Some(SandboxState::Ready),
        session_id: Some("s-1".into()),
        ..Default::default()
    };
    assert_eq!(client.list(&ready).await.unwrap()[0].id, sandbox.id);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let kept = client.keep_alive(&sandbox.id).await.unwrap();
    assert!(kept.last_used_at > sandbox.last_used_at);
    assert!(kept.expires_at > sandbox.expires_at);
    let logs = client.logs(&sandbox.id, Some(50)).await.unwrap();
    assert!(logs.contains("tool-api"), "{logs}");

    // Delete removes the container; the id is then unknown.
    client.delete(&sandbox.id).await.unwrap();
    assert!(manager.containers().is_empty(), "{:?}", manager.containers());
    let (status, code_) = code(client.get(&sandbox.id).await.unwrap_err());
    assert_eq!((status, code_), (404, ErrorCode::NotFound));
    let (status, _) = code(client.delete(&sandbox.id).await.unwrap_err());
    assert_eq!(status, 404);
}

/// A backend that gives up waiting (or is killed) while its session's sandbox starts
/// must not leave the session without one: the start goes on, and the next request gets
/// that sandbox rather than a conflict.
#[tokio::test(flavor = "multi_thread")]
async fn a_create_whose_client_leaves_still_finishes() {
    let manager = Manager::start(&[]);
    let impatient = reqwest::Client::builder()
        .timeout(Duration::from_millis(100))
        .build()
        .unwrap();
    let left = impatient
        .post(format!("{}/v1/sandboxes", manager.base))
        .bearer_auth(support::TOKEN)
        .json(&request("leaves", "alice"))
        .send()
        .await;
    assert!(left.is_err_and(|err| err.is_timeout()));

    let sandbox = manager.client.create(&request("leaves", "alice")).await.unwrap();
    assert_eq!(sandbox.state, SandboxState::Ready);
    assert_eq!(manager.containers(), [sandbox.id]);
}

#[tokio::test(flavor = "multi_thread")]
async fn volume_storage_keeps_files_across_a_restart_and_a_stop_and_delete_removes_it() {
    let manager = Manager::start(&[("QUOTA__PER_OWNER", "1")]);
    let client = &manager.client;
    let create = CreateSandbox {
        storage: Some(StorageKind::Volume),
        network: Some(NetworkMode::Offline),
        limits: Some(LimitsRequest {
            memory_mb: Some(1024),
            cpus: Some(1.0),
            pids: Some(300),
        }),
        ..request("v-1", "alice")
    };
    let sandbox = client.create(&create).await.unwrap();
    assert_eq!((sandbox.limits.memory_mb, sandbox.limits.pids), (1024, 300));
    assert_eq!(manager.volumes().len(), 1);
    let access = sandbox.tool_api.clone().unwrap();
    let tools = ToolApiClient::new(&access.url, &access.token);
    support::sh(&tools, "echo kept > notes.txt").await;
    // The engine cannot size the volume; the tool-api keeps the home within the quota.
    let storage = tools.info().await.unwrap().storage.expect("a storage quota");
    assert_eq!(
        storage.quota_bytes,
        2048 << 20,
        "the home's size, SANDBOX__HOME_SIZE_MB"
    );

    let inspect: Value =
        serde_json::from_str(&docker(&["inspect", &manager.container_name(&sandbox.id)])).unwrap();
    assert_eq!(
        inspect[0]["HostConfig"]["NetworkMode"],
        network_id(&manager.network(NetworkMode::Offline))
    );
    assert_eq!(inspect[0]["HostConfig"]["Memory"], 1024_i64 * 1024 * 1024);
    let offline = manager.network(NetworkMode::Offline);
    let network: Value = serde_json::from_str(&docker(&["network", "inspect", &offline])).unwrap();
    assert_eq!(
        network[0]["Options"]["com.docker.network.bridge.enable_ip_masquerade"],
        "false"
    );

    // The engine stops it; the manager starts it again and the file is still there.
    docker(&["kill", &manager.container_name(&sandbox.id)]);
    let tools = support::restarted(client, &sandbox.id, 1, Duration::from_secs(60)).await;
    assert_eq!(support::sh(&tools, "cat notes.txt").await.trim(), "kept");

    // Stopped on request (how E2B's pause is kept): the container goes, the volume stays,
    // and the session's next sandbox finds the file.
    let stopped = client.stop(&sandbox.id).await.unwrap();
    assert_eq!(stopped.state, SandboxState::Expired);
    assert!(manager.containers().is_empty(), "{:?}", manager.containers());
    assert_eq!(manager.volumes().len(), 1);
    assert_eq!(
        client.stop(&sandbox.id).await.unwrap().state,
        SandboxState::Expired
    );
    // A new sandbox of the session that cannot start (the owner's quota is full) leaves
    // the ended one's record, which keeps the volume from the orphan sweep, for the next.
    let other = client.create(&request("v-2", "alice")).await.unwrap();
    let refused = client.create(&create).await.unwrap_err();
    assert_eq!(code(refused).1, ErrorCode::OwnerQuotaExceeded);
    assert_eq!(
        client.get(&sandbox.id).await.unwrap().state,
        SandboxState::Expired
    );
    client.delete(&other.id).await.unwrap();
    let sandbox = client.create(&create).await.unwrap();
    let access = sandbox.tool_api.clone().unwrap();
    let tools = ToolApiClient::new(&access.url, &access.token);
    assert_eq!(support::sh(&tools, "cat notes.txt").await.trim(), "kept");
    let unknown = client.stop("sbx-nosuchsandbox").await.unwrap_err();
    assert_eq!(unknown.code(), Some(ErrorCode::NotFound), "{unknown}");

    client.delete(&sandbox.id).await.unwrap();
    assert!(manager.containers().is_empty());
    assert!(manager.volumes().is_empty(), "{:?}", manager.volumes());
}
