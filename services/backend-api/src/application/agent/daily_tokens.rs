//! Each person's daily model-token budget (UTC days). The tokens each model request
//! cost are added to a counter in the key-value store, keyed by person and day (so it
//! holds across replicas and expires by itself), as the request's usage arrives; a run
//! asks before each model request and ends with an error once the day's budget is used.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Days, NaiveTime, Utc};

use crate::domain::agent::TokenUsage;
use crate::domain::ports::KeyValueStore;
use crate::domain::user::UserId;
use crate::domain::DomainResult;

pub struct DailyTokens {
    kv: Arc<dyn KeyValueStore>,
    /// Tokens (prompt and completion) per person per day; `None`: no budget.
    budget: Option<u64>,
}

impl DailyTokens {
    pub fn new(kv: Arc<dyn KeyValueStore>, budget: Option<u64>) -> Self {
        Self { kv, budget }
    }

    /// `Err` with what to tell the person when today's budget is used up.
    pub async fn check(&self, owner: &UserId) -> DomainResult<Result<(), String>> {
        let Some(budget) = self.budget else {
            return Ok(Ok(()));
        };
        let now = Utc::now();
        let used = self
            .kv
            .get(&key(owner, now))
            .await?
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0);
        if used < budget {
            return Ok(Ok(()));
        }
        let resets = next_midnight(now);
        let minutes = (resets - now).num_minutes();
        Ok(Err(format!(
            "Your daily model budget is used up: {used} of {budget} tokens today. It resets at \
             {} (in {} h {} min); send a message then to continue.",
            resets.format("%Y-%m-%d %H:%M UTC"),
            minutes / 60,
            minutes % 60
        )))
    }

    /// Adds a model request's tokens to the person's day.
    pub async fn record(&self, owner: &UserId, usage: &TokenUsage) -> DomainResult<()> {
        let tokens = usage.prompt_tokens + usage.completion_tokens;
        if self.budget.is_none() || tokens == 0 {
            return Ok(());
        }
        let now = Utc::now();
        // Kept a day past its end, so a late request of the day still finds it.
        let keep = (next_midnight(now) - now).to_std().unwrap_or_default() + Duration::from_secs(24 * 3600);
        self.kv.add(&key(owner, now), tokens, keep).await?;
        Ok(())
    }
}

fn key(owner: &UserId, now: DateTime<Utc>) -> String {
    format!("tokens:day:{}:{}", now.format("%Y-%m-%d"), owner.as_str())
}

fn next_midnight(now: DateTime<Utc>) -> DateTime<Utc> {
    let tomorrow = now
        .date_naive()
        .checked_add_days(Days::new(1))
        .unwrap_or(now.date_naive());
    tomorrow.and_time(NaiveTime::MIN).and_utc()
}
