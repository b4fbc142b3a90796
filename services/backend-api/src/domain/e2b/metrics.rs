//! What a running rented sandbox uses, as E2B's metrics report it, and the span of time
//! a caller asks for them.

use chrono::{DateTime, Duration, Utc};

use crate::domain::error::{DomainError, DomainResult};

/// One reading of what a running sandbox uses, as E2B's metrics report it.
#[derive(Debug, Clone, PartialEq)]
pub struct E2bMetrics {
    pub at: DateTime<Utc>,
    pub cpu_count: u32,
    /// Of all its CPUs, over the moment the reading took.
    pub cpu_used_pct: f64,
    pub mem_used: u64,
    pub mem_total: u64,
    pub disk_used: u64,
    pub disk_total: u64,
}

/// The span a metrics request asks for: `start` and `end` in Unix seconds, either or
/// both given. A reading stands for the [`METRICS_INTERVAL_SECS`] before it, as a point
/// of E2B's series stands for its collection interval.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MetricsWindow {
    start: Option<DateTime<Utc>>,
    end: Option<DateTime<Utc>>,
}

/// How often E2B collects a sandbox's metrics (5 s).
pub const METRICS_INTERVAL_SECS: i64 = 5;

impl MetricsWindow {
    pub fn parse(start: Option<i64>, end: Option<i64>) -> DomainResult<Self> {
        let at = |field: &'static str, secs: Option<i64>| {
            secs.map(|secs| {
                DateTime::from_timestamp(secs, 0)
                    .filter(|_| secs >= 0)
                    .ok_or_else(|| DomainError::InvalidField {
                        field,
                        message: format!("{field} {secs} is not a time: give Unix seconds"),
                    })
            })
            .transpose()
        };
        let window = Self {
            start: at("start", start)?,
            end: at("end", end)?,
        };
        if let (Some(start), Some(end)) = (window.start, window.end) {
            if start > end {
                return Err(DomainError::InvalidField {
                    field: "start",
                    message: format!("start {start} is after end {end}"),
                });
            }
        }
        Ok(window)
    }

    /// Whether the interval a reading taken `at` stands for meets the window.
    pub fn holds(&self, at: DateTime<Utc>) -> bool {
        let from = at - Duration::seconds(METRICS_INTERVAL_SECS);
        self.start.is_none_or(|start| at >= start) && self.end.is_none_or(|end| from <= end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(secs, 0).unwrap()
    }

    #[test]
    fn a_reading_is_in_a_window_that_meets_the_interval_it_stands_for() {
        let window = MetricsWindow::parse(Some(100), Some(200)).unwrap();
        assert!(window.holds(at(100)) && window.holds(at(150)));
        // Taken just after the end, it still stands for seconds within it.
        assert!(window.holds(at(200 + METRICS_INTERVAL_SECS)));
        assert!(!window.holds(at(201 + METRICS_INTERVAL_SECS)));
        assert!(!window.holds(at(99)));
        assert!(MetricsWindow::default().holds(at(0)));
        assert!(MetricsWindow::parse(None, Some(10)).unwrap().holds(at(3)));
        assert!(!MetricsWindow::parse(Some(10), None).unwrap().holds(at(3)));
    }

    #[test]
    fn a_window_is_unix_seconds_in_order() {
        for (start, end) in [(Some(-1), None), (None, Some(i64::MAX)), (Some(20), Some(10))] {
            let err = MetricsWindow::parse(start, end).unwrap_err().to_string();
            assert!(err.contains("start") || err.contains("end"), "{err}");
        }
        assert!(MetricsWindow::parse(Some(10), Some(10)).is_ok());
    }
}
