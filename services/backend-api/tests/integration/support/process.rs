//! The backend as its own process (the binary built with these tests), for what an
//! in-process server cannot show: a replica killed with SIGKILL mid-run. Configured
//! through the `BACKEND_*` environment as a deployment would be; dropping it kills it.

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
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
            .to_string();
        let mut settings = setting_pairs(data_dir, overrides);
        settings.push(("port".into(), port.clone()));
        let env = settings.into_iter().map(|(key, value)| {
            (
                format!("BACKEND_{}", key.replace('.', "__").to_uppercase()),
                value,
            )
        });
        let child = Command::new(env!("CARGO_BIN_EXE_backend-api"))
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("RUST_LOG", "warn")
            .envs(env)
            .stdin(Stdio::null())
            .spawn()
            .expect("the backend binary starts");
        let process = Self {
            base: format!("http://127.0.0.1:{port}"),
            child,
        };
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

impl Drop for BackendProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
