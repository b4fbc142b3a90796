//! The manager's record of one sandbox, the input types it accepts, and how a record is
//! shown to clients (how a sandbox is reached and its secrets: [`crate::access`]). Records are what the store keeps across restarts; the containers'
//! labels tie them to the engine.

use chrono::{DateTime, Duration, Utc};
use sandbox_manager_contract::{
    NetworkMode, ResourceLimits, Sandbox, SandboxState, StorageKind, ToolApiAccess,
};
use serde::{Deserialize, Serialize};

use crate::access::{random_string, Endpoints, Secrets};
use crate::error::{ManagerError, ManagerResult};

/// A session id as sandboxes are keyed by: it also names the session's volume, so it is
/// kept to characters every engine accepts in names.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SessionId(String);

impl SessionId {
    pub fn parse(raw: &str) -> ManagerResult<Self> {
        let ok = (1..=128).contains(&raw.len())
            && raw
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
            && raw.as_bytes()[0].is_ascii_alphanumeric();
        if ok {
            Ok(Self(raw.to_owned()))
        } else {
            Err(ManagerError::invalid(
                "session_id must be 1-128 characters of letters, digits, '-', '_' or '.', \
                 starting with a letter or digit",
            ))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The owner of a session: any non-empty name without control characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Owner(String);

impl Owner {
    pub fn parse(raw: &str) -> ManagerResult<Self> {
        if raw.trim().is_empty() || raw.len() > 256 || raw.chars().any(char::is_control) {
            return Err(ManagerError::invalid(
                "owner must be 1-256 characters without control characters",
            ));
        }
        Ok(Self(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A random id for a new sandbox, e.g. `sbx-k3v9q0c1x8m2`.
pub fn new_sandbox_id() -> String {
    format!("sbx-{}", random_string(12).to_ascii_lowercase())
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SandboxRecord {
    pub id: String,
    pub session_id: SessionId,
    pub owner: Owner,
    pub state: SandboxState,
    pub created_at: DateTime<Utc>,
    pub last_used_at: DateTime<Utc>,
    pub secrets: Secrets,
    /// Known once the container runs; they change when it is restarted.
    pub endpoints: Option<Endpoints>,
    pub limits: ResourceLimits,
    pub network: NetworkMode,
    pub storage: StorageKind,
    pub image: String,
    pub restarts: u32,
    /// Not ended by the idle time-out (`CreateSandbox::keep_while_idle`).
    #[serde(default)]
    pub keep_while_idle: bool,
    /// With volume storage, the key of its home volume: the id of the pool sandbox that
    /// made it, or the session's id (also when absent: records from before it was kept).
    /// A later sandbox of the session takes it over.
    #[serde(default)]
    pub home_key: Option<String>,
}

/// When the idle time-out and the maximum lifetime end a sandbox.
#[derive(Debug, Clone, Copy)]
pub struct Lifetime {
    pub idle_ttl: Duration,
    pub max_lifetime: Duration,
}

impl SandboxRecord {
    /// The key of its home volume ([`crate::driver::SandboxSpec::home_volume`]); `None`
    /// when its home is in memory.
    pub fn home_volume(&self) -> Option<&str> {
        (self.storage == StorageKind::Volume)
            .then(|| self.home_key.as_deref().unwrap_or(self.session_id.as_str()))
    }

    pub fn expires_at(&self, lifetime: Lifetime) -> DateTime<Utc> {
        let end = self.created_at + lifetime.max_lifetime;
        if self.keep_while_idle {
            return end;
        }
        (self.last_used_at + lifetime.idle_ttl).min(end)
    }

    /// The client's view: endpoints only while the sandbox runs.
    pub fn view(&self, lifetime: Lifetime) -> Sandbox {
        let running = self.state.is_live() && self.state != SandboxState::Creating;
        let endpoints = self.endpoints.as_ref().filter(|_| running);
        Sandbox {
            id: self.id.clone(),
            session_id: self.session_id.as_str().to_owned(),
            owner: self.owner.as_str().to_owned(),
            state: self.state,
            created_at: self.created_at,
            last_used_at: self.last_used_at,
            expires_at: self.expires_at(lifetime),
            tool_api: endpoints.map(|e| ToolApiAccess {
                url: e.tool_api_url(),
                token: self.secrets.token.clone(),
            }),
            limits: self.limits,
            network: self.network,
            storage: self.storage,
            image: self.image.clone(),
            restarts: self.restarts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids_are_name_safe() {
        for good in ["s1", "abc-DEF_1.2", &"x".repeat(128)] {
            assert!(SessionId::parse(good).is_ok(), "{good}");
        }
        for bad in ["", "-lead", "a/b", "a b", "ä", &"x".repeat(129)] {
            assert!(SessionId::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn owners_need_visible_text() {
        assert!(Owner::parse("user@example.com").is_ok());
        for bad in ["", "   ", "a\nb", &"x".repeat(257)] {
            assert!(Owner::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_idle_time_out_or_the_lifetime_ends_a_sandbox_whichever_is_first() {
        let created = DateTime::parse_from_rfc3339("2026-01-01T00:00:00Z")
            .unwrap()
            .to_utc();
        let lifetime = Lifetime {
            idle_ttl: Duration::minutes(30),
            max_lifetime: Duration::hours(2),
        };
        let mut record = SandboxRecord {
            id: new_sandbox_id(),
            session_id: SessionId::parse("s").unwrap(),
            owner: Owner::parse("o").unwrap(),
            state: SandboxState::Ready,
            created_at: created,
            last_used_at: created,
            secrets: Secrets::generate(),
            endpoints: None,
            limits: ResourceLimits {
                memory_mb: 2048,
                cpus: 1.0,
                pids: 256,
            },
            network: NetworkMode::Internet,
            storage: StorageKind::Tmpfs,
            image: "i".into(),
            restarts: 0,
            keep_while_idle: false,
            home_key: None,
        };
        assert_eq!(record.expires_at(lifetime), created + Duration::minutes(30));
        record.last_used_at = created + Duration::minutes(100);
        assert_eq!(record.expires_at(lifetime), created + Duration::hours(2));
        // One whose caller keeps its end is not ended for being idle.
        record.last_used_at = created;
        record.keep_while_idle = true;
        assert_eq!(record.expires_at(lifetime), created + Duration::hours(2));
        // No ports are handed out for a sandbox that is not running.
        record.endpoints = Some(Endpoints {
            host: "h".into(),
            tool_api_port: 1,
        });
        let view = record.view(lifetime);
        assert_eq!(view.tool_api.map(|t| t.url).as_deref(), Some("http://h:1"));
        record.state = SandboxState::Expired;
        assert!(record.view(lifetime).tool_api.is_none());
    }
}
