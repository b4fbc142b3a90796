//! Configuration: built-in defaults, then an optional TOML file (`TOOL_API_CONFIG`), then
//! environment variables. The sandbox-manager sets the environment of each sandbox.
//!
//! | variable | meaning |
//! |---|---|
//! | `SANDBOX_TOKEN_SHA256` | hex SHA-256 of the bearer token every route but `/health` requires (what the sandbox-manager sets, so the token itself is nowhere in the sandbox) |
//! | `SANDBOX_TOKEN` | the bearer token itself (at least 16 characters), for running the tool-api by hand |
//! | `TOOL_API_INSECURE_NO_AUTH=true` | development only: serve without a token |
//! | `TOOL_API_HOST`, `TOOL_API_PORT` | listen address (default `0.0.0.0:8080`) |
//! | `TOOL_API_WORKSPACE` | where relative paths point (default `$HOME`) |
//! | `TOOL_API_STORAGE_ROOT` | what the storage quota measures and guards (default `$HOME`, which holds the workspace) |
//! | `TOOL_API_HOLD_UNTIL_NETWORK=true` | nothing of the sandbox starts until `POST /v1/network-ready` (see `crate::network_gate`); the manager sets it |
//! | `TOOL_API_HOME_SEED` | a folder whose files are copied into `$HOME` at start where it lacks them (see `crate::home_seed`) |
//! | `TOOL_API_LIMITS__<FIELD>` | any field of [`Limits`], e.g. `TOOL_API_LIMITS__UPLOAD_MAX_BYTES` |
//! | `TOOL_API_DESKTOP__<FIELD>` | any field of [`DesktopSettings`], e.g. `TOOL_API_DESKTOP__ENABLED=true` |

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Deserialize)]
pub struct Settings {
    pub host: String,
    pub port: u16,
    /// The bearer token, or its SHA-256 in hex (which wins); one is required unless
    /// `insecure_no_auth`.
    pub token: Option<String>,
    pub token_sha256: Option<String>,
    pub insecure_no_auth: bool,
    pub workspace: PathBuf,
    /// The directory the storage quota measures and guards: the whole volume, so the
    /// home (see `crate::storage_quota`).
    pub storage_root: PathBuf,
    /// Nothing of the sandbox starts until the manager says its egress rules are in
    /// place (see `crate::network_gate`).
    #[serde(default)]
    pub hold_until_network: bool,
    /// Files prepared by the image for every fresh home (see `crate::home_seed`).
    #[serde(default)]
    pub home_seed: Option<PathBuf>,
    #[serde(default)]
    pub limits: Limits,
    #[serde(default)]
    pub desktop: DesktopSettings,
    #[serde(default)]
    pub kernel: KernelSettings,
}

/// The desktop the tool-api starts and watches: Xvfb, a window manager, x11vnc and
/// Chromium with DevTools on an inner loopback port.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct DesktopSettings {
    pub enabled: bool,
    /// X display number (`:99`).
    pub display: u16,
    /// `WIDTHxHEIGHTxDEPTH`.
    pub screen: String,
    /// Where x11vnc listens, on 127.0.0.1 inside the sandbox (relayed by the tool-api).
    pub vnc_port: u16,
    /// Where Chromium serves DevTools, on 127.0.0.1 inside the sandbox.
    pub cdp_port: u16,
    /// When set, DevTools is also relayed on this port on all interfaces (off by default:
    /// the browser is driven through the tool-api).
    pub cdp_public_port: Option<u16>,
    pub browser_command: String,
    /// Where the browser keeps its profile (cookies, storage) across stops; default
    /// `~/.config/sandpiper-browser`.
    pub browser_profile: Option<PathBuf>,
    /// `false` adds `--no-sandbox`: only for engines whose seccomp profile blocks
    /// Chromium's own sandbox.
    pub browser_sandbox: bool,
    /// `on_demand`: the desktop starts on first need and stops when idle; `always`: it
    /// starts with the tool-api, stays up, and `/health` waits for it.
    pub start: DesktopStart,
    /// With `on_demand`, how long the desktop may go unused before it stops; 0 keeps it.
    pub idle_stop_secs: f64,
    /// How long a caller waits for a starting desktop before `desktop_unavailable`.
    pub start_timeout_secs: f64,
    /// Below this memory limit the desktop refuses to start (Chromium is OOM-killed on its
    /// first page at 200 MiB; 512 MiB leaves room for real pages).
    pub min_memory_mb: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DesktopStart {
    OnDemand,
    Always,
}

impl Default for DesktopSettings {
    fn default() -> Self {
        Self {
            enabled: false,
            display: 99,
            screen: "1280x800x24".into(),
            vnc_port: 5900,
            cdp_port: 9222,
            cdp_public_port: None,
            browser_command: "chromium".into(),
            browser_profile: None,
            browser_sandbox: true,
            start: DesktopStart::OnDemand,
            idle_stop_secs: 600.0,
            start_timeout_secs: 20.0,
            min_memory_mb: 512,
        }
    }
}

/// The code interpreter's kernel (`TOOL_API_KERNEL__*`). The limits are passed on to
/// the driver program as they are (see `kernel/driver.py`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct KernelSettings {
    /// Which kernel starts with the server, so that a sandbox taken from the warm pool has
    /// it ready for the first cell (`/health` says `starting` until it has started). None
    /// by default: an idle kernel holds ≈110 MiB and most sandboxes never run a cell;
    /// without it the first cell waits for the start.
    pub prewarm: Prewarm,
    /// The Python that has `jupyter_client` and `ipykernel`.
    pub python: String,
    /// Default and maximum time a cell may run before it is interrupted.
    pub default_timeout_secs: f64,
    pub max_timeout_secs: f64,
    /// How long an interrupted cell has to stop before the kernel is restarted instead.
    pub interrupt_grace_secs: f64,
    /// How long the kernel may take to start.
    pub start_timeout_secs: f64,
    /// Characters of each output stream kept before the cut, and lines kept after it.
    pub stream_max_chars: usize,
    pub stream_tail_lines: usize,
    /// Most display outputs of one cell.
    pub max_outputs: usize,
    /// Images with a longer side or more bytes are scaled down; still too big, refused.
    pub image_max_side: u32,
    pub image_max_bytes: usize,
    pub svg_max_bytes: usize,
    /// Longer HTML (a huge table) is dropped for its plain text.
    pub html_max_bytes: usize,
    pub traceback_max_chars: usize,
}

/// The kernel [`KernelSettings::prewarm`] starts (`TOOL_API_KERNEL__PREWARM`). The
/// boolean it once was still reads, in the words every boolean setting takes: `true`,
/// `1`, `yes`, `on` are `code_run`; `false`, `0`, `no`, `off` are `none`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "PrewarmSetting")]
pub enum Prewarm {
    #[default]
    None,
    /// The agent's `code_run` kernel.
    CodeRun,
    /// The default context of E2B's code interpreter (`crate::interpreter`).
    Interpreter,
}

/// [`Prewarm`] as written: a name, or the boolean of before (which the environment's
/// parsing turns `1` and `0` into numbers for).
#[derive(Deserialize)]
#[serde(untagged)]
enum PrewarmSetting {
    Flag(bool),
    Number(i64),
    Name(String),
}

impl TryFrom<PrewarmSetting> for Prewarm {
    type Error = String;

    fn try_from(setting: PrewarmSetting) -> Result<Self, Self::Error> {
        let name = match setting {
            PrewarmSetting::Flag(flag) => flag.to_string(),
            PrewarmSetting::Number(number) => number.to_string(),
            PrewarmSetting::Name(name) => name,
        };
        match name.to_ascii_lowercase().as_str() {
            "none" | "false" | "0" | "no" | "off" => Ok(Self::None),
            "code_run" | "true" | "1" | "yes" | "on" => Ok(Self::CodeRun),
            "interpreter" => Ok(Self::Interpreter),
            _ => Err(format!(
                "kernel.prewarm `{name}`: expected none, code_run or interpreter"
            )),
        }
    }
}

impl Default for KernelSettings {
    fn default() -> Self {
        Self {
            prewarm: Prewarm::None,
            python: "python3".into(),
            default_timeout_secs: 60.0,
            max_timeout_secs: 600.0,
            interrupt_grace_secs: 5.0,
            start_timeout_secs: 30.0,
            stream_max_chars: 20_000,
            stream_tail_lines: 40,
            max_outputs: 32,
            image_max_side: 2048,
            image_max_bytes: 4 << 20,
            svg_max_bytes: 1 << 20,
            html_max_bytes: 256 << 10,
            traceback_max_chars: 4_000,
        }
    }
}

/// Caps that keep one request from exhausting the sandbox or the server.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct Limits {
    /// Most content bytes one `read` returns.
    pub read_max_bytes: u64,
    /// Largest JSON request body (a `write` carries its content in it).
    pub json_body_max_bytes: usize,
    /// Largest upload.
    pub upload_max_bytes: u64,
    /// Most files a find or search walks before it stops and says so.
    pub scan_max_files: u64,
    /// Most results of a find or search.
    pub max_results: u32,
    /// Default and maximum wait of `exec` and `wait`.
    pub exec_default_wait_secs: f64,
    pub exec_max_wait_secs: f64,
    /// Bytes of console output kept per shell session.
    pub shell_buffer_bytes: usize,
    /// Most shell sessions alive at once; each keeps a `bash`, so this also bounds the
    /// processes they take from the container's pids limit.
    pub max_shell_sessions: usize,
    /// Default and maximum text returned by `fetch`.
    pub fetch_default_bytes: u64,
    pub fetch_max_bytes: u64,
    /// Timeout of one fetch from the outside.
    pub upstream_timeout_secs: f64,
    /// Most MCP stdio servers running at once; each is a process tree (`npx` and Node.js),
    /// so this also bounds what they take from the container's pids and memory limits.
    pub mcp_stdio_max_servers: usize,
    /// Longest JSON-RPC message relayed either way to or from an MCP stdio server.
    pub mcp_stdio_message_max_bytes: usize,
    /// Most bytes the storage root may hold on disk (see `crate::storage_quota`); none
    /// without it.
    pub storage_quota_bytes: Option<u64>,
    /// How often the storage root is measured against the quota.
    pub storage_check_secs: f64,
    /// Most bytes of file content one archive may hold, counted by apparent size (a
    /// sparse file for all it expands to); the storage quota caps it too when smaller.
    pub archive_max_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            read_max_bytes: 1 << 20,
            json_body_max_bytes: 16 << 20,
            upload_max_bytes: 2 << 30,
            scan_max_files: 100_000,
            max_results: 1_000,
            exec_default_wait_secs: 30.0,
            exec_max_wait_secs: 600.0,
            shell_buffer_bytes: 1 << 20,
            max_shell_sessions: 64,
            fetch_default_bytes: 100 << 10,
            fetch_max_bytes: 2 << 20,
            upstream_timeout_secs: 20.0,
            mcp_stdio_max_servers: 16,
            mcp_stdio_message_max_bytes: 16 << 20,
            storage_quota_bytes: None,
            storage_check_secs: 5.0,
            archive_max_bytes: 4 << 30,
        }
    }
}

impl Settings {
    /// Settings for a server on `127.0.0.1:0` over `workspace`, which is also the storage
    /// root, with default limits; tests and embedders adjust fields from here.
    pub fn local(workspace: PathBuf, token: Option<String>) -> Self {
        Self {
            host: "127.0.0.1".into(),
            port: 0,
            insecure_no_auth: token.is_none(),
            token,
            token_sha256: None,
            storage_root: workspace.clone(),
            workspace,
            hold_until_network: false,
            home_seed: None,
            limits: Limits::default(),
            desktop: DesktopSettings::default(),
            kernel: KernelSettings::default(),
        }
    }

    /// Reads defaults, the optional file named by `TOOL_API_CONFIG`, then the `TOOL_API_*`
    /// variables, then `SANDBOX_TOKEN` and `SANDBOX_TOKEN_SHA256`.
    pub fn load() -> Result<Self, config::ConfigError> {
        let home = std::env::var("HOME").unwrap_or_else(|_| "/".into());
        let defaults = [
            ("host", "0.0.0.0".into()),
            ("port", 8080.into()),
            ("insecure_no_auth", false.into()),
            ("workspace", home.clone().into()),
            ("storage_root", home.into()),
        ];
        let overrides = [
            ("token", "SANDBOX_TOKEN"),
            ("token_sha256", "SANDBOX_TOKEN_SHA256"),
        ];
        service_kit::load_settings("TOOL_API", &defaults, &overrides)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::Prewarm;

    fn read(value: serde_json::Value) -> Result<Prewarm, serde_json::Error> {
        serde_json::from_value(value)
    }

    /// The setting as `TOOL_API_KERNEL__PREWARM=<value>` gives it, parsed as
    /// [`Settings::load`](super::Settings::load) parses the environment.
    fn from_environment(value: &str) -> Result<Prewarm, config::ConfigError> {
        #[derive(serde::Deserialize)]
        struct Kernel {
            prewarm: Prewarm,
        }
        let variables = HashMap::from([("KERNEL_PREWARM".to_owned(), value.to_owned())]);
        let environment = config::Environment::with_prefix("KERNEL")
            .try_parsing(true)
            .source(Some(variables));
        let kernel: Kernel = config::Config::builder()
            .add_source(environment)
            .build()?
            .try_deserialize()?;
        Ok(kernel.prewarm)
    }

    #[test]
    fn prewarm_takes_the_words_of_every_boolean_setting() {
        for word in ["1", "true", "TRUE", "yes", "on"] {
            assert_eq!(from_environment(word).unwrap(), Prewarm::CodeRun, "{word}");
        }
        for word in ["0", "false", "no", "Off"] {
            assert_eq!(from_environment(word).unwrap(), Prewarm::None, "{word}");
        }
        assert_eq!(from_environment("interpreter").unwrap(), Prewarm::Interpreter);
        let wrong = from_environment("2").unwrap_err().to_string();
        assert!(
            wrong.contains("expected none, code_run or interpreter"),
            "{wrong}"
        );
    }

    #[test]
    fn prewarm_reads_its_names_and_the_boolean_it_once_was() {
        assert_eq!(read("interpreter".into()).unwrap(), Prewarm::Interpreter);
        assert_eq!(read("code_run".into()).unwrap(), Prewarm::CodeRun);
        assert_eq!(read("none".into()).unwrap(), Prewarm::None);
        assert_eq!(read(true.into()).unwrap(), Prewarm::CodeRun);
        assert_eq!(read(false.into()).unwrap(), Prewarm::None);
        let wrong = read("always".into()).unwrap_err().to_string();
        assert!(wrong.contains("none, code_run or interpreter"), "{wrong}");
    }
}
