//! Sandboxes rented through the E2B-compatible API (`/e2b`): what E2B's SDKs ask for at
//! creation, parsed once here, and the record kept while a sandbox lives. A rented
//! sandbox is the sandbox-manager's sandbox of a session whose id is the sandbox's id,
//! so it gets the same hardening, limits and warm pool as a chat's.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, SubsecRound, Utc};
use serde::{Deserialize, Serialize};

use super::error::{DomainError, DomainResult};
use super::session::{Network, SessionId};
use super::user::UserId;

mod metrics;
pub use metrics::{E2bMetrics, MetricsWindow};

/// The longest a sandbox may live without being told again (24 h, E2B's own maximum).
pub const MAX_TIMEOUT_SECS: u64 = 86_400;
/// What E2B's SDKs give when the caller says nothing (5 min).
pub const DEFAULT_TIMEOUT_SECS: u64 = 300;
const MAX_METADATA: usize = 50;
const MAX_METADATA_CHARS: usize = 512;
const MAX_ENV_VARS: usize = 200;
const MAX_ENV_VALUE_BYTES: usize = 32 * 1024;

/// A rented sandbox's id: a session id, which the sandbox-manager knows it by.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct E2bSandboxId(SessionId);

impl E2bSandboxId {
    pub fn new() -> Self {
        Self(SessionId::new())
    }

    /// Anything but one of ours names no sandbox.
    pub fn parse(raw: &str) -> DomainResult<Self> {
        SessionId::parse(raw)
            .map(Self)
            .map_err(|_| DomainError::NotFound("sandbox"))
    }

    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// The session the sandbox-manager keeps the sandbox under.
    pub fn session(&self) -> &SessionId {
        &self.0
    }
}

impl Default for E2bSandboxId {
    fn default() -> Self {
        Self::new()
    }
}

/// The templates offered: all run the one sandbox image, whose desktop starts on first
/// use and whose code interpreter is always there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Template {
    /// E2B's default: a Linux box with the shell and files.
    Base,
    /// `code-interpreter-v1`, the code interpreter SDK's default.
    CodeInterpreter,
    /// The desktop SDK's: the same, with the desktop it drives.
    Desktop,
}

impl Template {
    /// The names E2B's SDKs send, with the ones people also write.
    pub fn parse(raw: &str) -> DomainResult<Self> {
        match raw {
            "base" => Ok(Self::Base),
            "code-interpreter-v1" | "code-interpreter" => Ok(Self::CodeInterpreter),
            "desktop" => Ok(Self::Desktop),
            _ => Err(DomainError::InvalidField {
                field: "templateID",
                message: format!(
                    "there is no template `{raw}` here; the templates are base, code-interpreter-v1 \
                     and desktop (all run the same sandbox image)"
                ),
            }),
        }
    }

    /// Whether its SDK runs code first (`run_code`): its sandboxes start their kernel
    /// with them.
    pub fn runs_code(self) -> bool {
        self == Self::CodeInterpreter
    }

    /// The name answers carry.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Base => "base",
            Self::CodeInterpreter => "code-interpreter-v1",
            Self::Desktop => "desktop",
        }
    }
}

/// How long a sandbox lives from now: 0 s (its time is up at once, as E2B's API allows)
/// to [`MAX_TIMEOUT_SECS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct E2bTimeout(u64);

impl E2bTimeout {
    pub fn parse(secs: Option<i64>) -> DomainResult<Self> {
        match secs {
            None => Ok(Self(DEFAULT_TIMEOUT_SECS)),
            Some(secs) if (0..=MAX_TIMEOUT_SECS as i64).contains(&secs) => Ok(Self(secs as u64)),
            Some(secs) => Err(DomainError::InvalidField {
                field: "timeout",
                message: format!(
                    "a timeout of {secs} s is out of range: give 0 to {MAX_TIMEOUT_SECS} seconds"
                ),
            }),
        }
    }

    /// The sandbox's time is up now.
    pub fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// When a sandbox told this at `now` ends, in whole seconds (so stores may compare
    /// end times as text).
    pub fn end_from(self, now: DateTime<Utc>) -> DateTime<Utc> {
        (now + Duration::seconds(self.0 as i64)).trunc_subsecs(0)
    }
}

/// Labels a caller attaches to a sandbox, to find it again by them.
pub fn metadata(raw: BTreeMap<String, String>) -> DomainResult<BTreeMap<String, String>> {
    let bad = |message: String| DomainError::InvalidField {
        field: "metadata",
        message,
    };
    if raw.len() > MAX_METADATA {
        return Err(bad(format!("give at most {MAX_METADATA} metadata entries")));
    }
    for (key, value) in &raw {
        if key.is_empty()
            || key.chars().count() > MAX_METADATA_CHARS
            || value.chars().count() > MAX_METADATA_CHARS
        {
            return Err(bad(format!(
                "metadata keys are 1 to {MAX_METADATA_CHARS} characters and values at most as long"
            )));
        }
    }
    Ok(raw)
}

/// The variables every program started in the sandbox sees.
pub fn env_vars(raw: BTreeMap<String, String>) -> DomainResult<BTreeMap<String, String>> {
    let bad = |message: String| DomainError::InvalidField {
        field: "envVars",
        message,
    };
    if raw.len() > MAX_ENV_VARS {
        return Err(bad(format!("give at most {MAX_ENV_VARS} variables")));
    }
    for (name, value) in &raw {
        let named = name.len() <= 256
            && name
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if !named {
            return Err(bad(format!(
                "`{name}` is not a variable name: letters, digits and _, not starting with a digit"
            )));
        }
        if value.len() > MAX_ENV_VALUE_BYTES || value.contains('\0') {
            return Err(bad(format!(
                "the value of {name} is over {MAX_ENV_VALUE_BYTES} bytes or holds a NUL byte"
            )));
        }
    }
    Ok(raw)
}

/// How long a paused sandbox's files are kept before it is removed (30 days).
pub const PAUSED_KEPT_SECS: i64 = 30 * 86_400;

/// Whether a rented sandbox runs, or is paused: its container gone, its files kept.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum E2bState {
    #[default]
    Running,
    Paused,
}

impl E2bState {
    /// The name E2B's API gives it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Running => "running",
            Self::Paused => "paused",
        }
    }
}

/// A rented sandbox as stored, from creation until it is killed or its time is up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct E2bSandbox {
    pub id: E2bSandboxId,
    pub owner: UserId,
    pub template: Template,
    pub metadata: BTreeMap<String, String>,
    pub network: Network,
    /// The CPUs and memory its manager gave it.
    pub cpu_count: u32,
    pub memory_mb: u64,
    pub started_at: DateTime<Utc>,
    /// When a running sandbox is ended (or paused, with `auto_pause`) unless told
    /// otherwise; when a paused one is removed with its files.
    pub end_at: DateTime<Utc>,
    #[serde(default)]
    pub state: E2bState,
    /// Paused rather than ended when its time is up.
    #[serde(default)]
    pub auto_pause: bool,
    /// The environment it was created with, given again to the sandbox it resumes in.
    #[serde(default)]
    pub env_vars: BTreeMap<String, String>,
}

impl E2bSandbox {
    /// Marks it paused at `now`: its files are kept [`PAUSED_KEPT_SECS`] from then.
    pub fn pause(&mut self, now: DateTime<Utc>) {
        self.state = E2bState::Paused;
        self.end_at = (now + Duration::seconds(PAUSED_KEPT_SECS)).trunc_subsecs(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_are_the_three_offered() {
        assert_eq!(
            Template::parse("code-interpreter-v1").unwrap(),
            Template::CodeInterpreter
        );
        assert_eq!(Template::parse("base").unwrap().as_str(), "base");
        let unknown = Template::parse("ubuntu").unwrap_err().to_string();
        assert!(unknown.contains("no template `ubuntu`"), "{unknown}");
    }

    #[test]
    fn timeouts_default_and_stay_in_range() {
        let now = Utc::now();
        assert_eq!(
            E2bTimeout::parse(None).unwrap().end_from(now),
            (now + Duration::seconds(300)).trunc_subsecs(0)
        );
        assert!(E2bTimeout::parse(Some(MAX_TIMEOUT_SECS as i64)).is_ok());
        let now_up = E2bTimeout::parse(Some(0)).unwrap();
        assert!(now_up.is_zero() && now_up.end_from(now) <= now);
        assert!(!E2bTimeout::parse(Some(1)).unwrap().is_zero());
        for bad in [-1, -5, MAX_TIMEOUT_SECS as i64 + 1] {
            assert!(E2bTimeout::parse(Some(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn variables_and_labels_are_checked() {
        let one = |k: &str, v: &str| BTreeMap::from([(k.to_owned(), v.to_owned())]);
        assert!(env_vars(one("TEST_VAR", "x")).is_ok());
        for bad in ["1A", "A-B", "", "A B"] {
            assert!(env_vars(one(bad, "x")).is_err(), "{bad}");
        }
        assert!(env_vars(one("A", "a\0b")).is_err());
        assert!(metadata(one("user", "alice")).is_ok());
        assert!(metadata(one("", "x")).is_err());
        assert!(metadata(one("k", &"v".repeat(MAX_METADATA_CHARS + 1))).is_err());
    }

    #[test]
    fn an_id_is_a_session_id_and_anything_else_is_not_found() {
        let id = E2bSandboxId::new();
        assert_eq!(E2bSandboxId::parse(id.as_str()).unwrap(), id);
        assert!(matches!(
            E2bSandboxId::parse("../etc"),
            Err(DomainError::NotFound("sandbox"))
        ));
    }
}
