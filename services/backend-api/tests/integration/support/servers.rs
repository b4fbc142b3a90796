//! Real MongoDB-wire and Redis servers as child processes, for the tests that stop and
//! restart them (outages) or need them whatever `BACKEND_TEST_STORES` says. Each keeps
//! its port (and MongoDB its data) across a restart; dropping one kills it.

use super::process::port_for_a_process;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct ServerProcess {
    pub port: u16,
    program: &'static str,
    args: Vec<String>,
    child: Option<Child>,
    _data: Option<tempfile::TempDir>,
}

impl ServerProcess {
    /// SecantusDB (MongoDB wire protocol) over a data directory that outlives restarts.
    pub fn mongodb() -> Self {
        let data = tempfile::tempdir().unwrap();
        let port = port_for_a_process();
        let args = vec![
            "--host".into(),
            "127.0.0.1".into(),
            "--port".into(),
            port.to_string(),
            "--storage-path".into(),
            data.path().join("db").to_string_lossy().into_owned(),
            // Commits reach the disk before they are acknowledged, as with a journaled
            // mongod: the tests kill it without warning.
            "--sync-on-commit".into(),
            "--log-level".into(),
            "WARNING".into(),
        ];
        Self::start("secantusd-py", args, port, Some(data))
    }

    pub fn redis() -> Self {
        let port = port_for_a_process();
        let args = [
            "--bind",
            "127.0.0.1",
            "--port",
            &port.to_string(),
            "--save",
            "",
            "--appendonly",
            "no",
        ]
        .map(String::from)
        .to_vec();
        Self::start("redis-server", args, port, None)
    }

    fn start(program: &'static str, args: Vec<String>, port: u16, data: Option<tempfile::TempDir>) -> Self {
        let mut server = Self {
            port,
            program,
            args,
            child: None,
            _data: data,
        };
        server.restart();
        server
    }

    pub fn mongodb_uri(&self) -> String {
        format!("mongodb://127.0.0.1:{}/?directConnection=true", self.port)
    }

    pub fn redis_url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Kills the server (as an outage would) and waits until it is gone.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it (again) on the same port and waits until it accepts connections.
    pub fn restart(&mut self) {
        self.kill();
        let child = Command::new(self.program)
            .args(&self.args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .unwrap_or_else(|err| panic!("starting {} (is it installed? see README): {err}", self.program));
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "{} did not listen on {} within 30 s",
                self.program,
                self.port
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.kill();
    }
}
