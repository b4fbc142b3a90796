//! A sandbox container from the image, started the way the sandbox-manager starts one:
//! every hardening flag, the Chromium seccomp profile, tmpfs home and /tmp, limits, and
//! ports published on 127.0.0.1 only. Shared by the container tests and the sandbox
//! benchmark (which includes this file by path).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use tool_api_client::contract::info::Readiness;
use tool_api_client::ToolApiClient;

/// A file of the repository, found from the working directory: tests and benchmarks run
/// in their package's directory, `services/<name>` (cargo's rule, which test.sh keeps).
/// Not from the path the binary was built at: a shared target directory hands one build
/// to every clone of the same sources, and the clone that built it may be gone.
pub fn in_repository(relative: &str) -> PathBuf {
    std::path::absolute(Path::new("../..").join(relative)).expect("the working directory exists")
}

/// Runs the docker CLI; a failure is a failed test.
pub fn docker(args: &[&str]) -> String {
    let output = Command::new("docker")
        .args(args)
        .output()
        .expect("the docker CLI runs");
    assert!(
        output.status.success(),
        "docker {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// The image for the current sources (built when missing), and how long that took.
/// `SANDBOX_TEST_IMAGE` names one that is already built for them: `./test.sh` builds it
/// before the suites start, so that no test waits behind a release build running beside.
pub fn image() -> (String, Duration) {
    if let Ok(image) = std::env::var("SANDBOX_TEST_IMAGE") {
        return (image, Duration::ZERO);
    }
    let script = in_repository("sandbox-image/build.sh");
    let started = Instant::now();
    // Cargo gives a test the package's own variables (CARGO_PKG_NAME, …); passed on, they
    // change the fingerprint of a dependency's build script and make the nested release
    // build start over each time.
    let inherited = std::env::vars().map(|(name, _)| name).filter(|name| {
        [
            "CARGO_PKG_",
            "CARGO_MANIFEST_",
            "CARGO_CRATE_",
            "CARGO_BIN_",
            "CARGO_PRIMARY_",
        ]
        .iter()
        .any(|prefix| name.starts_with(prefix))
    });
    let mut command = Command::new(script);
    for name in inherited {
        command.env_remove(name);
    }
    let output = command.arg("--print-tag").output().expect("build.sh runs");
    assert!(
        output.status.success(),
        "image build failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let image = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    (image, started.elapsed())
}

/// A running sandbox container, removed (with its volumes) on drop.
pub struct Sandbox {
    pub id: String,
    pub client: ToolApiClient,
}

impl Sandbox {
    /// Until the server inside listens, the published port accepts and resets: retry.
    pub async fn ready(&self) {
        let started = Instant::now();
        loop {
            if let Ok(health) = self.client.health().await {
                if health.status == Readiness::Ready {
                    return;
                }
            }
            if started.elapsed() > Duration::from_secs(60) {
                let logs = Command::new("docker")
                    .args(["logs", "--tail", "40", &self.id])
                    .output()
                    .unwrap();
                panic!(
                    "sandbox not ready after 60 s; logs:\n{}",
                    String::from_utf8_lossy(&logs.stderr)
                );
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = Command::new("docker").args(["rm", "-f", "-v", &self.id]).output();
    }
}

pub fn start(image: &str, token: &str) -> Sandbox {
    let seccomp = in_repository("sandbox-image/seccomp-chromium.json");
    let seccomp = format!("seccomp={}", seccomp.display());
    // As the sandbox-manager does: the sandbox gets the token's digest only.
    let token_env = format!("SANDBOX_TOKEN_SHA256={}", service_kit::sha256_hex(token));
    #[rustfmt::skip]
    let id = docker(&[
        "run", "-d", "--init",
        "--cap-drop", "ALL",
        "--security-opt", "no-new-privileges",
        "--security-opt", &seccomp,
        "--read-only",
        "--tmpfs", "/tmp:rw,nosuid,nodev,size=512m",
        "--tmpfs", "/home/sandbox:rw,nosuid,nodev,size=1g,uid=1000,gid=1000,mode=0700",
        "--memory", "2g", "--cpus", "1.5", "--pids-limit", "256",
        "-p", "127.0.0.1::8080",
        "-e", &token_env,
        "--label", "sandpiper.test=true",
        image,
    ]);
    let published = |inner: &str| {
        let mapping = docker(&["port", &id, inner]);
        let port = mapping
            .lines()
            .next()
            .and_then(|l| l.rsplit(':').next())
            .expect("a published port");
        format!("127.0.0.1:{port}")
    };
    Sandbox {
        client: ToolApiClient::new(format!("http://{}", published("8080/tcp")), token),
        id,
    }
}
