//! Several backend replicas share one deployment's sessions, but a session's run lives
//! in one of them: the replica holding the session's run lease. The others pass what
//! concerns that run (a person's message, a stop) to it as [`RunSignal`]s, and tell every
//! replica when a person holds a session's desktop, since the run may move to any of them.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::session::SessionId;

/// One backend process, named anew at every start (so a restarted replica never
/// mistakes its predecessor's leases for its own).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ReplicaId(String);

impl ReplicaId {
    /// `host-xxxxxxxx`: the host name tells an operator where a run is.
    pub fn new(host: &str) -> Self {
        let host: String = host
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '.')
            .take(48)
            .collect();
        let tail = &uuid::Uuid::new_v4().simple().to_string()[..8];
        Self(format!("{host}-{tail}"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ReplicaId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Who runs a session's agent: a replica, and which of its runs (a replica ending one
/// run and starting the next must not mistake the old lease for the new one's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunLease {
    pub replica: ReplicaId,
    pub run: String,
}

impl RunLease {
    pub fn new(replica: ReplicaId) -> Self {
        Self {
            replica,
            run: uuid::Uuid::new_v4().simple().to_string(),
        }
    }

    /// How a store holds it.
    pub fn encode(&self) -> String {
        format!("{} {}", self.replica, self.run)
    }

    /// Whatever a store holds is someone's lease, even a value none of ours wrote.
    pub fn decode(raw: &str) -> Self {
        let (replica, run) = raw.split_once(' ').unwrap_or((raw, ""));
        Self {
            replica: ReplicaId(replica.to_owned()),
            run: run.to_owned(),
        }
    }
}

/// What one replica tells another (or all) about a session's run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "signal", rename_all = "snake_case")]
pub enum RunSignal {
    /// A person's message, stored already, for the run `to` holds.
    Message {
        to: ReplicaId,
        session: SessionId,
        seq: u64,
        content: String,
        attachments: Vec<String>,
        /// How often it was passed on already (a run moving while the message travels).
        hops: u8,
    },
    /// Stop the run `to` holds; the sender records the stop once the lease is free.
    Stop { to: ReplicaId, session: SessionId },
    /// Whether a person on `from` holds the session's desktop; repeated while held, so a
    /// replica that starts (or missed one) learns it, and a dead holder's hold expires.
    Hold {
        from: ReplicaId,
        session: SessionId,
        held: bool,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_survives_its_round_trip_through_a_store() {
        let lease = RunLease::new(ReplicaId::new("pod name/with spaces"));
        assert!(!lease.replica.as_str().contains(' '), "{}", lease.replica);
        assert_eq!(RunLease::decode(&lease.encode()), lease);
        assert_eq!(RunLease::decode("no-separator").replica.as_str(), "no-separator");
    }
}
