//! When an automation's time triggers fire: a cron expression (5 fields, or 6 with
//! seconds first) read in an IANA time zone, or one instant. Parsed once at the edge, so
//! a stored trigger always has a next time to compute.

use std::str::FromStr;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use croner::Cron;

use super::error::{DomainError, DomainResult};

/// A cron expression with its time zone.
#[derive(Debug, Clone)]
pub struct CronSchedule {
    cron: Cron,
    zone: Tz,
}

impl CronSchedule {
    /// `InvalidField` naming `cron` or `timezone` when either does not parse, or `cron`
    /// when it never fires.
    pub fn parse(cron: &str, timezone: &str) -> DomainResult<Self> {
        let fields = cron.split_whitespace().count();
        if !(5..=6).contains(&fields) {
            return Err(DomainError::InvalidField {
                field: "cron",
                message: format!(
                    "a cron expression has 5 fields (minute hour day month weekday) or 6 \
                     (seconds first); this one has {fields}"
                ),
            });
        }
        let cron = Cron::from_str(cron).map_err(|err| DomainError::InvalidField {
            field: "cron",
            message: format!("not a cron expression: {err}"),
        })?;
        let zone = Tz::from_str(timezone).map_err(|_| DomainError::InvalidField {
            field: "timezone",
            message: format!("`{timezone}` is not an IANA time zone (such as Europe/Berlin or UTC)"),
        })?;
        let schedule = Self { cron, zone };
        if schedule.next_after(Utc::now()).is_none() {
            return Err(DomainError::InvalidField {
                field: "cron",
                message: "this expression never fires (a date that does not exist?)".into(),
            });
        }
        Ok(schedule)
    }

    /// The first fire time strictly after `after`, if the expression ever matches again.
    pub fn next_after(&self, after: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.cron
            .find_next_occurrence(&after.with_timezone(&self.zone), false)
            .ok()
            .map(|next| next.with_timezone(&Utc))
    }
}

/// A time trigger, parsed: the next time it fires after a given one.
#[derive(Debug, Clone)]
pub enum FireTimes {
    Cron(Box<CronSchedule>),
    Once(DateTime<Utc>),
}

impl FireTimes {
    pub fn next_after(&self, after: DateTime<Utc>) -> Option<DateTime<Utc>> {
        match self {
            Self::Cron(schedule) => schedule.next_after(after),
            Self::Once(at) => (*at > after).then_some(*at),
        }
    }
}

/// An RFC 3339 instant (`at`), `InvalidField` naming `at` otherwise.
pub fn parse_instant(raw: &str) -> DomainResult<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(raw)
        .map(|at| at.with_timezone(&Utc))
        .map_err(|_| DomainError::InvalidField {
            field: "at",
            message: format!("`{raw}` is not an RFC 3339 time (such as 2026-12-01T09:00:00Z)"),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(raw: &str) -> DateTime<Utc> {
        parse_instant(raw).unwrap()
    }

    #[test]
    fn five_fields_fire_in_their_zone() {
        let monday_nine = CronSchedule::parse("0 9 * * MON", "Europe/Berlin").unwrap();
        // 2026-11-27 is a Friday; the next Monday 09:00 in Berlin (CET) is 08:00 UTC.
        assert_eq!(
            monday_nine.next_after(at("2026-11-27T12:00:00Z")),
            Some(at("2026-11-30T08:00:00Z"))
        );
    }

    #[test]
    fn six_fields_have_seconds() {
        let every_five = CronSchedule::parse("*/5 * * * * *", "UTC").unwrap();
        assert_eq!(
            every_five.next_after(at("2026-11-27T12:00:01Z")),
            Some(at("2026-11-27T12:00:05Z"))
        );
    }

    #[test]
    fn bad_input_names_its_field() {
        for (cron, zone, field) in [
            ("61 * * * *", "UTC", "cron"),
            ("* * *", "UTC", "cron"),
            ("0 0 * * * * 2030", "UTC", "cron"),
            ("0 9 * * *", "Mars/Olympus", "timezone"),
            ("0 0 30 2 *", "UTC", "cron"),
        ] {
            match CronSchedule::parse(cron, zone) {
                Err(DomainError::InvalidField { field: named, .. }) => assert_eq!(named, field),
                other => panic!("{cron} {zone}: {other:?}"),
            }
        }
        assert!(matches!(
            parse_instant("tomorrow"),
            Err(DomainError::InvalidField { field: "at", .. })
        ));
    }

    #[test]
    fn a_one_shot_fires_once() {
        let once = FireTimes::Once(at("2026-12-01T09:00:00Z"));
        assert_eq!(
            once.next_after(at("2026-11-30T00:00:00Z")),
            Some(at("2026-12-01T09:00:00Z"))
        );
        assert_eq!(once.next_after(at("2026-12-01T09:00:00Z")), None);
    }
}
