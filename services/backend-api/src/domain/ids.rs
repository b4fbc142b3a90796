//! The ids of records that are UUIDs, made by one macro: new, parsed from a URL (where
//! anything but an id of ours is simply not found), and shown. Leaf values: records of
//! other kinds name them without importing each other.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::error::{DomainError, DomainResult};

/// An id type over a UUID string: `$make` makes a new one, and a string that is not a
/// UUID is `NotFound($what)`.
macro_rules! uuid_id {
    ($(#[$doc:meta])* $name:ident, $make:path, $what:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub struct $name(String);

        impl $name {
            pub fn new() -> Self {
                Self($make().to_string())
            }

            pub fn parse(raw: &str) -> DomainResult<Self> {
                uuid::Uuid::parse_str(raw)
                    .map(|id| Self(id.to_string()))
                    .map_err(|_| DomainError::NotFound($what))
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }
    };
}

uuid_id!(
    /// Time-ordered (UUID v7), so a person's list is in creation order.
    AutomationId,
    uuid::Uuid::now_v7,
    "automation"
);

uuid_id!(
    /// A trigger's id; a webhook's URL holds it, so it is random (UUID v4), not
    /// guessable from another.
    TriggerId,
    uuid::Uuid::new_v4,
    "trigger"
);

uuid_id!(
    /// Time-ordered, so an automation's history lists newest first by id.
    RunId,
    uuid::Uuid::now_v7,
    "run"
);

impl RunId {
    /// The id of a run made at `at` (a replayed or imported history entry, a test's).
    pub fn at(at: DateTime<Utc>) -> Self {
        let millis = u64::try_from(at.timestamp_millis()).unwrap_or_default();
        let time =
            uuid::Timestamp::from_unix(uuid::NoContext, millis / 1000, (millis % 1000) as u32 * 1_000_000);
        Self(uuid::Uuid::new_v7(time).to_string())
    }

    /// When it was made, to the millisecond (its UUID v7 says).
    pub fn made_at(&self) -> Option<DateTime<Utc>> {
        let (secs, nanos) = uuid::Uuid::parse_str(&self.0).ok()?.get_timestamp()?.to_unix();
        DateTime::from_timestamp(i64::try_from(secs).ok()?, nanos)
    }
}

uuid_id!(
    /// A memory note's id, time-ordered.
    NoteId,
    uuid::Uuid::now_v7,
    "memory note"
);

uuid_id!(
    /// A tool kept in a person's tool box, time-ordered.
    KeptToolId,
    uuid::Uuid::now_v7,
    "kept tool"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_round_trips_and_anything_else_is_not_found() {
        let id = TriggerId::new();
        assert_eq!(TriggerId::parse(id.as_str()).unwrap(), id);
        let err = RunId::parse("../etc").unwrap_err();
        assert!(matches!(err, DomainError::NotFound("run")), "{err:?}");
    }

    #[test]
    fn a_run_id_says_when_it_was_made() {
        let at = DateTime::parse_from_rfc3339("2026-11-20T08:00:00.123Z")
            .unwrap()
            .to_utc();
        assert_eq!(RunId::at(at).made_at(), Some(at));
        let now = RunId::new().made_at().unwrap();
        assert!((Utc::now() - now).num_seconds().abs() < 5, "{now}");
    }

    #[test]
    fn time_ordered_ids_sort_by_creation() {
        let (first, second) = (AutomationId::new(), AutomationId::new());
        assert!(first.as_str() < second.as_str());
    }
}
