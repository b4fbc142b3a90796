//! Listing the owner's rented sandboxes as E2B's `GET /v2/sandboxes` does: filtered by
//! metadata, state, start time and template, ordered by start time (newest first unless
//! told otherwise) and paged by a cursor, the last entry's start and id, so a page
//! follows on from the one before in either order even when sandboxes come and go.

use std::collections::BTreeMap;

use chrono::{DateTime, SecondsFormat, Utc};

use super::E2bService;
use crate::application::{AppError, AppResult};
use crate::domain::e2b::{E2bSandbox, E2bState, Template};
use crate::domain::user::UserId;

/// Which of the owner's sandboxes a listing wants.
#[derive(Default)]
pub struct SandboxFilter {
    /// Every pair must be among the sandbox's metadata.
    pub metadata: BTreeMap<String, String>,
    /// Only these states; empty: any.
    pub states: Vec<E2bState>,
    /// Only those started at or after this.
    pub started_after: Option<DateTime<Utc>>,
    /// Only those of this template, by any name it is known by; a name that is no
    /// template's matches none.
    pub template: Option<String>,
}

/// By start time: E2B lists the newest first unless asked otherwise.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Order {
    Asc,
    #[default]
    Desc,
}

impl Order {
    /// `asc` or `desc`, as E2B's API writes them.
    pub fn parse(raw: &str) -> AppResult<Self> {
        match raw {
            "asc" => Ok(Self::Asc),
            "desc" => Ok(Self::Desc),
            other => Err(AppError::Malformed(format!(
                "order `{other}` is not one of asc, desc"
            ))),
        }
    }
}

/// Where a page ended: its last sandbox's start and id, which no two sandboxes share.
/// Written as the `X-Next-Token` the next request gives back.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cursor {
    started_at: DateTime<Utc>,
    id: String,
}

impl Cursor {
    fn of(sandbox: &E2bSandbox) -> Self {
        Self {
            started_at: sandbox.started_at,
            id: sandbox.id.as_str().to_owned(),
        }
    }

    /// A token this listing gave out.
    pub fn parse(token: &str) -> AppResult<Self> {
        let bad = || AppError::Malformed("nextToken is not one a listing gave out".into());
        let (started_at, id) = token.split_once('_').ok_or_else(bad)?;
        let started_at = DateTime::parse_from_rfc3339(started_at).map_err(|_| bad())?;
        if id.is_empty() {
            return Err(bad());
        }
        Ok(Self {
            started_at: started_at.with_timezone(&Utc),
            id: id.to_owned(),
        })
    }

    pub fn token(&self) -> String {
        let at = self.started_at.to_rfc3339_opts(SecondsFormat::Nanos, true);
        format!("{at}_{}", self.id)
    }
}

/// One page of a listing.
pub struct Page {
    pub sandboxes: Vec<E2bSandbox>,
    /// Where the next page starts; none when this one is the last.
    pub next: Option<Cursor>,
}

impl SandboxFilter {
    fn admits(&self, sandbox: &E2bSandbox, template: Option<Option<Template>>) -> bool {
        (self.states.is_empty() || self.states.contains(&sandbox.state))
            && self
                .metadata
                .iter()
                .all(|(key, value)| sandbox.metadata.get(key) == Some(value))
            && self.started_after.is_none_or(|after| sandbox.started_at >= after)
            && template.is_none_or(|wanted| wanted == Some(sandbox.template))
    }
}

impl E2bService {
    /// Up to `limit` of the owner's sandboxes matching `filter` in `order`, after `after`
    /// (the cursor a page before ended at).
    pub async fn list(
        &self,
        owner: &UserId,
        filter: &SandboxFilter,
        order: Order,
        after: Option<&Cursor>,
        limit: usize,
    ) -> AppResult<Page> {
        let template = filter.template.as_deref().map(|name| Template::parse(name).ok());
        let mut sandboxes: Vec<(Cursor, E2bSandbox)> = self
            .sandboxes
            .list(owner)
            .await?
            .into_iter()
            .filter(|sandbox| filter.admits(sandbox, template))
            .map(|sandbox| (Cursor::of(&sandbox), sandbox))
            .filter(|(at, _)| match (after, order) {
                (None, _) => true,
                (Some(after), Order::Asc) => at > after,
                (Some(after), Order::Desc) => at < after,
            })
            .collect();
        sandboxes.sort_by(|(a, _), (b, _)| match order {
            Order::Asc => a.cmp(b),
            Order::Desc => b.cmp(a),
        });
        let more = sandboxes.len() > limit;
        sandboxes.truncate(limit);
        let next = sandboxes.last().filter(|_| more).map(|(at, _)| at.clone());
        Ok(Page {
            sandboxes: sandboxes.into_iter().map(|(_, sandbox)| sandbox).collect(),
            next,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_as_written_and_a_foreign_token_is_refused() {
        let cursor = Cursor {
            started_at: DateTime::parse_from_rfc3339("2025-03-01T10:00:00.123456789Z")
                .unwrap()
                .with_timezone(&Utc),
            id: "0195f0a8-0000-7000-8000-000000000001".into(),
        };
        assert_eq!(Cursor::parse(&cursor.token()).unwrap(), cursor);
        for bad in [
            "",
            "0195f0a8-0000-7000-8000-000000000001",
            "yesterday_x",
            "2025-03-01T10:00:00Z_",
        ] {
            assert!(matches!(Cursor::parse(bad), Err(AppError::Malformed(_))), "{bad}");
        }
        assert!(Order::parse("newest").is_err());
        assert_eq!(Order::default(), Order::Desc);
    }
}
