//! The real sandbox-manager binary against the real Docker engine. Each [`Manager`] gets
//! its own namespace (so parallel tests never see each other's containers), data
//! directory and port (one it binds itself), and the networks of its test process ([`networks`]); dropping it
//! kills the process and removes whatever is left of its namespace on the engine.
#![allow(dead_code)]

pub mod fake_kube;
pub mod networks;
#[path = "../../../../tool-api/tests/integration/support/sandbox.rs"]
mod sandbox;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use sandbox_manager_client::contract::{
    CreateSandbox, ErrorCode, LifecycleEvent, LifecycleKind, NetworkMode, SandboxState,
};
use sandbox_manager_client::{ClientError, SandboxManagerClient};

pub use sandbox::docker;

pub const TOKEN: &str = "manager-test-token-0123456789";

/// The sandbox image for the current sources, built once per test binary.
pub fn image() -> &'static str {
    static IMAGE: OnceLock<String> = OnceLock::new();
    IMAGE.get_or_init(|| sandbox::image().0)
}

/// A manager process. Settings are `SANDBOX_MANAGER_*` variables without the prefix.
pub struct Manager {
    pub namespace: String,
    pub data: tempfile::TempDir,
    pub client: SandboxManagerClient,
    pub base: String,
    child: Child,
    program: PathBuf,
    env: Vec<(String, String)>,
}

impl Manager {
    /// Starts a manager with test-friendly defaults (no pool, long TTLs) and `env` on top.
    pub fn start(env: &[(&str, &str)]) -> Self {
        Self::start_with(env, &[])
    }

    /// Like [`Manager::start`], with `raw` variables passed as they are (e.g. `DOCKER_HOST`).
    pub fn start_with(env: &[(&str, &str)], raw: &[(&str, &str)]) -> Self {
        Self::start_program(env!("CARGO_BIN_EXE_sandbox-manager").as_ref(), env, raw)
    }

    /// Like [`Manager::start_with`], running `program` (another build, for a benchmark's
    /// baseline) instead of this build's manager.
    pub fn start_program(program: &Path, env: &[(&str, &str)], raw: &[(&str, &str)]) -> Self {
        let namespace = format!("t{}", random_suffix());
        let data = tempfile::tempdir().unwrap();
        let mut all: Vec<(String, String)> = [
            ("POOL__SIZE", "0"),
            ("SANDBOX__READY_TIMEOUT_SECS", "90"),
            ("LIFETIME__CHECK_INTERVAL_SECS", "1"),
            ("LIFETIME__RECONCILE_INTERVAL_SECS", "2"),
        ]
        .iter()
        .chain(env)
        .map(|(k, v)| (format!("SANDBOX_MANAGER_{k}"), (*v).to_owned()))
        .collect();
        all.push(("SANDBOX_MANAGER_NAMESPACE".into(), namespace.clone()));
        for (name, value) in networks::settings() {
            if !env.iter().any(|(k, _)| *k == name) {
                all.push((format!("SANDBOX_MANAGER_{name}"), value));
            }
        }
        all.extend(raw.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
        if !env.iter().any(|(k, _)| *k == "SANDBOX__IMAGE") {
            all.push(("SANDBOX_IMAGE".into(), image().to_owned()));
        }
        let (child, base) = spawn(program, &all, data.path());
        Self {
            client: SandboxManagerClient::new(&base, TOKEN),
            namespace,
            data,
            base,
            child,
            program: program.to_owned(),
            env: all,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILLs the process: no shutdown code runs.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Starts the process again on the same data directory and namespace.
    pub fn restart(&mut self) {
        self.kill();
        let (child, base) = spawn(&self.program, &self.env, self.data.path());
        self.child = child;
        self.client = SandboxManagerClient::new(&base, TOKEN);
        self.base = base;
    }

    /// Ids of the containers of this namespace on the engine (running or not).
    pub fn containers(&self) -> Vec<String> {
        let filter = format!("label=org.sandpiper.manager={}", self.namespace);
        let out = docker(&[
            "ps",
            "-a",
            "--filter",
            &filter,
            "--format",
            "{{.Label \"org.sandpiper.sandbox\"}}",
        ]);
        let mut ids: Vec<String> = out.lines().map(str::to_owned).filter(|l| !l.is_empty()).collect();
        ids.sort();
        ids
    }

    pub fn volumes(&self) -> Vec<String> {
        let filter = format!("label=org.sandpiper.manager={}", self.namespace);
        let out = docker(&["volume", "ls", "-q", "--filter", &filter]);
        out.lines().map(str::to_owned).filter(|l| !l.is_empty()).collect()
    }

    /// `GET /health` (no token needed).
    pub async fn health(&self) -> serde_json::Value {
        reqwest::get(format!("{}/health", self.base))
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    pub fn container_name(&self, sandbox_id: &str) -> String {
        format!("sandpiper-{}-{sandbox_id}", self.namespace)
    }

    /// The name of the network its sandboxes of `mode` join.
    pub fn network(&self, mode: NetworkMode) -> String {
        let setting = match mode {
            NetworkMode::Internet => "SANDBOX_MANAGER_SANDBOX__INTERNET_NETWORK",
            NetworkMode::Offline => "SANDBOX_MANAGER_SANDBOX__OFFLINE_NETWORK",
        };
        let (_, name) = self.env.iter().find(|(k, _)| k == setting).expect("set at start");
        name.clone()
    }
}

impl Drop for Manager {
    fn drop(&mut self) {
        self.kill();
        let filter = format!("label=org.sandpiper.manager={}", self.namespace);
        let ids = Command::new("docker")
            .args(["ps", "-aq", "--filter", &filter])
            .output();
        if let Ok(ids) = ids {
            for id in String::from_utf8_lossy(&ids.stdout).split_whitespace() {
                let _ = Command::new("docker").args(["rm", "-f", "-v", id]).output();
            }
        }
        let vols = Command::new("docker")
            .args(["volume", "ls", "-q", "--filter", &filter])
            .output();
        if let Ok(vols) = vols {
            for v in String::from_utf8_lossy(&vols.stdout).split_whitespace() {
                let _ = Command::new("docker").args(["volume", "rm", "-f", v]).output();
            }
        }
    }
}

/// Starts the binary on a port it picks itself (`0`) and reads the one it bound from its
/// `listening` log line, so nothing else can take the port between a pick and the bind.
/// Its log goes on to this process's stderr.
fn spawn(program: &Path, env: &[(String, String)], data: &Path) -> (Child, String) {
    let mut child = Command::new(program)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .env("SANDBOX_MANAGER_TOKEN", TOKEN)
        .env("SANDBOX_MANAGER_PORT", "0")
        .env("SANDBOX_MANAGER_DATA_DIR", PathBuf::from(data))
        .env(
            "RUST_LOG",
            std::env::var("RUST_LOG").unwrap_or_else(|_| "sandbox_manager=info".into()),
        )
        .env("LOG_FORMAT", "json")
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sandbox-manager binary starts");
    let log = child.stderr.take().expect("its stderr is piped");
    let (bound, port) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut bound = Some(bound);
        for line in BufReader::new(log).lines().map_while(Result::ok) {
            if let Some(port) = bound.as_ref().and_then(|_| listening_port(&line)) {
                let _ = bound.take().map(|sender| sender.send(port));
            }
            eprintln!("{line}");
        }
    });
    let port = port.recv_timeout(Duration::from_secs(20)).expect(
        "the manager logged where it listens within 20 s (RUST_LOG must let sandbox_manager's info through)",
    );
    (child, format!("http://127.0.0.1:{port}"))
}

/// The port of the manager's `sandbox-manager listening` log line (JSON).
fn listening_port(line: &str) -> Option<u16> {
    let event: serde_json::Value = serde_json::from_str(line).ok()?;
    let fields = event.get("fields")?;
    if fields.get("message")?.as_str()? != "sandbox-manager listening" {
        return None;
    }
    let address: std::net::SocketAddr = fields.get("address")?.as_str()?.parse().ok()?;
    Some(address.port())
}

pub fn random_suffix() -> String {
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
    format!("{:x}{:x}", nanos & 0xffff_ffff, std::process::id())
}

pub fn request(session: &str, owner: &str) -> CreateSandbox {
    CreateSandbox {
        session_id: session.into(),
        owner: owner.into(),
        ..Default::default()
    }
}

/// The status and code of an API error.
pub fn code(err: ClientError) -> (u16, ErrorCode) {
    match err {
        ClientError::Api { status, body } => (status, body.error.code),
        other => panic!("expected an API error, got {other}"),
    }
}

/// Waits for an event of `kind` about `sandbox_id` on `events`, up to `within`.
pub async fn expect_event(
    events: &mut (impl futures::Stream<Item = sandbox_manager_client::ClientResult<LifecycleEvent>> + Unpin),
    kind: LifecycleKind,
    sandbox_id: &str,
    within: Duration,
) -> LifecycleEvent {
    use futures::StreamExt;
    let found = tokio::time::timeout(within, async {
        while let Some(event) = events.next().await {
            let event = event.unwrap();
            if event.kind == kind && event.sandbox_id == sandbox_id {
                return Some(event);
            }
        }
        None
    })
    .await;
    match found {
        Ok(Some(event)) => event,
        Ok(None) => panic!("the event stream ended before {kind:?} of {sandbox_id}"),
        Err(_) => panic!("no {kind:?} event for {sandbox_id} within {within:?}"),
    }
}

/// Waits until the sandbox was started again `restarts` times in all and is ready, up to
/// `within`; returns a client of its tool-api (its address may have changed).
pub async fn restarted(
    client: &SandboxManagerClient,
    id: &str,
    restarts: u32,
    within: Duration,
) -> tool_api_client::ToolApiClient {
    eventually(within, &format!("restart {restarts} of {id}"), || async {
        client
            .get(id)
            .await
            .is_ok_and(|s| s.restarts == restarts && s.state == SandboxState::Ready)
    })
    .await;
    let access = client.get(id).await.unwrap().tool_api.unwrap();
    tool_api_client::ToolApiClient::new(&access.url, &access.token)
}

/// Polls `check` until it holds, up to `within`.
pub async fn eventually<F, Fut>(within: Duration, what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + within;
    while !check().await {
        assert!(Instant::now() < deadline, "{what}: not within {within:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// A client of the sandbox's tool-api, with the access the manager handed out.
pub fn tools(sandbox: &sandbox_manager_client::contract::Sandbox) -> tool_api_client::ToolApiClient {
    let access = sandbox.tool_api.clone().expect("a ready sandbox's tool-api");
    tool_api_client::ToolApiClient::new(&access.url, &access.token)
}

/// Runs a command in the sandbox's shell and returns its output.
pub async fn sh(tools: &tool_api_client::ToolApiClient, command: &str) -> String {
    let request = tool_api_client::contract::shell::ExecRequest {
        command: command.into(),
        ..Default::default()
    };
    let done = tools.exec("test", &request).await.unwrap();
    assert_eq!(done.exit_code, Some(0), "{command}: {}", done.output);
    done.output
}
