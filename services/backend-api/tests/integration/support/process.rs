//! The backend as its own process (the binary built with these tests), for what an
//! in-process server cannot show: a replica killed with SIGKILL mid-run. Configured
//! through the `BACKEND_*` environment as a deployment would be; dropping it kills it.
//!
//! It binds a port of its own choosing and says which in its log: a port picked here
//! and handed over could be taken meanwhile by another test's server, which this test
//! would then have talked to.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::setting_pairs;

pub struct BackendProcess {
    pub base: String,
    child: Child,
}

impl BackendProcess {
    /// Starts it over `data_dir` with the test settings and `overrides`, and returns once
    /// it is ready.
    pub async fn start(data_dir: &Path, overrides: &[(&str, &str)]) -> Self {
        let settings = setting_pairs(data_dir, overrides);
        Self::launch(Command::new(env!("CARGO_BIN_EXE_backend-api")), settings).await
    }

    /// [`BackendProcess::start`] with `data_dir` on a filesystem of its own of `size_mb`
    /// (a tmpfs in a user and mount namespace of the process's own: no privilege is
    /// needed, and nothing outside sees it; [`BackendProcess::in_its_mounts`] reaches it),
    /// and everything in the embedded store there, also when the suite runs over shared
    /// stores.
    pub async fn start_on_small_disk(data_dir: &Path, size_mb: u32, overrides: &[(&str, &str)]) -> Self {
        let mut command = Command::new("unshare");
        command
            .args(["--user", "--map-root-user", "--mount", "sh", "-c"])
            .arg(format!(
                "mount -t tmpfs -o size={size_mb}m sandpiper-test \"$0\" && exec \"$1\""
            ))
            .arg(data_dir)
            .arg(env!("CARGO_BIN_EXE_backend-api"));
        let mut settings = setting_pairs(data_dir, overrides);
        settings.retain(|(key, _)| key != "mongodb_uri" && key != "redis_url");
        Self::launch(command, settings).await
    }

    /// Runs `script` with `sh` where the process sees its files (its mount namespace).
    pub fn in_its_mounts(&self, script: &str) -> std::process::Output {
        Command::new("nsenter")
            .arg(format!("--target={}", self.child.id()))
            .args(["--user", "--mount", "--preserve-credentials", "sh", "-c", script])
            .output()
            .expect("nsenter runs")
    }

    async fn launch(mut command: Command, mut settings: Vec<(String, String)>) -> Self {
        settings.push(("port".into(), "0".into()));
        let env = settings.into_iter().map(|(key, value)| {
            (
                format!("BACKEND_{}", key.replace('.', "__").to_uppercase()),
                value,
            )
        });
        let mut child = command
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("RUST_LOG", "warn,backend_api=info")
            .env("LOG_FORMAT", "json")
            .envs(env)
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the backend binary starts");
        let log = child.stderr.take().unwrap();
        // Held first, so that it is killed when it does not get to listen.
        let mut process = Self {
            base: String::new(),
            child,
        };
        let listening = tokio::task::spawn_blocking(move || listening_address(log));
        let address = tokio::time::timeout(Duration::from_secs(30), listening)
            .await
            .expect("the backend process did not listen within 30 s")
            .unwrap();
        process.base = format!("http://{address}");
        let http = reqwest::Client::new();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let ready = http.get(format!("{}/ready", process.base)).send().await;
            if ready.is_ok_and(|r| r.status().is_success()) {
                return process;
            }
            assert!(
                Instant::now() < deadline,
                "the backend process was not ready within 30 s"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// SIGKILL: no shutdown of any kind, as when a node dies.
    pub fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

/// The address the process says it listens on (its log's `backend-api listening` line);
/// the rest of its log goes on to this test's output.
fn listening_address(log: std::process::ChildStderr) -> String {
    let mut lines = BufReader::new(log).lines();
    let address = loop {
        let line = lines
            .next()
            .expect("the backend process ended before it listened")
            .unwrap();
        let entry: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
        if entry["fields"]["message"] == "backend-api listening" {
            break entry["fields"]["address"].as_str().unwrap().to_owned();
        }
        eprintln!("{line}");
    };
    std::thread::spawn(move || lines.map_while(Result::ok).for_each(|line| eprintln!("{line}")));
    address
}

/// A port for a server process started with it (a database, an MCP server), free now:
/// drawn at random below the ephemeral range, where this binary's in-process servers
/// (which bind port 0) and its outgoing connections never get one, so none of them can
/// take it before that process binds it.
pub fn port_for_a_process() -> u16 {
    use rand::Rng;
    loop {
        let port = rand::rng().random_range(10_000..32_000);
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
}

impl Drop for BackendProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
