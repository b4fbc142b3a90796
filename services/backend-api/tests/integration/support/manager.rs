//! A real sandbox-manager for the tests that need sandboxes: the binary built with the
//! workspace, in a Docker namespace of its own, on the networks of its test process
//! (`networks.rs`), over the sandbox image of the current sources. Dropping it kills it and
//! removes its containers.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use sandbox_manager_client::contract::ListQuery;
use sandbox_manager_client::SandboxManagerClient;
use tool_api_client::contract::shell::CommandState;
use tool_api_client::ToolApiClient;

#[path = "../../../../sandbox-manager/tests/integration/support/networks.rs"]
mod networks;
#[path = "../../../../tool-api/tests/integration/support/sandbox.rs"]
pub mod sandbox;

pub const TOKEN: &str = "backend-test-manager-token-0123";

/// A sandbox-manager process in a namespace of its own; dropping it kills it and removes
/// the namespace's containers.
pub struct Manager {
    child: Child,
    pub namespace: String,
    pub base: String,
    port: u16,
    settings: Vec<(String, String)>,
    _data: tempfile::TempDir,
}

/// The manager binary built beside this test, started with `settings` and answering on
/// `port`.
fn spawn(settings: &[(String, String)], port: u16) -> Child {
    let binary = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("sandbox-manager");
    assert!(
        binary.exists(),
        "{} is missing: `cargo build -p sandbox-manager` (or run the workspace's tests)",
        binary.display()
    );
    let child = Command::new(binary)
        .envs(settings.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .spawn()
        .expect("the sandbox-manager starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "the manager did not answer within 20 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child
}

impl Manager {
    pub fn start() -> Self {
        Self::start_with(&[])
    }

    /// With extra `SANDBOX_MANAGER_*` settings, e.g. `("SANDBOX_MANAGER_SANDBOX__STORAGE", "volume")`.
    pub fn start_with(env: &[(&str, &str)]) -> Self {
        let (image, _) = sandbox::image();
        let port = super::process::port_for_a_process();
        let data = tempfile::tempdir().unwrap();
        // One namespace per manager: tests in one process each start their own.
        static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = STARTED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let namespace = format!("b{}x{n}", std::process::id());
        let mut settings: Vec<(String, String)> = vec![
            ("SANDBOX_MANAGER_TOKEN".into(), TOKEN.into()),
            ("SANDBOX_MANAGER_PORT".into(), port.to_string()),
            (
                "SANDBOX_MANAGER_DATA_DIR".into(),
                data.path().display().to_string(),
            ),
            ("SANDBOX_MANAGER_NAMESPACE".into(), namespace.clone()),
            ("SANDBOX_MANAGER_POOL__SIZE".into(), "0".into()),
            ("SANDBOX_MANAGER_SANDBOX__READY_TIMEOUT_SECS".into(), "90".into()),
            ("SANDBOX_IMAGE".into(), image),
        ];
        settings.extend(
            networks::settings()
                .into_iter()
                .map(|(name, value)| (format!("SANDBOX_MANAGER_{name}"), value)),
        );
        settings.extend(env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        Self {
            child: spawn(&settings, port),
            namespace,
            base: format!("http://127.0.0.1:{port}"),
            port,
            settings,
            _data: data,
        }
    }

    /// Kills the process with SIGKILL, as a crash would, and starts it again on the same
    /// port, data directory and namespace.
    pub fn crash_and_restart(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        self.child = spawn(&self.settings, self.port);
    }

    pub fn client(&self) -> SandboxManagerClient {
        SandboxManagerClient::new(&self.base, TOKEN)
    }

    /// The session's sandbox's own tool-api, to check what the agent did.
    pub async fn tool_api(&self, session: &str) -> ToolApiClient {
        let query = ListQuery {
            session_id: Some(session.to_owned()),
            ..Default::default()
        };
        let sandbox = self
            .client()
            .list(&query)
            .await
            .unwrap()
            .pop()
            .expect("the session has a sandbox");
        let access = sandbox.tool_api.expect("a running sandbox");
        ToolApiClient::new(access.url, access.token)
    }

    /// The state of the last command of the shell session `shell` in the session's
    /// sandbox, once that sandbox answers.
    pub async fn shell_state(&self, session: &str, shell: &str) -> Option<CommandState> {
        let query = ListQuery {
            session_id: Some(session.to_owned()),
            ..Default::default()
        };
        let sandboxes = self.client().list(&query).await.ok()?;
        let access = sandboxes.into_iter().find_map(|s| s.tool_api)?;
        let tool_api = ToolApiClient::new(access.url, access.token);
        tool_api
            .view(shell, false)
            .await
            .ok()
            .map(|snapshot| snapshot.state)
    }

    /// Returns once a command runs in the shell session `shell` of the session's sandbox
    /// (a `calling` is logged before the sandbox is asked for).
    pub async fn until_shell_runs(&self, session: &str, shell: &str) {
        let deadline = Instant::now() + Duration::from_secs(120);
        while self.shell_state(session, shell).await != Some(CommandState::Running) {
            assert!(
                Instant::now() < deadline,
                "no command ran in {shell} within 120 s"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Removes the session's container behind the manager's back, as an OOM kill or an
    /// operator would.
    pub fn remove_container_of(&self, session: &str) {
        let filter = format!("label=org.sandpiper.session={session}");
        let ids = Command::new("docker")
            .args(["ps", "-q", "--filter", &filter])
            .output()
            .unwrap();
        let ids = String::from_utf8_lossy(&ids.stdout).into_owned();
        assert!(!ids.trim().is_empty(), "the session has a running container");
        for id in ids.split_whitespace() {
            let status = Command::new("docker").args(["rm", "-f", id]).status().unwrap();
            assert!(status.success());
        }
    }

    /// Removes the session's sandbox through the manager, as its idle time limit does: the
    /// next request for it makes a new one.
    pub async fn remove_sandbox_of(&self, session: &str) {
        let query = ListQuery {
            session_id: Some(session.to_owned()),
            ..Default::default()
        };
        let sandboxes = self.client().list(&query).await.unwrap();
        assert!(!sandboxes.is_empty(), "the session {session} has a sandbox");
        for sandbox in sandboxes {
            self.client().delete(&sandbox.id).await.unwrap();
        }
    }

    /// The `org.sandpiper.network` label of the session's running container, as the
    /// engine has it (`docker inspect`).
    pub fn network_label_of(&self, session: &str) -> String {
        let ps = Command::new("docker")
            .args(["ps", "-q", "--filter"])
            .arg(format!("label=org.sandpiper.manager={}", self.namespace))
            .arg("--filter")
            .arg(format!("label=org.sandpiper.session={session}"))
            .output()
            .unwrap();
        let ids = String::from_utf8_lossy(&ps.stdout).into_owned();
        let ids: Vec<&str> = ids.split_whitespace().collect();
        assert_eq!(ids.len(), 1, "the session {session} has one running container");
        let inspect = Command::new("docker")
            .args([
                "inspect",
                "--format",
                "{{index .Config.Labels \"org.sandpiper.network\"}}",
            ])
            .arg(ids[0])
            .output()
            .unwrap();
        assert!(inspect.status.success(), "{inspect:?}");
        String::from_utf8_lossy(&inspect.stdout).trim().to_owned()
    }

    /// Settings that point a backend at this manager.
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        vec![
            ("sandbox.manager_url", self.base.clone()),
            ("sandbox.manager_token", TOKEN.into()),
        ]
    }
}

impl Drop for Manager {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let filter = format!("label=org.sandpiper.manager={}", self.namespace);
        if let Ok(ids) = Command::new("docker")
            .args(["ps", "-aq", "--filter", &filter])
            .output()
        {
            for id in String::from_utf8_lossy(&ids.stdout).split_whitespace() {
                let _ = Command::new("docker").args(["rm", "-f", "-v", id]).output();
            }
        }
        if let Ok(volumes) = Command::new("docker")
            .args(["volume", "ls", "-q", "--filter", &filter])
            .output()
        {
            for volume in String::from_utf8_lossy(&volumes.stdout).split_whitespace() {
                let _ = Command::new("docker")
                    .args(["volume", "rm", "-f", volume])
                    .output();
            }
        }
    }
}
