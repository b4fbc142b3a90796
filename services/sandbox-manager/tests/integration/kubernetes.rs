//! The Kubernetes driver: the real manager binary and its kube client against the
//! Kubernetes API as `support::fake_kube` serves it, whose kubelet runs each Pod as a real
//! container of the sandbox image. What the fake does not model (scheduling, admission,
//! NetworkPolicies) is not tested here.

use crate::support;

use std::time::Duration;

use base64::Engine as _;
use sandbox_manager_client::contract::{
    CreateSandbox, ErrorCode, LimitsRequest, NetworkMode, SandboxState, StorageKind,
};
use serde_json::json;
use support::fake_kube::{Deletion, FakeCluster};
use support::{code, docker, request, Manager};
use tool_api_client::ToolApiClient;

/// A manager whose driver is the fake cluster's, with `extra` settings.
fn start(cluster: &FakeCluster, extra: &[(&str, &str)]) -> Manager {
    start_with(cluster, extra, &[])
}

/// Like [`start`], with `raw` variables passed as they are.
fn start_with(cluster: &FakeCluster, extra: &[(&str, &str)], raw: &[(&str, &str)]) -> Manager {
    let settings = cluster.settings();
    let mut env: Vec<(&str, &str)> = settings.iter().map(|(k, v)| (*k, v.as_str())).collect();
    env.extend_from_slice(extra);
    Manager::start_with(&env, raw)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_session_sandbox_is_a_hardened_pod_with_its_own_secret_and_volume_and_outlives_its_pod() {
    let cluster = FakeCluster::start().await;
    // The operator's search settings in the manager's environment reach no sandbox.
    let manager = start_with(&cluster, &[], &[("SEARCH_API_KEY", "sk-operator-key-7d1e")]);
    let client = &manager.client;
    // Upper case and '_' are fine in a session id, not in an object name.
    let create = CreateSandbox {
        storage: Some(StorageKind::Volume),
        network: Some(NetworkMode::Offline),
        limits: Some(LimitsRequest {
            memory_mb: Some(1024),
            cpus: Some(1.0),
            pids: None,
        }),
        ..request("K8s_Session-1", "alice@example.com")
    };
    let sandbox = client.create(&create).await.unwrap();
    assert_eq!(sandbox.state, SandboxState::Ready);
    let name = manager.container_name(&sandbox.id);
    let pod = cluster.get("pods", &name).expect("the sandbox's Pod");
    let access = sandbox.tool_api.clone().unwrap();

    // Reached at the Pod's IP.
    let ip = pod["status"]["podIP"].as_str().unwrap();
    assert_eq!(access.url, format!("http://{ip}:8080"));

    // Labels to find it by, annotations for what labels cannot hold.
    let meta = &pod["metadata"];
    assert_eq!(
        meta["labels"]["org.sandpiper.manager"],
        manager.namespace.as_str()
    );
    assert_eq!(meta["labels"]["org.sandpiper.sandbox"], sandbox.id.as_str());
    assert_eq!(meta["labels"]["org.sandpiper.network"], "offline");
    assert_eq!(meta["annotations"]["org.sandpiper.session"], "K8s_Session-1");
    assert_eq!(meta["annotations"]["org.sandpiper.owner"], "alice@example.com");

    // The hardening, as the spec asks for it and as the running sandbox shows it.
    let spec = &pod["spec"];
    let container = &spec["containers"][0];
    assert_eq!(spec["restartPolicy"], "Never");
    assert_eq!(spec["automountServiceAccountToken"], false);
    assert_eq!(spec["enableServiceLinks"], false);
    assert_eq!(spec["securityContext"]["runAsNonRoot"], true);
    assert_eq!(
        spec["securityContext"]["seccompProfile"]["type"],
        "RuntimeDefault"
    );
    assert_eq!(container["securityContext"]["readOnlyRootFilesystem"], true);
    assert_eq!(container["securityContext"]["allowPrivilegeEscalation"], false);
    assert_eq!(
        container["securityContext"]["capabilities"]["drop"],
        json!(["ALL"])
    );
    assert_eq!(
        container["resources"]["limits"],
        json!({"memory": "1024Mi", "cpu": "1000m"})
    );
    assert_eq!(
        container["resources"]["requests"],
        json!({"memory": "64Mi", "cpu": "250m"}),
        "the request is what a sandbox without its desktop needs"
    );
    let tools = ToolApiClient::new(&access.url, &access.token);
    let probe = "id -u; touch /etc/probe 2>/dev/null && echo writable || echo read-only";
    let shown = support::sh(&tools, probe).await;
    assert_eq!(
        shown.split_whitespace().collect::<Vec<_>>(),
        ["1000", "read-only"]
    );

    // The credentials are in the Secret, not in the Pod spec; of the token, only its
    // SHA-256 enters the sandbox.
    let secret = cluster.get("secrets", &name).expect("the sandbox's Secret");
    let digest = base64::engine::general_purpose::STANDARD
        .decode(secret["data"]["SANDBOX_TOKEN_SHA256"].as_str().unwrap())
        .unwrap();
    let expected = service_kit::sha256_hex(&access.token);
    assert_eq!(String::from_utf8(digest).unwrap(), expected);
    let keys: Vec<&String> = secret["data"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["SANDBOX_TOKEN_SHA256"], "no operator secret");
    assert!(!pod.to_string().contains(&access.token));
    assert!(!pod.to_string().contains("sk-operator-key"));
    assert_eq!(
        support::sh(&tools, "env | grep -c ^SEARCH_ || true").await.trim(),
        "0"
    );

    // The session's home is a claim named by digest, annotated with its key: the session.
    let claims = cluster.names("persistentvolumeclaims");
    assert_eq!(claims.len(), 1, "{claims:?}");
    let claim = cluster.get("persistentvolumeclaims", &claims[0]).unwrap();
    assert_eq!(
        claim["metadata"]["annotations"]["org.sandpiper.home"],
        "K8s_Session-1"
    );
    assert_eq!(claim["spec"]["resources"]["requests"]["storage"], "2048Mi");
    support::sh(&tools, "echo kept > notes.txt").await;

    // Its output, through the Pod's log.
    let logs = client.logs(&sandbox.id, Some(50)).await.unwrap();
    assert!(!logs.trim().is_empty(), "no log lines");

    // The Pod ends: the manager makes it anew, on the same claim, and says so.
    docker(&["kill", &cluster.container(&name)]);
    let tools = support::restarted(client, &sandbox.id, 1, Duration::from_secs(90)).await;
    let again = cluster.get("pods", &name).unwrap();
    assert_ne!(again["metadata"]["uid"], pod["metadata"]["uid"]);
    assert_eq!(support::sh(&tools, "cat notes.txt").await.trim(), "kept");

    // The cluster evicts it and deletes the Pod: it is made again from its Secret.
    cluster.evict(&name).await;
    let tools = support::restarted(client, &sandbox.id, 2, Duration::from_secs(90)).await;
    assert_eq!(support::sh(&tools, "cat notes.txt").await.trim(), "kept");

    // Deleting the sandbox deletes its Pod, its Secret and (it was the session's) its claim.
    client.delete(&sandbox.id).await.unwrap();
    assert!(cluster.names("pods").is_empty());
    assert!(cluster.names("secrets").is_empty());
    assert!(cluster.names("persistentvolumeclaims").is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_session_s_next_pod_waits_until_the_old_one_has_let_go_of_its_claim() {
    let cluster = FakeCluster::start().await;
    // A deleted Pod stays terminating for its grace period (its process ignores SIGTERM),
    // holding its ReadWriteOnce claim; the start time-out bounds every wait.
    cluster.set_deletion(Deletion::AfterGracePeriod);
    let manager = start(&cluster, &[("KUBERNETES__START_TIMEOUT_SECS", "10")]);
    let client = &manager.client;
    let create = CreateSandbox {
        storage: Some(StorageKind::Volume),
        ..request("k-pause", "alice")
    };
    let first = client.create(&create).await.unwrap();
    let access = first.tool_api.unwrap();
    support::sh(
        &ToolApiClient::new(&access.url, &access.token),
        "echo kept > notes.txt",
    )
    .await;

    // Stopped (E2B's pause) and the session's next sandbox asked for at once (resume):
    // its Pod is made once the old one is gone, so it never meets the claim attached.
    let old_pod = manager.container_name(&first.id);
    assert_eq!(client.stop(&first.id).await.unwrap().state, SandboxState::Expired);
    let second = client.create(&create).await.unwrap();
    assert_eq!(cluster.events("FailedAttachVolume"), Vec::<String>::new());
    assert!(cluster.get("pods", &old_pod).is_none());
    let access = second.tool_api.unwrap();
    let tools = ToolApiClient::new(&access.url, &access.token);
    assert_eq!(support::sh(&tools, "cat notes.txt").await.trim(), "kept");

    // Deleted, and asked for again at once: the old claim, kept while its Pod ends, is
    // waited out and made anew.
    client.delete(&second.id).await.unwrap();
    let third = client.create(&create).await.unwrap();
    assert_eq!(third.state, SandboxState::Ready);

    // A Pod whose node does not answer never goes: the resume fails after the time-out
    // with a clear error, and the stopped sandbox is kept for a later try.
    cluster.set_deletion(Deletion::Never);
    let held_by = manager.container_name(&third.id);
    client.stop(&third.id).await.unwrap();
    let err = client.create(&create).await.unwrap_err();
    let message = err.to_string();
    assert_eq!(code(err), (503, ErrorCode::StartFailed));
    assert!(
        message.contains(&format!("still held by Pod {held_by}")),
        "{message}"
    );
    let kept = client.get(&third.id).await.unwrap();
    assert_eq!(kept.state, SandboxState::Expired);
    assert_eq!(cluster.names("pods"), [held_by]);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_warm_pool_keeps_a_pod_ready_and_hands_it_to_a_session() {
    let cluster = FakeCluster::start().await;
    let manager = start(&cluster, &[("POOL__SIZE", "1")]);
    support::eventually(Duration::from_secs(60), "pool filled", || async {
        manager.health().await["pool"]["ready"] == 1
    })
    .await;
    let pooled = cluster.names("pods");
    assert_eq!(pooled.len(), 1);
    // A pooled Pod belongs to no session yet.
    let pod = cluster.get("pods", &pooled[0]).unwrap();
    assert!(pod["metadata"]["annotations"].is_null(), "{}", pod["metadata"]);

    let sandbox = manager.client.create(&request("k-pool", "alice")).await.unwrap();
    assert_eq!(
        manager.container_name(&sandbox.id),
        pooled[0],
        "the pooled Pod was handed out"
    );
    let access = sandbox.tool_api.unwrap();
    assert_eq!(
        support::sh(&ToolApiClient::new(&access.url, &access.token), "id -un")
            .await
            .trim(),
        "sandbox"
    );
    support::eventually(Duration::from_secs(60), "pool refilled", || async {
        cluster.names("pods").len() == 2 && manager.health().await["pool"]["ready"] == 1
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_image_the_nodes_cannot_pull_is_a_503_and_objects_nobody_recorded_are_removed() {
    let cluster = FakeCluster::start().await;
    let missing = "sandpiper-sandbox:not-in-any-registry";
    let manager = start(&cluster, &[("SANDBOX__IMAGE", missing)]);
    let err = manager.client.create(&request("k-2", "alice")).await.unwrap_err();
    let message = err.to_string();
    assert_eq!(code(err), (503, ErrorCode::ImageMissing));
    assert!(message.contains(missing), "{message}");
    assert!(cluster.names("pods").is_empty(), "the failed Pod was removed");
    assert!(cluster.names("secrets").is_empty(), "and its Secret");

    // Left by an earlier manager of this namespace: a Pod and a Secret without a Pod.
    // Another namespace's Pod is not this manager's business.
    let labels =
        |namespace: &str, id: &str| json!({"org.sandpiper.manager": namespace, "org.sandpiper.sandbox": id});
    let stray_pod = format!("sandpiper-{}-sbx-stray", manager.namespace);
    let stray_secret = format!("sandpiper-{}-sbx-gone", manager.namespace);
    cluster.create(
        "pods",
        json!({"metadata": {"name": stray_pod, "labels": labels(&manager.namespace, "sbx-stray")},
               "spec": {"containers": [{"name": "sandbox", "image": missing}]}}),
    );
    cluster.create(
        "secrets",
        json!({"metadata": {"name": stray_secret, "labels": labels(&manager.namespace, "sbx-gone")}}),
    );
    cluster.create(
        "pods",
        json!({"metadata": {"name": "someone-else", "labels": labels("other", "sbx-other")},
               "spec": {"containers": [{"name": "sandbox", "image": missing}]}}),
    );
    support::eventually(Duration::from_secs(30), "strays removed", || async {
        cluster.names("pods") == ["someone-else"] && cluster.names("secrets").is_empty()
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn without_an_api_server_the_manager_serves_and_answers_503() {
    let cluster = FakeCluster::start().await;
    // The same kubeconfig, pointing at a port nobody listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closed_url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let config = std::fs::read_to_string(cluster.kubeconfig.path()).unwrap();
    let server = config
        .lines()
        .find_map(|l| l.trim().strip_prefix("server: "))
        .unwrap();
    std::fs::write(cluster.kubeconfig.path(), config.replace(server, &closed_url)).unwrap();

    let manager = start(&cluster, &[]);
    let err = manager.client.create(&request("k-3", "alice")).await.unwrap_err();
    assert_eq!(code(err), (503, ErrorCode::EngineUnavailable));
    let health = manager.health().await;
    assert_eq!(
        (health["status"].as_str(), health["engine"].as_bool()),
        (Some("degraded"), Some(false))
    );
}

#[test]
fn settings_that_cannot_work_stop_the_manager_with_a_message() {
    let data = tempfile::tempdir().unwrap();
    let run = |env: &[(&str, &str)]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sandbox-manager"))
            .env("SANDBOX_MANAGER_TOKEN", support::TOKEN)
            .env("SANDBOX_MANAGER_PORT", "0")
            .env("SANDBOX_MANAGER_DATA_DIR", data.path())
            .env("SANDBOX_MANAGER_DRIVER", "kubernetes")
            .envs(env.iter().copied())
            .output()
            .unwrap();
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // Chromium's sandbox needs a seccomp profile on the nodes.
    let stderr = run(&[]);
    assert!(
        stderr.contains("SANDBOX_MANAGER_KUBERNETES__SECCOMP_PROFILE"),
        "{stderr}"
    );
    let stderr = run(&[
        ("SANDBOX_MANAGER_SANDBOX__BROWSER_SANDBOX", "false"),
        ("SANDBOX_MANAGER_KUBERNETES__IMAGE_PULL_POLICY", "Sometimes"),
    ]);
    assert!(stderr.contains("IMAGE_PULL_POLICY must be Always"), "{stderr}");
    let stderr = run(&[
        ("SANDBOX_MANAGER_SANDBOX__BROWSER_SANDBOX", "false"),
        (
            "SANDBOX_MANAGER_KUBERNETES__KUBECONFIG",
            "/nonexistent/kubeconfig",
        ),
    ]);
    assert!(
        stderr.contains("reading kubeconfig /nonexistent/kubeconfig"),
        "{stderr}"
    );
}
